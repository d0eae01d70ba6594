import Foundation

/// A job file planned once, the same way for `cropjob plan`, `run --dry-run` and `run` (and
/// a program that embeds cropjob): the output root's state opened, every output planned
/// window by window (`PlanStream`) with the decide room's verdict on it (`VerdictPass`), the
/// files in the way of outputs and index files found (`FileInTheWay`), and whether a run is
/// refused (`RunRefusal`) — all before anything is written. `plan` renders it; `run`
/// executes it (`JobRun.execute`).
public struct JobPlan {
  /// What the plan is made for.
  public enum Purpose: Sendable, Equatable {
    /// To run: verdicts from the state alone (a photo whose recorded facts differ is hashed
    /// by the run), windows all up to date not planned again.
    case run
    /// To print (`plan`, `run --dry-run`): every verdict final (such a photo is hashed now),
    /// the plan produced window by window.
    case print
    /// To print the whole plan at once (`plan --format dot`): one window per job, kept.
    case printWhole
  }

  public let purpose: Purpose
  package let stream: PlanStream
  package let verdicts: VerdictPass
  /// Where the outputs live (`JobRun.openOutputs`).
  package let outputs: OutputStore
  /// Every file cropjob did not write in the way of an output (sorted by path), then of an
  /// index file (sorted by path).
  public let filesInTheWay: [FileInTheWay]
  /// Why a run of this plan is refused (nothing would be written), nil when it may run.
  public let refusal: RunRefusal?

  /// Plans `job`'s file with its settings (output root, limits, window, shard, force,
  /// overwrite, `verifySources`; `rebuildState` for `.run` only). Fails when the state
  /// cannot be opened or read; every other refusal is the plan's `refusal`.
  public static func make(_ job: JobRun, for purpose: Purpose = .run) -> Result<JobPlan, RunRefusal> {
    let outputs: OutputStore
    switch job.openOutputs(rebuildingState: purpose == .run && job.rebuildState) {
    case .success(let opened): outputs = opened
    case .failure(let refusal): return .failure(refusal)
    }
    if purpose == .run && job.rebuildState { StateFiles.removeAll(root: outputs.root) }
    let state: StateReader
    do throws(StateError) {
      state = try StateReader.open(root: outputs.root, shard: job.options.shard, verifySources: job.verifySources)
    } catch {
      return .failure(.state(error))
    }
    // An object store's outputs are planned in the local folder that stands for its prefix.
    let root = outputs.isListed ? outputs.root : job.outputRoot
    var planner = Planner(
      limits: job.limits, outputRoot: root, state: state, jpegDecoder: job.options.jpegDecoder)
    planner.storage = job.storage
    let plan = JobPlan(
      job.file, planner: planner, state: state, options: job.options, window: job.window, for: purpose,
      outputs: outputs)
    if case .state(let error) = plan.refusal { return .failure(.state(error)) }
    return .success(plan)
  }

  /// Plans `file` with `planner` over `state` (the output root's, opened for
  /// `options.shard`); `options` gives the shard, `force` (`.run` only) and `overwrite`.
  package init(
    _ file: JobFile, planner: Planner, state: StateReader, options: RunOptions = RunOptions(),
    window: Int = PlanStream.defaultWindow, for purpose: Purpose = .run, outputs: OutputStore? = nil
  ) {
    self.purpose = purpose
    verdicts = VerdictPass(
      state: state, jobs: file.jobs, force: purpose == .run && options.force, exact: purpose != .run,
      outputs: outputs)
    stream = PlanStream.make(
      file, planner: planner, shard: options.shard, window: purpose == .printWhole ? Int.max : window,
      collect: purpose == .printWhole, inspect: verdicts.inspect)
    let store = outputs ?? OutputStore(localRoot: stream.outputRoot)
    self.outputs = store
    filesInTheWay = verdicts.conflicts + FileInTheWay.indexFiles(IndexFile.planned(stream).files, in: store)
    refusal = RunRefusal.of(stream, state: state, filesInTheWay: filesInTheWay, overwrite: options.overwrite)
  }

  /// `init(_:planner:state:options:window:for:)` over the state of `planner`'s output root
  /// for `file` (opened for `options.shard`) unless `state` is given: for tests that plan
  /// with a planner of their own.
  package static func planned(
    _ file: JobFile, planner: Planner, state: StateReader? = nil, options: RunOptions = RunOptions(),
    window: Int = PlanStream.defaultWindow
  ) throws(StateError) -> JobPlan {
    let reader: StateReader
    if let state {
      reader = state
    } else {
      reader = try StateReader.open(root: planner.outputRoot(of: file), shard: options.shard)
    }
    return JobPlan(file, planner: planner, state: reader, options: options, window: window)
  }

  /// What the executor runs (`Executor.run`).
  var workload: RunWorkload { RunWorkload(stream: stream, verdicts: verdicts, outputs: outputs) }

  /// Whether the plan can run: no error stops it (path collisions, outputs outside the root).
  public var isRunnable: Bool { stream.isRunnable }
  /// The outputs planned (this run's shard's).
  public var outputCount: Int { stream.selectedCount }
  /// The sources the jobs read.
  public var sourceCount: Int { stream.sourceCount }
  /// The plan as `cropjob plan` prints it (text, without the up-to-date counts).
  public var text: String { PlanRenderer.text(stream, upToDate: nil) }
}
