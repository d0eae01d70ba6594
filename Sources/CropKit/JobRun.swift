import Foundation

/// Runs a job file the way `cropjob run` does, for a program that embeds cropjob: the job
/// file validated (`JobFileLoader`, by the caller), the output root's state opened, every
/// output planned in a first pass (`FirstPass`: paths checked, files in the way, windows up
/// to date) before any is written, then the windows executed (`Executor`), the state and
/// the manifest written, and every event given to a `RunReporter`. The outputs, manifest
/// and state are byte for byte `cropjob run`'s with the same options.
///
///     let loaded = JobFileLoader.load(path: "job.yaml", formats: .libvips)
///     guard let file = loaded.jobFile else { ... loaded.diagnostics ... }
///     switch JobRun(file).run(reporter: myReporter) {
///     case .success(let summary): ...   // summary.failed > 0: some outputs failed
///     case .failure(let refusal): ...   // nothing was written; `refusal` says why
///     }
public struct JobRun {
  public let file: JobFile
  /// Workers, force, prune, fail-fast, overwrite, shard… (`RunOptions`).
  public var options: RunOptions
  /// The output root instead of the job file's `output` (nil: the job file's).
  public var outputRoot: String?
  /// The input limits (default: the job file's).
  public var limits: InputLimits
  /// Sources a window of the plan holds (`PlanStream`).
  public var window = PlanStream.defaultWindow
  /// Hash every source again, whatever the state records of it (`--verify-sources`).
  public var verifySources = false
  /// Delete the state database first and rebuild it from the manifest (`--rebuild-state`).
  public var rebuildState = false

  public init(_ file: JobFile, options: RunOptions = RunOptions()) {
    self.file = file
    self.options = options
    limits = file.limits
  }

  /// Why a job run did not start: nothing was written.
  public enum Refusal: Error, CustomStringConvertible {
    /// The state database cannot be opened or read (damaged, locked, newer).
    case state(StateError)
    /// Errors that stop the whole plan (path collisions, outputs outside the root): the
    /// plan's text, which lists them (`PlanRenderer.text(_:upToDate:)`).
    case notRunnable(plan: String)
    /// Outputs in the way of files cropjob did not write, without `options.overwrite`.
    case filesInTheWay([OverwriteGuard.Conflict])

    public var description: String {
      switch self {
      case .state(let error): return "\(error)"
      case .notRunnable(let plan): return plan
      case .filesInTheWay(let conflicts):
        return
          (conflicts.map { OverwriteGuard.message($0.output) } + [
            "nothing was written; --overwrite replaces these files"
          ]).joined(separator: "\n")
      }
    }
  }

  /// The absolute output root.
  public var root: String { Planner(outputRoot: outputRoot).outputRoot(of: file) }

  /// The first pass: the state opened, every output planned, the run's refusal if any.
  public func plan() -> Result<RunWorkload, Refusal> {
    if rebuildState { StateFiles.removeAll(root: root) }
    let workload: RunWorkload
    do throws(StateError) {
      let state = try StateReader.open(root: root, shard: options.shard, verifySources: verifySources)
      workload = try RunWorkload(
        file,
        planner: Planner(limits: limits, outputRoot: outputRoot, state: state, jpegDecoder: options.jpegDecoder),
        state: state,
        shard: options.shard, force: options.force, window: window)
    } catch {
      return .failure(.state(error))
    }
    if let failure = workload.firstPass.state.failure { return .failure(.state(failure)) }
    if !workload.stream.isRunnable {
      return .failure(.notRunnable(plan: PlanRenderer.text(workload.stream, upToDate: nil)))
    }
    let conflicts = workload.firstPass.conflicts
    if !conflicts.isEmpty && !options.overwrite { return .failure(.filesInTheWay(conflicts)) }
    return .success(workload)
  }

  /// Runs what `plan` planned: the plan's warnings reported (`RunEvent.warning`), then its
  /// windows executed.
  public func execute(_ workload: RunWorkload, reporter: RunReporter) -> RunSummary {
    for issue in workload.stream.issues where issue.severity == .warning {
      reporter.report(.warning(RunWarning(issue)))
    }
    return Executor(options: options, reporter: reporter).run(workload)
  }

  /// `plan`, then `execute`.
  public func run(reporter: RunReporter) -> Result<RunSummary, Refusal> {
    plan().map { execute($0, reporter: reporter) }
  }
}
