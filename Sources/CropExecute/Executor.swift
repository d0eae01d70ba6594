import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import CropStore
import CropSupport
import Dispatch
import Foundation

/// Runs a plan: one decode per source for all of its outputs, sources in parallel on
/// Dispatch, outputs written atomically and recorded in the state database, and a manifest
/// of what was done.
public final class Executor: Sendable {
  public let plan: Plan
  public let options: RunOptions
  let reporter: RunReporter
  /// For each source, the path of the original file it comes from: what shards are chosen by
  /// (`Plan.rootSources`).
  package let rootSources: [String]
  /// The state the plan was made with (opened at `run` when not given).
  let givenState: StateReader?

  /// `state`: the output root's state, whole (a library caller's); without it, `run` reads
  /// the output root's state window by window (`StateReader`).
  public convenience init(
    plan: Plan, options: RunOptions, reporter: RunReporter, state: StateView<Manifest.Entry>? = nil
  ) {
    self.init(plan: plan, options: options, reporter: reporter, reader: state.map(StateReader.init(whole:)))
  }

  /// `reader`: the output root's state as opened before planning (`StateReader.open`).
  public init(plan: Plan, options: RunOptions, reporter: RunReporter, reader: StateReader?) {
    self.plan = plan
    self.options = options
    self.reporter = reporter
    self.givenState = reader
    rootSources = plan.rootSources()
  }

  /// The executor of one window of a `PlanStream` (its roots are the stream's).
  init(window: PlanWindow, options: RunOptions, reporter: RunReporter) {
    plan = window.plan
    self.options = options
    self.reporter = reporter
    givenState = nil
    rootSources = window.roots
  }

  /// One decode task: a source and the outputs it feeds in one stage with one colour
  /// policy (see `DecodeKey`).
  struct Task: Sendable {
    var source: Int
    var colour: ColourPolicy
    var outputs: [Int]
  }

  /// What one run shares between its workers.
  struct RunState: Sendable {
    /// What earlier runs recorded, read a window at a time.
    let reader: StateReader
    /// What the state records of the window being run: its outputs, their sources and claims
    /// (`with(window:selected:force:)`).
    private(set) var window = StateView<RecordedOutput>()
    /// The up-to-date check of the window being run.
    private(set) var windowCheck: UpToDateCheck? = nil
    /// The outputs the manifest will list (`ManifestList`: hashes and paths, not entries).
    let manifest: LockedBox<ManifestList>
    /// Outputs of the window found up to date (indices in its plan): their entries are the
    /// state's, looked up only if the manifest is written.
    private(set) var upToDate = LockedBox([Int]())
    /// Outputs of the window that failed this run (paths).
    private(set) var failedPaths = LockedBox(Set<String>())
    let writer: StateWriter
    /// Recorded outputs this run found pruned or gone: forgotten by the state at the end.
    let forgotten = LockedBox([String]())
    let summary = LockedBox(RunSummary())
    /// Set when the state could not claim a window's outputs.
    let stopped = LockedBox(false)
    /// The check that keeps each output inside the root just before it is written, with the
    /// root normalised once and each folder resolved once (`EscapeCheck`): per output, a
    /// lexical split and one `lstat` of the name in its folder, no Foundation path
    /// normalisation (issue 25).
    let escapes: LockedBox<EscapeCheck>

    init(reader: StateReader, writer: StateWriter, root: String, manifest: ManifestList = ManifestList()) {
      self.reader = reader
      self.writer = writer
      self.manifest = LockedBox(manifest)
      escapes = LockedBox(EscapeCheck(root: root))
    }

    var check: UpToDateCheck { windowCheck! }

    /// The state as the window of `plan` sees it (its outputs among `selected`, their
    /// sources): its own check and up-to-date outputs.
    func with(window plan: Plan, selected: [Int], force: Bool) throws(StateError) -> RunState {
      var copy = self
      copy.window = try reader.read(.keys, StateQuery(plan: plan, selected: selected))
      copy.windowCheck = UpToDateCheck(plan: plan, state: copy.window, force: force)
      copy.upToDate = LockedBox([Int]())
      copy.failedPaths = LockedBox(Set<String>())
      return copy
    }
  }

  /// The outputs this run is responsible for (all, or one shard's).
  public func selectedOutputs() -> [Int] { plan.selectedOutputs(shard: options.shard, roots: rootSources) }

  /// Whether this run (or its shard) is responsible for a source given by its path as the
  /// job file sees it.
  func owns(sourcePath: String) -> Bool {
    options.shard?.contains(sourcePath) ?? true
  }

  public func run() -> RunSummary {
    let selected = selectedOutputs()
    let reader: StateReader
    let snapshot: StateView<RecordedOutput>
    do throws(StateError) {
      if let givenState {
        reader = givenState
      } else {
        reader = try StateReader.open(root: plan.outputRoot, shard: options.shard)
      }
      snapshot = try reader.read(.keys, StateQuery(plan: plan, selected: selected))
    } catch {
      return refuse(Refusal(error), planned: selected.count)
    }
    let conflicts = selected.filter { i in
      !snapshot.isOwn(plan.outputs[i].path) && FileIdentity.of(path: plan.outputs[i].absolutePath) != nil
    }.map { OverwriteGuard.Conflict(output: plan.outputs[$0], source: plan.sources[plan.outputs[$0].sourceIndex].path) }
    let planned = Set(plan.outputs.map(\.path))
    return Self.run(
      frame: Frame(
        root: plan.outputRoot, engineVersion: plan.engineVersion, planned: selected.count, reader: reader,
        conflicts: conflicts, failedSources: Self.failedSources(plan.issues)),
      options: options, reporter: reporter, isPlanned: { planned.contains($0) },
      reportFailures: { state in self.reportPlanFailures(state) },
      windows: { body, _ in body(self, selected) })
  }

  /// A run of a `PlanStream` (`PlanStream.make` was its first pass): its windows one after
  /// the other, each decoded and written as `run()` does a whole plan, with the state and
  /// the manifest shared. `firstPass` is what the first pass found (`FirstPass`: the
  /// state the stream was planned with, the files in the way — a run with any is refused
  /// unless `options.overwrite` — and the windows all up to date, which are not planned
  /// again).
  public static func run(
    stream: PlanStream, options: RunOptions, reporter: RunReporter, firstPass: FirstPass
  ) -> RunSummary {
    let frame = Frame(
      root: stream.outputRoot, engineVersion: stream.engineVersion, planned: stream.selectedCount,
      reader: firstPass.state, conflicts: firstPass.conflicts, failedSources: failedSources(stream.issues),
      firstPass: firstPass)
    let root = stream.outputRoot
    return run(
      frame: frame, options: options, reporter: reporter,
      isPlanned: { stream.outputPaths.contains(HashSet64.hash((root as NSString).appendingPathComponent($0))) },
      reportFailures: { state in
        reportPlanFailures(
          stream.issues, root: { stream.issueRoots[$0] ?? $1 }, options: options, reporter: reporter, state: state)
      },
      windows: { body, skipped in
        stream.forEachWindow(skipping: { firstPass.upToDate[$0] != nil }, skipped: skipped) { window in
          body(Executor(window: window, options: options, reporter: reporter), window.selected)
        }
      })
  }

  /// What a run knows before its windows: where it writes, how many outputs it is
  /// responsible for, the state it starts from and the files in the way.
  struct Frame {
    var root: String
    var engineVersion: String
    var planned: Int
    var reader: StateReader
    var conflicts: [OverwriteGuard.Conflict]
    /// The sources the plan could not use (their earlier outputs are kept, not stale).
    var failedSources: Set<String> = []
    var firstPass: FirstPass? = nil
  }

  /// The sources (paths as the job sees them) that the plan's errors fail.
  static func failedSources(_ issues: [PlanIssue]) -> Set<String> {
    Set(issues.compactMap { $0.severity == .error && !$0.blocksRun ? $0.source : nil })
  }

  /// The steps of a run around its windows: refuse or open the state, report the plan's
  /// failures, run each window (`windows` passes each window's executor and selected
  /// outputs to its first argument, the number of each window the first pass found up to
  /// date to its second), then the stale outputs, the state and the manifest.
  static func run(
    frame: Frame, options: RunOptions, reporter: RunReporter, isPlanned: (String) -> Bool,
    reportFailures: (RunState) -> Void, windows: ((Executor, [Int]) -> Void, (Int) -> Void) -> Void
  ) -> RunSummary {
    Vips.startBeforeThreads()
    let state: RunState
    switch openState(frame, options: options) {
    case .success(let opened): state = opened
    case .failure(let refusal): return refuse(refusal, planned: frame.planned, reporter: reporter)
    }
    state.summary.withLock { $0.planned = frame.planned }
    reporter.report(.started(total: frame.planned, upToDate: 0))
    reportFailures(state)
    var folders = Set<String>()
    withoutActuallyEscaping(windows) { windows in
      windows(
        { executor, selected in
          guard !selected.isEmpty, !executor.shouldStop(state) else { return }
          executor.runWindow(selected: selected, state: state, folders: &folders)
        },
        { number in
          guard let firstPass = frame.firstPass, !shouldStop(state, options: options) else { return }
          firstPass.count(window: number, state: state, reporter: reporter)
        })
    }
    if Cancellation.isCancelled { state.summary.withLock { $0.interrupted = true } }
    reportStale(
      isPlanned: isPlanned, failedSources: frame.failedSources, root: frame.root, options: options, reporter: reporter,
      state: state)
    state.writer.remove(state.forgotten.withLock { $0 })
    if let error = state.writer.commitPending() {
      recordFailure(
        output: Self.relativeStatePath(error.path), source: "", reason: "\(error)", reporter: reporter, state: state)
    }
    commitManifest(
      root: frame.root, engineVersion: frame.engineVersion, options: options, reporter: reporter, state: state)
    let result = state.summary.withLock { $0 }
    state.writer.recordRun(
      result.interrupted
        ? ShardCompleteness.RunStatus.interrupted
        : result.failed > 0 ? ShardCompleteness.RunStatus.failed(result.failed) : ShardCompleteness.RunStatus.complete)
    _ = state.writer.finish()
    reporter.report(.finished(result))
    return result
  }

  /// One window: its outputs claimed in the state, then decoded and written stage by stage;
  /// what its up-to-date and unreached outputs were is kept for the manifest.
  private func runWindow(selected: [Int], state: RunState, folders: inout Set<String>) {
    let windowState: RunState
    do throws(StateError) {
      windowState = try state.with(window: plan, selected: selected, force: options.force)
      let unrecorded = selected.map { plan.outputs[$0].path }.filter { windowState.window.outputs[$0] == nil }
      try state.writer.claim(unrecorded.filter { !windowState.window.claims.contains($0) })
    } catch {
      // What this window writes could not be claimed: the run stops here.
      state.stopped.withLock { $0 = true }
      recordFailure(output: Self.relativeStatePath(error.path), source: "", reason: "\(error)", state: state)
      return
    }
    for folder in plan.outputFolders(selected) where folders.insert(folder).inserted {
      AtomicWriter.removeStaleTemporaries(in: folder)
    }
    let writtenBefore = state.manifest.withLock { $0.writtenCount }
    let stages = Set(selected.map { plan.outputs[$0].stage }).sorted()
    for stage in stages where !shouldStop(state) {
      var byDecode: [DecodeKey: [Int]] = [:]
      for i in selected where plan.outputs[i].stage == stage {
        byDecode[plan.outputs[i].decodeKey, default: []].append(i)
      }
      let tasks = byDecode.keys.sorted().map { Task(source: $0.sourceIndex, colour: $0.colour, outputs: byDecode[$0]!) }
      let budget = PixelBudget(limit: options.maxPixelsInFlight)
      WorkerPool.run(
        tasks, workers: options.jobs, stop: { self.shouldStop(state) },
        body: { task in self.perform(task, budget: budget, state: windowState) })
    }
    gatherManifestEntries(selected: selected, state: windowState, writtenBefore: writtenBefore)
  }

  /// Interrupted, `--fail-fast` after a failure, or the state can no longer record outputs.
  func shouldStop(_ state: RunState) -> Bool { Self.shouldStop(state, options: options) }

  static func shouldStop(_ state: RunState, options: RunOptions) -> Bool {
    Cancellation.isCancelled || (options.failFast && state.summary.withLock { $0.failed > 0 })
      || state.writer.failed || state.stopped.withLock { $0 }
  }

  /// Outputs among `selected` whose files match the state of an earlier run.
  public func upToDatePaths(_ selected: [Int]) -> Set<String> {
    let reader = givenState ?? (try? StateReader.open(root: plan.outputRoot, shard: options.shard))
    let state = (try? reader?.read(.keys, StateQuery(plan: plan, selected: selected))) ?? StateView()
    return UpToDateCheck(plan: plan, state: state, force: options.force).upToDatePaths(selected)
  }

  /// Decodes one source (unless all of the task's outputs are up to date) and writes each
  /// of its outputs.
  private func perform(_ task: Task, budget: PixelBudget, state: RunState) {
    let source = plan.sources[task.source]
    func failAll(_ outputs: [Int], _ reason: String) {
      for i in outputs { fail(i, reason, state: state) }
    }
    if let error = source.error { return failAll(task.outputs, error) }
    guard let header = source.header else { return failAll(task.outputs, "no header") }
    let record: Manifest.SourceRecord
    do {
      if let upstream = source.producedBy, !FileManager.default.fileExists(atPath: source.absolutePath) {
        return failAll(task.outputs, "its source was not produced: job \(upstream) failed to write \(source.path)")
      }
      let sourceState = try state.check.sourceState(source, outputs: task.outputs)
      record = sourceState.record
      if sourceState.hashed && source.producedBy == nil { recordSource(source, sourceState, state: state) }
    } catch {
      return failAll(
        task.outputs,
        "cannot read the source: \(error is AtomicWriter.WriteError ? "\(error)" : AtomicWriter.reason(error))")
    }
    var pending: [(Int, String)] = []
    var upToDate: [Int] = []
    for i in task.outputs {
      let output = plan.outputs[i]
      let key = state.check.key(of: output, source: record)
      if state.check.isUpToDate(output, key: key) {
        upToDate.append(i)
        reporter.report(.skipped(path: output.path))
      } else {
        pending.append((i, key))
      }
    }
    if !upToDate.isEmpty {
      // One lock per source, not per output.
      state.upToDate.withLock { $0 += upToDate }
      state.summary.withLock { $0.upToDate += upToDate.count }
    }
    guard !pending.isEmpty, !Cancellation.isCancelled else { return }
    let pixels = header.width * header.height / max(1, source.loadShrink * source.loadShrink)
    budget.acquire(pixels)
    defer { budget.release(pixels) }
    // The wait for the budget can be long: do not start a decode after an interrupt.
    guard !Cancellation.isCancelled else { return }
    let decoded: DecodedSource
    do {
      decoded = try DecodedSource.decode(
        path: source.absolutePath, header: header, shrink: source.loadShrink, strictness: options.strictness,
        colour: task.colour, jpegDecoder: options.jpegDecoder)
    } catch {
      return failAll(pending.map(\.0), error.description)
    }
    state.summary.withLock { $0.decodes += 1 }
    reporter.report(.decoded(source: source.path))
    for (i, key) in pending {
      if Cancellation.isCancelled { return }
      write(i, key: key, from: decoded, record: record, state: state)
    }
  }

  /// Renders, encodes and writes one output, and records it.
  private func write(
    _ index: Int, key: String, from decoded: DecodedSource, record: Manifest.SourceRecord, state: RunState
  ) {
    let output = plan.outputs[index]
    do {
      // Smart focus is resolved from the pixels (shared with `preview`: RunGeometry.swift).
      let run = try output.runGeometry(decoded: decoded)
      let planned = run.geometry
      let encoded = try OutputEncoder.produce(
        decoded, geometry: planned, style: output.style, encode: output.encode, metadata: output.metadata,
        jpegEncoder: options.jpegEncoder)
      let geometry = encoded.geometry
      if let problem = state.escapes.withLock({ $0.problem(output.absolutePath) }) {
        throw AtomicWriter.WriteError(path: output.absolutePath, message: problem)
      }
      try AtomicWriter.write(encoded.bytes, to: output.absolutePath, durable: false)
      let entry = Manifest.Entry(
        path: output.path, job: output.job, key: key, bytes: encoded.bytes.count, width: geometry.outputSize.width,
        height: geometry.outputSize.height, sha256: SHA256.hex(encoded.bytes),
        format: output.encode.options.format.rawValue, quality: encoded.quality, encodes: encoded.encodes,
        source: record, geometry: Manifest.GeometryRecord(geometry, output: output, found: run.found))
      state.manifest.withLock { $0.addWritten(output.path) }
      state.writer.record(entry)
      state.summary.withLock {
        $0.written += 1
        $0.encodes += encoded.encodes
      }
      reporter.report(
        .wrote(path: output.path, bytes: encoded.bytes.count, quality: encoded.quality, encodes: encoded.encodes))
    } catch {
      fail(index, "\(error)", state: state)
    }
  }

  /// Records a source just hashed, with its header read again now: the plan's header may be
  /// of another version of the file (changed after planning), and the state must never pair
  /// a header with an identity it was not read under. Not recorded when the file changed
  /// while it was hashed or read (its identity differs afterwards).
  private func recordSource(_ source: PlannedSource, _ sourceState: UpToDateCheck.SourceState, state: RunState) {
    guard let header = try? SourceHeader.read(path: source.absolutePath, jpegDecoder: options.jpegDecoder),
      FileIdentity.of(path: source.absolutePath) == sourceState.identity
    else { return }
    state.writer.recordSource(
      path: source.absolutePath,
      facts: SourceFacts(identity: sourceState.identity, sha256: sourceState.record.sha256, header: header))
  }
}
