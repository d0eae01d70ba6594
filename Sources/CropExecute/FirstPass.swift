import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation

/// The first pass of `plan` (every format), `run` and `run --dry-run` over a `PlanStream`
/// (pass `inspect` as `PlanStream.make`'s `inspect`), before anything is written: one
/// verdict per selected output — up to date, to build, or in the way of a file cropjob did
/// not write (`OverwriteGuard`) — and the counts taken from them. One `stat` per output
/// and, where any output's file exists, one lookup of the window's state answer all three.
///
/// `exact` (`plan`): an output is up to date when `UpToDateCheck` says so, a source whose
/// recorded facts differ being hashed. Not exact (`run`): nothing is read but the state, and
/// only whole windows are judged: a window is up to date when each of its selected outputs
/// is recorded with the key it would have now, its file has the recorded size, no source had
/// to be hashed again (a source hashed again is recorded by the second pass) and, for a
/// `from:` job, every window of its upstream job was up to date (the upstream outputs it
/// reads are then the files on disk now). Such a window is not planned again in the second
/// pass: the run counts and reports its outputs as up to date and lists them in the manifest
/// from the paths kept here (docs/scale.md, "The no-op re-run"); the outputs of the other
/// windows are left to the second pass's check. `--force` makes nothing up to date.
public final class FirstPass {
  /// What the first pass says of a selected output.
  public enum Verdict: UInt8, Sendable {
    case toBuild
    case upToDate
    /// Its path holds a file the state does not record as cropjob's.
    case foreign
  }

  public let state: StateReader
  let force: Bool
  let exact: Bool
  /// Each job's upstream job (`from:`).
  let upstream: [String: String]
  private var found: [OverwriteGuard.Conflict] = []
  /// Jobs with a window that is not all up to date.
  private var touched = Set<String>()
  /// Per window (by number) with a verdict other than `toBuild`: one verdict per output of
  /// its plan.
  private var verdicts: [Int: [Verdict]] = [:]
  /// Per job, how many of its selected outputs are up to date.
  public private(set) var upToDateCounts: [String: Int] = [:]
  /// The up-to-date windows of a run: number → their selected outputs' paths (a range of
  /// `paths`).
  private(set) var upToDate: [Int: Range<Int>] = [:]
  var paths = StringTable()
  /// `run`: the plans of sources planned in full and found up to date, to be recorded by
  /// the run (`Run.open`) so that the next run need not plan them (by absolute path).
  private(set) var plansToRecord: [(source: String, job: String, plan: RecordedPlan)] = []

  /// `exact`: `plan`'s verdicts (see the type); else `run`'s.
  public init(state: StateReader, jobs: [Job], force: Bool = false, exact: Bool) {
    self.state = state
    self.force = force
    self.exact = exact
    var upstream: [String: String] = [:]
    for job in jobs { if case .from(let name) = job.input { upstream[job.name] = name } }
    self.upstream = upstream
  }

  /// Every output in the way of a file cropjob did not write, sorted by path.
  public var conflicts: [OverwriteGuard.Conflict] { found.sorted { $0.output.path < $1.output.path } }

  /// How many windows were found up to date (`run`).
  public var upToDateWindows: Int { upToDate.count }

  /// The verdict on output `k` of `window` (as the first pass saw that window).
  public func verdict(_ k: Int, of window: PlanWindow) -> Verdict {
    verdicts[window.number].map { $0[k] } ?? .toBuild
  }

  /// The paths of `window`'s selected outputs found up to date.
  public func upToDatePaths(of window: PlanWindow) -> Set<String> {
    guard let known = verdicts[window.number] else { return [] }
    return Set(window.selected.filter { known[$0] == .upToDate }.map { window.plan.outputs[$0].path })
  }

  public func inspect(_ window: PlanWindow) {
    let plan = window.plan
    guard !window.selected.isEmpty else {
      // Every selected output is a recorded source's, found up to date (`PlanWindow.recorded`).
      if !window.recordedSelected.isEmpty { keepUpToDate(window) }
      return
    }
    // The files of the window's outputs: in the way, or up to date.
    let groups = Dictionary(grouping: window.selected, by: { plan.outputs[$0].sourceIndex }).values.map { $0 }
    let present = ConcurrentMap.flatMap(groups) { outputs in
      outputs.map { (index: $0, identity: window.outputFile($0)) }
    }
    let existing = present.filter { $0.identity != nil }
    guard !existing.isEmpty else {
      touched.insert(window.job)
      return
    }
    let known = state.readKeeping(.keys, StateQuery(plan: plan, selected: window.selected))
    var keys: [Int: String] = [:]
    var verdict = [Verdict](repeating: .toBuild, count: plan.outputs.count)
    var foreign = false
    for (index, _) in existing where !known.isOwn(plan.outputs[index].path) {
      let output = plan.outputs[index]
      found.append(OverwriteGuard.Conflict(output: output, source: plan.sources[output.sourceIndex].path))
      verdict[index] = .foreign
      foreign = true
    }
    let sizeMatches = existing.filter { known.outputs[plan.outputs[$0.index].path]?.bytes == Int($0.identity!.size) }
    let upstreamDone = upstream[window.job].map { !touched.contains($0) } ?? true
    let judged =
      !force && !known.outputs.isEmpty
      && (exact || (upstreamDone && sizeMatches.count == window.selected.count))
    if judged {
      let check = UpToDateCheck(plan: plan, previous: [:], sources: known.sources)
      let sized = Set(sizeMatches.map(\.index))
      let hashing = exact
      let fresh = ConcurrentMap.flatMap(groups) { outputs in
        FirstPass.upToDate(outputs.filter { sized.contains($0) }, check: check, known: known, hashing: hashing)
      }
      for (i, key) in fresh {
        verdict[i] = .upToDate
        keys[i] = key
      }
      upToDateCounts[window.job, default: 0] += fresh.count
    }
    if foreign || judged { verdicts[window.number] = verdict }
    guard !exact, judged, window.selected.allSatisfy({ verdict[$0] == .upToDate }) else {
      touched.insert(window.job)
      return
    }
    notePlans(window, keys: keys, sources: known.sources)
    keepUpToDate(window)
  }

  /// Keeps `window` (all up to date) as one the run does not plan again: the paths of its
  /// selected outputs, those of its recorded sources (`PlanWindow.recorded`) in their
  /// places, counted.
  private func keepUpToDate(_ window: PlanWindow) {
    let plan = window.plan
    let start = paths.count
    var recorded = window.recordedSelected.makeIterator()
    var next = recorded.next()
    for i in window.selected {
      while let local = next, local < plan.outputs[i].sourceIndex {
        for output in window.recorded[local]!.outputs { paths.append(output.path) }
        next = recorded.next()
      }
      paths.append(plan.outputs[i].path)
    }
    while let local = next {
      for output in window.recorded[local]!.outputs { paths.append(output.path) }
      next = recorded.next()
    }
    upToDateCounts[window.job, default: 0] += paths.count - start - window.selected.count
    upToDate[window.number] = start..<paths.count
  }

  /// Keeps the plans of `window`'s sources planned in full (all up to date: `keys`) for the
  /// run to record, with the content hash the state records of each.
  private func notePlans(_ window: PlanWindow, keys: [Int: String], sources: [String: SourceFacts]) {
    guard !window.sourcePlans.isEmpty else { return }
    let plan = window.plan
    let selected = Set(window.selected)
    var outputs: [Int: [Int]] = [:]
    for (i, output) in plan.outputs.enumerated() { outputs[output.sourceIndex, default: []].append(i) }
    for sourcePlan in window.sourcePlans {
      let source = plan.sources[sourcePlan.source]
      let mine = outputs[sourcePlan.source] ?? []
      guard let hash = sources[source.absolutePath]?.sha256, !mine.isEmpty, mine.allSatisfy({ selected.contains($0) })
      else { continue }
      var recorded: [RecordedPlan.Output] = []
      for i in mine {
        guard let key = keys[i] else { break }
        recorded.append(RecordedPlan.Output(path: plan.outputs[i].path, key: key))
      }
      guard recorded.count == mine.count else { continue }
      plansToRecord.append(
        (source.absolutePath, sourcePlan.job, sourcePlan.record(sourceHash: hash, outputs: recorded)))
    }
  }

  /// Among the outputs of one source (their files known to have the recorded size), those
  /// with their recorded keys. `hashing`: a file source whose recorded facts differ is
  /// hashed again (`plan`); else its outputs are not up to date here (`run`: the second
  /// pass hashes and records it).
  static func upToDate(
    _ outputs: [Int], check: UpToDateCheck, known: StateView<RecordedOutput>, hashing: Bool
  ) -> [(Int, String)] {
    guard let first = outputs.first else { return [] }
    let source = check.plan.sources[check.plan.outputs[first].sourceIndex]
    guard source.error == nil, hashing || source.header != nil,
      hashing || source.producedBy != nil || known.sources[source.absolutePath] != nil,
      let sourceState = try? check.sourceState(source, outputs: outputs, identityFromPlan: !hashing),
      hashing || !sourceState.hashed || source.producedBy != nil
    else { return [] }
    return outputs.compactMap { i in
      let key = check.key(of: check.plan.outputs[i], source: sourceState.record)
      return key == known.outputs[check.plan.outputs[i].path]?.key ? (i, key) : nil
    }
  }
}

extension FirstPass {
  /// Hands the up-to-date windows' paths to the run's manifest list (which lists those of
  /// the windows it reaches): kept once, not copied.
  func takePaths() -> StringTable {
    defer { paths = StringTable() }
    return paths
  }

  /// Hands the plans to record to the run (`plansToRecord`), once.
  func takePlans() -> [(source: String, job: String, plan: RecordedPlan)] {
    defer { plansToRecord = [] }
    return plansToRecord
  }

  /// A window found up to date, reached by the run: its outputs reported and counted as up
  /// to date and listed in the manifest, as the second pass does for such outputs.
  func count(window number: Int, run: Run) {
    guard let range = upToDate[number] else { return }
    let paths = run.manifest.withLock { list in
      list.reach(upTo: range.upperBound)
      return range.map { list.earlierPath(Int32($0)) }
    }
    for path in paths { run.reporter.report(.skipped(path: path)) }
    run.summary.withLock { $0.upToDate += range.count }
  }
}
