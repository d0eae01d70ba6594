import Foundation

/// Runs a job file the way `cropjob run` does, for a program that embeds cropjob: the job
/// file validated (`JobFileLoader`, by the caller), the output root's state opened, every
/// output planned and judged in a first pass (`JobPlan`: paths checked, files in the way of
/// outputs and index files, windows up to date) before any is written, then the windows executed (`Executor`), the state and
/// the manifest written, and every event given to a `RunReporter`. The outputs, manifest
/// and state are byte for byte `cropjob run`'s with the same options.
///
///     let loaded = JobFileLoader.load(path: "job.yaml", formats: .libvips)
///     guard let file = loaded.jobFile else { ... loaded.diagnostics ... }
///     switch JobRun(file).run(reporter: myReporter) {
///     case .success(let summary): ...   // summary.failed > 0: some outputs failed
///     case .failure(let refusal): ...   // nothing was written; `refusal` says why
///     }
public struct JobRun: Sendable {
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

  /// Why a job run did not start: nothing was written (`RunRefusal`).
  public typealias Refusal = RunRefusal

  /// The absolute output root.
  /// The stores sources in object storage are listed and read through (one per bucket,
  /// connections reused); its options' `onEvent` hears every retried request.
  public var storage = StorageSet()

  public var root: String { Planner(outputRoot: outputRoot).outputRoot(of: file) }

  /// The first pass (`JobPlan`, for a run): the state opened, every output planned and
  /// judged, the run's refusal if any.
  public func plan() -> Result<JobPlan, Refusal> {
    JobPlan.make(self, for: .run).flatMap { plan in plan.refusal.map { .failure($0) } ?? .success(plan) }
  }

  /// Runs what `plan` planned: the plan's warnings reported (`RunEvent.warning`), then its
  /// windows executed. A plan made for printing, or refused, is reported as a run that did
  /// not start (nothing is written).
  public func execute(_ plan: JobPlan, reporter: RunReporter) -> RunSummary {
    guard plan.purpose == .run, plan.refusal == nil else {
      let refusal = plan.refusal ?? .notRunnable(plan: "a plan made to print, not to run")
      return refusal.report(planned: plan.stream.selectedCount, to: reporter)
    }
    let quiet = Self.upToDateSizeWarnings(plan)
    for issue in plan.stream.issues where issue.severity == .warning {
      if issue.kind == .upscale, let output = issue.output, quiet.contains(HashSet64.hash(output)) { continue }
      reporter.report(.warning(RunWarning(issue)))
    }
    return Executor(options: options, reporter: reporter).run(plan.workload)
  }

  /// The outputs whose size warnings (`upscale`: capped, skipped, collapsed sizes) a run does
  /// not repeat: those of windows found all up to date, where nothing is built. As ninja
  /// shows a compiler's warnings only when it compiles, a run warns of an output's size when
  /// it makes it; `plan` lists them always (issue 40.6).
  ///
  /// By the hash of their paths (`HashSet64`): no `String` is made for the up-to-date paths,
  /// which a no-op over a large batch holds by the hundred thousand.
  static func upToDateSizeWarnings(_ plan: JobPlan) -> HashSet64 {
    guard plan.verdicts.upToDateWindows > 0 else { return HashSet64() }
    var warned = HashSet64()
    for issue in plan.stream.issues where issue.severity == .warning && issue.kind == .upscale {
      if let output = issue.output { warned.insert(HashSet64.hash(output)) }
    }
    guard warned.count > 0 else { return HashSet64() }
    var quiet = HashSet64()
    let paths = plan.verdicts.paths
    for i in 0..<paths.count {
      let hash = paths.hash(i)
      if warned.contains(hash) { quiet.insert(hash) }
    }
    return quiet
  }

  /// `plan`, then `execute`.
  public func run(reporter: RunReporter) -> Result<RunSummary, Refusal> {
    plan().map { execute($0, reporter: reporter) }
  }
}
