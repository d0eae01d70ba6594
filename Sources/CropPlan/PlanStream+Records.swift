import CropSpec
import CropSupport
import Foundation

/// The state's recorded plans in a run's stream (docs/scale.md, "The no-op re-run"): a
/// source whose recorded plan has the fingerprint it would have now, whose outputs the
/// state records with that plan's keys and whose files have the recorded sizes, is not
/// planned again; the windows carry what recording the other sources' plans takes.
extension PlanStream {
  /// The fingerprint base (`PlanFingerprint.base`) of each source of a window of `job` whose
  /// plan can be recorded: a file with a header, no error, no override failure, no focus
  /// on stored regions (read from the file, not fingerprinted), read once by the job.
  func planBases(job: Job, entries: [(index: Int, subdirectory: String)], sources: [PlannedSource]) -> [Int: String] {
    let text: String
    if let known = jobTexts[job.name] {
      text = known
    } else {
      text =
        PlanFingerprint.job(job, file: jobFile)
        + "\nfile=\(jobFile.path)\ncrop_table=\(jobFile.cropTable ?? "")"
      jobTexts[job.name] = text
    }
    var bases: [Int: String] = [:]
    var twice = Set<Int>()
    for (index, subdirectory) in entries {
      guard !twice.contains(index) else { continue }
      guard bases[index] == nil else {
        bases[index] = nil
        twice.insert(index)
        continue
      }
      let source = sources[index]
      guard source.error == nil, source.producedBy == nil, let header = source.header else { continue }
      let applied = overrides.apply(
        job.place, job: job.name, source: source, header: header, settings: jobFile.cropTableSettings)
      guard applied.failure == nil, !Planner.usesRegions(applied.place) else { continue }
      var placement = "placement=\(PartJSON.place(applied.place)) row=\(applied.hasRow)"
      if let replaced = applied.replacedRowCrop {
        placement += " replaced=\(replaced.row) \(replaced.inline.line):\(replaced.inline.column) \(replaced.fields)"
      }
      bases[index] = PlanFingerprint.base(
        job: text, engine: engineVersion, source: source.path, subdirectory: subdirectory, header: header,
        placement: placement)
    }
    return bases
  }

  /// The sources among `bases` that the state's recorded plans stand for: found as the state
  /// records them (`PlannedSource.recordedIdentity`), with a recorded plan of the fingerprint
  /// they have now, each output recorded with the plan's key and its file, not a symlink,
  /// of the recorded size.
  func recordedPlans(job: Job, bases: [Int: String], sources: [PlannedSource]) -> [Int: RecordedPlan] {
    let candidates = bases.keys.filter { sources[$0].recordedIdentity }.sorted()
    guard !candidates.isEmpty else { return [:] }
    let found = planner.headers.recordedPlans(job: job.name, paths: candidates.map { sources[$0].absolutePath })
    var result: [Int: RecordedPlan] = [:]
    for index in candidates {
      guard let known = found[sources[index].absolutePath], known.bytes.count == known.plan.outputs.count,
        PlanFingerprint.fingerprint(base: bases[index]!, sourceHash: known.sourceHash) == known.plan.fingerprint
      else { continue }
      let filesMatch = zip(known.plan.outputs, known.bytes).allSatisfy { output, bytes in
        // The path check's own escape check (`PathChecks`), made here: a recorded output
        // passes it, and its file, no symlink, has the recorded size.
        var file: SourceFileStatus?? = nil
        guard let bytes,
          recordedEscapes.problem(OutputPaths.absolute(output.path, root: outputRoot), file: &file) == nil,
          case .some(.some(let status)) = file
        else { return false }
        return status.size == Int64(bytes)
      }
      if filesMatch { result[index] = known.plan }
    }
    return result
  }

  /// What recording the plan of each source of `bases` that was planned takes: its shrink,
  /// colours and warnings (a source with an error is not recorded).
  func sourcePlans(job: Job, bases: [Int: String], recorded: [Int: RecordedPlan], draft: PlanDraft) -> [SourcePlan] {
    guard !bases.isEmpty else { return [] }
    var decodes: [Int: (shrink: Int, colours: UInt8)] = [:]
    for output in draft.outputs where bases[output.sourceIndex] != nil {
      guard let header = draft.sources[output.sourceIndex].header else { continue }
      let shrink = header.loadShrink(maxOutputScale: output.decodeScale(header: header))
      let colour = UInt8(1) << ColourPolicy.allCases.firstIndex(of: output.encode.colour)!
      let known = decodes[output.sourceIndex]
      decodes[output.sourceIndex] = (min(known?.shrink ?? shrink, shrink), (known?.colours ?? 0) | colour)
    }
    var issues: [String: [PlanIssue]] = [:]
    for issue in draft.issues {
      if let source = issue.source { issues[source, default: []].append(issue) }
    }
    var result: [SourcePlan] = []
    for index in bases.keys.sorted() where recorded[index] == nil {
      guard let warnings = RecordedPlan.issues(issues[draft.sources[index].path] ?? []) else { continue }
      let decode = decodes[index]
      result.append(
        SourcePlan(
          job: job.name, source: index, base: bases[index]!, shrink: decode?.shrink ?? 0,
          colours: decode?.colours ?? 0, issues: warnings))
    }
    return result
  }

  /// In the first pass: the outputs of the window's recorded sources checked as planned
  /// ones are (paths, collisions), counted, and their decodes noted.
  func noteRecorded(
    _ window: PlanWindow, checks: inout PathChecks, paths: inout StandardPaths, colours: inout [UInt8],
    counts: inout (sources: Int, outputs: Int)
  ) {
    guard !window.recorded.isEmpty else { return }
    let selected = Set(window.recordedSelected)
    for local in window.recorded.keys.sorted() {
      let plan = window.recorded[local]!
      let number = window.sourceNumbers[local]
      let source = window.plan.sources[local]
      table.noteShrink(number, plan.shrink)
      for output in plan.outputs {
        // Its escape check passed when the record was taken (`recordedPlans`).
        checks.check(
          path: output.path, absolutePath: OutputPaths.absolute(output.path, root: outputRoot), job: window.job,
          source: source.path, stream: self, paths: &paths, escapes: false)
      }
      outputCount += plan.outputs.count
      guard selected.contains(local) else { continue }
      colours[number] |= plan.colours
      if !plan.outputs.isEmpty { counts.sources += 1 }
      counts.outputs += plan.outputs.count
    }
  }
}
