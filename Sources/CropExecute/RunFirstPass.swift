import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation

/// What `run` learns of each window in the first pass of its `PlanStream` (pass `inspect` as
/// `PlanStream.make`'s `inspect`), before anything is written: the files in its way that
/// cropjob did not write (the overwrite guard), and whether every output of the window is
/// up to date. Such a window is not planned again in the second pass: the run counts and
/// reports its outputs as up to date and lists them in the manifest from the paths kept here
/// (docs/scale.md, "The no-op re-run").
///
/// A window is up to date when each of its selected outputs is recorded with the key it
/// would have now and its file has the recorded size, and no source had to be hashed again
/// (a source hashed again is recorded by the second pass). A `from:` job's window can be up
/// to date only if every window of its upstream job was (the upstream outputs it reads are
/// then the files on disk now); `--force` makes none up to date. One `stat` per output
/// answers both questions, and the window's state is looked up once for both.
public final class RunFirstPass {
  public let state: StateReader
  let force: Bool
  /// Each job's upstream job (`from:`).
  let upstream: [String: String]
  private var found: [OverwriteGuard.Conflict] = []
  /// Jobs with a window that is not all up to date.
  private var touched = Set<String>()
  /// The up-to-date windows: number → their selected outputs' paths (a range of `paths`).
  private(set) var upToDate: [Int: Range<Int>] = [:]
  var paths = StringTable()

  public init(state: StateReader, jobs: [Job], force: Bool) {
    self.state = state
    self.force = force
    var upstream: [String: String] = [:]
    for job in jobs { if case .from(let name) = job.input { upstream[job.name] = name } }
    self.upstream = upstream
  }

  /// Every conflict, sorted by path.
  public var conflicts: [OverwriteGuard.Conflict] { found.sorted { $0.output.path < $1.output.path } }

  /// How many windows were found up to date.
  public var upToDateWindows: Int { upToDate.count }

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
    let known = state.readKeeping(.keys, StateQuery(plan: plan, selected: window.selected))
    for (index, _) in existing where !known.isOwn(plan.outputs[index].path) {
      let output = plan.outputs[index]
      found.append(OverwriteGuard.Conflict(output: output, source: plan.sources[output.sourceIndex].path))
    }
    let upstreamDone = upstream[window.job].map { !touched.contains($0) } ?? true
    guard !force, upstreamDone, existing.count == window.selected.count, !known.outputs.isEmpty,
      existing.allSatisfy({ known.outputs[plan.outputs[$0.index].path]?.bytes == Int($0.identity!.size) })
    else {
      touched.insert(window.job)
      return
    }
    let check = UpToDateCheck(plan: plan, previous: [:], sources: known.sources)
    let verdicts = ConcurrentMap.flatMap(groups) { outputs in [Self.isUpToDate(outputs, check: check, known: known)] }
    guard verdicts.allSatisfy({ $0 }) else {
      touched.insert(window.job)
      return
    }
    let start = paths.count
    for i in window.selected { paths.append(plan.outputs[i].path) }
    upToDate[window.number] = start..<paths.count
  }

  /// Whether the outputs of one source (their files known to have the recorded size) have
  /// their recorded keys, without hashing a file source again. (A file source without
  /// recorded facts would be hashed: not up to date.)
  static func isUpToDate(_ outputs: [Int], check: UpToDateCheck, known: StateView<RecordedOutput>) -> Bool {
    let source = check.plan.sources[check.plan.outputs[outputs[0]].sourceIndex]
    guard source.error == nil, source.header != nil,
      source.producedBy != nil || known.sources[source.absolutePath] != nil,
      let sourceState = try? check.sourceState(source, outputs: outputs, identityFromPlan: true),
      !sourceState.hashed || source.producedBy != nil
    else { return false }
    return outputs.allSatisfy { i in
      check.key(of: check.plan.outputs[i], source: sourceState.record) == known.outputs[check.plan.outputs[i].path]?.key
    }
  }
}

extension RunFirstPass {
  /// Hands the up-to-date windows' paths to the run's manifest list (which lists those of
  /// the windows it reaches): kept once, not copied.
  func takePaths() -> StringTable {
    defer { paths = StringTable() }
    return paths
  }

  /// A window found up to date, reached by the run: its outputs reported and counted as up
  /// to date and listed in the manifest, as the second pass does for such outputs.
  func count(window number: Int, state: Executor.RunState, reporter: RunReporter) {
    guard let range = upToDate[number] else { return }
    let paths = state.manifest.withLock { list in
      list.reach(upTo: range.upperBound)
      return range.map { list.earlierPath(Int32($0)) }
    }
    for path in paths { reporter.report(.skipped(path: path)) }
    state.summary.withLock { $0.upToDate += range.count }
  }
}
