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
    guard !window.selected.isEmpty else { return }
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
    // `run` takes its sources' hashes from the plan (`PlannedSource.recordedHash`): only
    // the outputs are looked up.
    let known = state.readKeeping(.keys, StateQuery(plan: plan, selected: window.selected, sources: exact))
    var verdict = [Verdict](repeating: .toBuild, count: plan.outputs.count)
    var foreign = false
    // Each existing file's record, looked up once: in the way, or of the recorded size.
    var recorded = [RecordedOutput?](repeating: nil, count: plan.outputs.count)
    var sized = 0
    for (index, identity) in existing {
      let output = plan.outputs[index]
      guard let row = known.outputs[output.path] else {
        guard !known.claims.contains(output.path) else { continue }
        found.append(OverwriteGuard.Conflict(output: output, source: plan.sources[output.sourceIndex].path))
        verdict[index] = .foreign
        foreign = true
        continue
      }
      if row.bytes == Int(identity!.size) {
        recorded[index] = row
        sized += 1
      }
    }
    let upstreamDone = upstream[window.job].map { !touched.contains($0) } ?? true
    let judged =
      !force && !known.outputs.isEmpty
      && (exact || (upstreamDone && sized == window.selected.count))
    if judged {
      let check = UpToDateCheck(plan: plan, previous: [:], sources: known.sources)
      let hashing = exact
      let fresh = ConcurrentMap.flatMap(groups) { [recorded] outputs in
        FirstPass.upToDate(outputs.filter { recorded[$0] != nil }, check: check, recorded: recorded, hashing: hashing)
      }
      for i in fresh { verdict[i] = .upToDate }
      upToDateCounts[window.job, default: 0] += fresh.count
    }
    if foreign || judged { verdicts[window.number] = verdict }
    guard !exact, judged, window.selected.allSatisfy({ verdict[$0] == .upToDate }) else {
      touched.insert(window.job)
      return
    }
    let start = paths.count
    for i in window.selected { paths.append(plan.outputs[i].path) }
    upToDate[window.number] = start..<paths.count
  }

  /// Among the outputs of one source (their files known to have the recorded size, whose
  /// records are `recorded`, by index in the plan), those with their recorded keys. `hashing`: a file source whose recorded facts differ is
  /// hashed again (`plan`); else a file source counts only with the hash its header came
  /// with from the state (`PlannedSource.recordedHash`: the file had the recorded identity
  /// when the plan looked), and the outputs of any other are not up to date here (`run`:
  /// the second pass hashes and records it). An earlier job's output is hashed either way.
  static func upToDate(_ outputs: [Int], check: UpToDateCheck, recorded: [RecordedOutput?], hashing: Bool) -> [Int] {
    guard let first = outputs.first else { return [] }
    let source = check.plan.sources[check.plan.outputs[first].sourceIndex]
    guard source.error == nil, hashing || source.header != nil else { return [] }
    let sourceHash: String
    if !hashing, source.producedBy == nil {
      guard let recorded = source.recordedHash else { return [] }
      sourceHash = recorded
    } else {
      guard let sourceState = try? check.sourceState(source, outputs: outputs) else { return [] }
      sourceHash = sourceState.record.sha256
    }
    return outputs.filter { i in
      check.key(of: check.plan.outputs[i], sourceHash: sourceHash) == recorded[i]?.key
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
