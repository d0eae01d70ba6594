import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// A batch's plan, validated whole and then produced window by window, so that memory does
/// not grow with the batch (docs/scale.md).
///
/// `make` is the first pass: it expands the sources, reads every header and plans every
/// output, job by job in windows of `window` sources, keeping only what must be global (the
/// sources, compactly: `SourceTable`; the hashes of the output paths; the issues; counts).
/// Everything `Planner.plan` catches is caught there, before anything is written.
/// `forEachWindow` is the second pass: the same windows again, each an ordinary `Plan` of
/// its sources and outputs, in the plan's order (job by job, each job's sources in order),
/// to print or to run. A batch of at most `window` sources per job is one window per job.
package final class PlanStream {
  /// Sources a window holds: a thousand or so outputs' worth of memory at a time (a smaller
  /// window costs more windows; a larger one more memory and, on the no-op re-run, more CPU:
  /// docs/scale.md, "The no-op re-run, per output").
  package static let defaultWindow = 1024

  package let jobFile: JobFile
  /// Absolute output root.
  package let outputRoot: String
  package let engineVersion: String
  /// The shard the counts and `PlanWindow.selected` are of (nil: all).
  package let shard: Shard?
  /// Sources per window (of one job's sources).
  package let window: Int
  /// Problems found while planning, in `Planner.plan`'s order (held compactly: a batch may
  /// warn of every output).
  package internal(set) var issues = PlanIssueList()
  /// For each issue (index in `issues`) that names a source, the path of the file its chain
  /// starts from: what shards are chosen by.
  package internal(set) var issueRoots: [Int: String] = [:]
  /// Every planned output (all shards).
  package internal(set) var outputCount = 0
  /// The outputs of `shard` (all without one), and the decodes they take (`DecodeKey`).
  package internal(set) var selectedCount = 0
  package internal(set) var decodeCount = 0
  /// Selected outputs that hold every frame of an animated source (`frames: all`), and the
  /// frames they hold in all.
  package internal(set) var animations = AnimationCount()
  /// Per job, the sources of `shard` its patterns matched, the outputs planned of them, and
  /// how many of those sources failed (an error names them: unreadable, an invalid placement...).
  package internal(set) var jobCounts: [String: (sources: Int, outputs: Int, failed: Int)] = [:]
  /// The whole plan, when `make` was asked to collect it.
  package internal(set) var plan: Plan? = nil

  let planner: Planner
  /// The current folder, asked for once (a relative job file's sources are made absolute
  /// against it: one `getcwd` per stream, not per source).
  let currentDirectory = FileManager.default.currentDirectoryPath
  let overrides: OverrideIndex
  let order: [(job: Job, stage: Int)]
  var table = SourceTable()
  /// Each job's sources, in its order.
  var lists: [String: JobList] = [:]
  /// The first pass's windows, kept when the whole plan is at most one window's sources:
  /// a small batch is planned once, as before.
  var kept: [PlanWindow]? = nil
  /// The selected sources of the jobs with an index, and the index file of each, in plan
  /// order (`IndexSource`).
  package internal(set) var indexSources: [IndexSource] = []
  /// Hashes of every planned output's absolute path (`HashSet64.hash`), sorted
  /// (`Array.containsSorted`).
  package internal(set) var outputPaths: [UInt64] = []

  /// Runnable when no issue is an error that stops the whole plan.
  package var isRunnable: Bool { !issues.contains { $0.severity == .error && $0.blocksRun } }
  /// Every source, files and produced.
  package var sourceCount: Int { table.count }

  /// One job's sources: their numbers in the plan, and the subfolder each was found in
  /// (for `{dir}`; empty for a `from:` job).
  struct JobList {
    /// How many first positions are their own numbers (the first job's sources, all new:
    /// held as this count, not 4 bytes each).
    private var same = 0
    /// The numbers of the positions after them.
    private var others: [Int32] = []
    var subdirectories = StringRuns()
    var count: Int { same + others.count }
    func subdirectory(_ i: Int) -> String { subdirectories.isEmpty ? "" : subdirectories[i] }
    /// The number in the plan of the source at position `i`.
    func number(_ i: Int) -> Int { i < same ? i : Int(others[i - same]) }
    mutating func append(_ number: Int) {
      if others.isEmpty && number == same { same += 1 } else { others.append(Int32(number)) }
    }
  }

  init(file: JobFile, planner: Planner, shard: Shard?, window: Int) {
    jobFile = file
    self.planner = planner
    outputRoot = planner.outputRoot(of: file)
    engineVersion = planner.headers.engineVersion
    self.shard = shard
    self.window = max(1, window)
    overrides = OverrideIndex(file.overrides, base: file.baseDirectory)
    order = Planner.jobsInOrder(file.jobs)
  }

  /// The first pass over `file` (see the type), in named steps: the sources expanded and
  /// their headers read, every window of every job planned, checked and handed to
  /// `inspect` (`planWindows`), then the checks finished (`finishChecks`), a small plan's
  /// windows kept for the second pass (`keepWindows`) and, with `collect`, the whole plan
  /// made (`collectPlan`). `collect` keeps every output: `plan` is then the whole plan.
  /// `inspect` sees each window as `forEachWindow` gives it (the overwrite guard looks at its
  /// outputs' files), in order, on a thread of its own while the next window is planned;
  /// `make` returns once it has seen the last.
  package static func make(
    _ file: JobFile, planner: Planner, shard: Shard? = nil, window: Int = defaultWindow, collect: Bool = false,
    inspect: ((PlanWindow) -> Void)? = nil
  ) -> PlanStream {
    let stream = PlanStream(file: file, planner: planner, shard: shard, window: window)
    var paths = StandardPaths()
    stream.expandSources(&paths)
    stream.readHeaders(&paths)
    var pass = FirstPassState(stream: stream, file: file, collect: collect, inspect: inspect)
    stream.planWindows(&pass, paths: &paths)
    stream.finishChecks(&pass)
    stream.keepWindows(pass.kept, small: pass.keep, upstreams: pass.upstreams)
    if collect { stream.collectPlan(pass.collected, paths: &paths) }
    return stream
  }

  /// The number of the first window of `job` (windows are numbered in the plan's order).
  func firstWindowNumber(of job: String) -> Int {
    var number = 0
    for (other, _) in order {
      if other.name == job { return number }
      let count = lists[other.name]?.count ?? 0
      number += count == 0 ? 0 : (count - 1) / window + 1
    }
    return number
  }

  /// The windows of one job: each its sources (numbered in the window), outputs and issues.
  /// `only`: just the window of that index (none when the job has fewer).
  func forEachWindow(
    of job: Job, stage: Int, paths: inout StandardPaths, withShrink: Bool, only: Int? = nil,
    skipping skip: (Int) -> Bool = { _ in false },
    skipped: (Int) -> Void = { _ in }, _ body: (PlanWindow, [PlanIssue]) -> Void
  ) {
    guard let list = lists[job.name] else { return }
    var start = (only ?? 0) * window
    var number = firstWindowNumber(of: job.name) + (only ?? 0)
    let stop = only.map { min(list.count, ($0 + 1) * window) } ?? list.count
    while start < stop {
      let end = start + min(window, list.count - start)
      defer { number += 1 }
      if skip(number) {
        skipped(number)
        start = end
        continue
      }
      var draft = WindowDraft(PlanDraft(file: jobFile, root: outputRoot, overrides: overrides))
      add(start..<end, of: list, job: job.name, to: &draft, paths: &paths, withShrink: withShrink)
      planner.planOutputs(of: job, stage: stage, into: &draft.draft)
      body(planWindow(&draft, job: job.name, stage: stage, number: number), draft.draft.issues)
      start = end
    }
  }

  /// A window being planned: its draft, and its sources' numbers in the plan.
  struct WindowDraft {
    var draft: PlanDraft
    var local: [Int32: Int] = [:]
    var numbers: [Int] = []
    init(_ draft: PlanDraft) { self.draft = draft }
  }

  /// Adds the sources at `positions` of `list` to `window` as sources of `job` (each source
  /// once in the window).
  func add(
    _ positions: some Sequence<Int>, of list: JobList, job: String, to window: inout WindowDraft,
    paths: inout StandardPaths, withShrink: Bool
  ) {
    var entries: [(index: Int, subdirectory: String)] = []
    for i in positions {
      let number = Int32(list.number(i))
      let index: Int
      if let known = window.local[number] {
        index = known
      } else {
        index = window.numbers.count
        window.local[number] = index
        window.numbers.append(Int(number))
        window.draft.sources.append(
          table.planned(Int(number), absolute: absolutePath(Int(number), &paths), withShrink: withShrink))
      }
      entries.append((index, list.subdirectory(i)))
    }
    window.draft.jobSources[job, default: []] += entries
  }

  /// The window `draft` makes, its outputs planned (its sources given their recorded hashes).
  func planWindow(_ draft: inout WindowDraft, job: String, stage: Int, number: Int) -> PlanWindow {
    addRecordedHashes(&draft.draft.sources, numbers: draft.numbers)
    let roots = draft.numbers.map { table.paths[table.root($0)] }
    let inShard = roots.map { shard?.contains($0) ?? true }
    let outputs = draft.draft.outputs
    let plan = Plan(
      jobFile: jobFile, outputRoot: outputRoot, sources: draft.draft.sources, outputs: outputs, issues: [],
      engineVersion: engineVersion)
    return PlanWindow(
      plan: plan, sourceNumbers: draft.numbers, roots: roots,
      selected: outputs.indices.filter { inShard[outputs[$0].sourceIndex] }, job: job, stage: stage, number: number)
  }

  /// Gives the sources `numbers` (`sources`, in order) whose headers came from the state
  /// with a content hash that hash and the stamp of the identity it was recorded with
  /// (`PlannedSource.recordedHash`, `recordedStamp`): one lookup for a window, the hashes
  /// held by none but the window. The state is as the headers found it (nothing writes it
  /// before the run); a hash the run recorded since comes with the identity it hashed,
  /// which `Freshness.isUnchanged` checks as it would the first.
  func addRecordedHashes(_ sources: inout [PlannedSource], numbers: [Int]) {
    let wanted = numbers.indices.filter { table.hasRecordedHash(numbers[$0]) }
    guard !wanted.isEmpty else { return }
    let known = planner.headers.recordedHashes(paths: wanted.map { sources[$0].absolutePath })
    for l in wanted {
      guard let found = known[sources[l].absolutePath] else { continue }
      sources[l].recordedHash = found.sha256
      sources[l].recordedStamp = found.stamp
    }
  }

  /// Keeps a window's issues, with the root of each source an error names.
  func record(_ windowIssues: [PlanIssue], window: PlanWindow) {
    guard !windowIssues.isEmpty else { return }
    let locals = Dictionary(
      window.plan.sources.indices.map { (window.plan.sources[$0].path, $0) }, uniquingKeysWith: { a, _ in a })
    for issue in windowIssues {
      if issue.severity == .error, let source = issue.source, let local = locals[source] {
        issueRoots[issues.count] = window.roots[local]
      }
      issues.append(issue)
    }
  }

  /// The absolute path of source `index`: a file's as the expansion made it, a produced
  /// source's in the output root.
  func absolutePath(_ index: Int, _ paths: inout StandardPaths) -> String {
    guard index < table.fileCount else { return PathText.appending(outputRoot, table.paths[index]) }
    var plain = index < table.plainPaths.count && table.plainPaths[index]
    return SourceExpansion.absolute(
      table.paths[index], base: jobFile.baseDirectory, cwd: currentDirectory, paths: &paths, plain: &plain)
  }

  /// The file source whose absolute path is `absolute` (hashed `hash`), if any.
  func fileSource(_ absolute: String, hash: UInt64, paths: inout StandardPaths) -> Int? {
    table.sources(hashed: UInt32(truncatingIfNeeded: hash)).lazy.map(Int.init).first {
      absolutePath($0, &paths) == absolute
    }
  }
}

/// One window of a `PlanStream`: an ordinary plan of some of one job's sources and their
/// outputs (sources numbered within the window; no issues: they are the stream's).
package struct PlanWindow: Sendable {
  package var plan: Plan
  /// Each source's number in the whole plan (`Plan.sources` of `Planner.plan`).
  package var sourceNumbers: [Int]
  /// For each source, the path of the file its chain starts from (`Plan.rootSources`).
  package var roots: [String]
  /// The outputs of the stream's shard (all without one), in order.
  package var selected: [Int]
  package var job: String
  package var stage: Int
  /// Its place among the stream's windows (0, 1, ...: the plan's order, in both passes).
  package var number: Int
  /// In the first pass's `inspect`: each output's file as the path checks found it (what
  /// `stat` says, `.some(nil)`: no file), nil where they did not learn it (a symlink). Empty
  /// otherwise.
  package var outputFiles: [SourceFileStatus??] = []

  /// The status of output `k`'s file: the path checks' where they learnt it, else `stat`.
  package func outputFile(_ k: Int) -> SourceFileStatus? {
    if k < outputFiles.count, let known = outputFiles[k] { return known }
    return SourceFileStatus.of(path: plan.outputs[k].absolutePath)
  }
}
