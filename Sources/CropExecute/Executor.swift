import CropImaging
import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation

/// What a run executes: a planned stream (`PlanStream.make` was its first pass) and what
/// the decide room found in that pass (`VerdictPass`, not exact): the state the stream was
/// planned with, each output's verdict and the windows all up to date, which are not
/// planned again. Made by `JobPlan` (CropKit), which refuses files in the way first. A whole
/// plan is a stream of one window per job (`window: .max`).
package struct RunWorkload {
  package let stream: PlanStream
  package let verdicts: VerdictPass
  /// Where the outputs, manifest and index files are written (and, for an object store,
  /// the state kept: `StateSync`).
  package let outputs: OutputStore

  package init(stream: PlanStream, verdicts: VerdictPass, outputs: OutputStore) {
    self.stream = stream
    self.verdicts = verdicts
    self.outputs = outputs
  }
}

/// Runs a workload: its windows one after the other, in each one decode per source (and
/// stage and colour policy) for all of its outputs, sources in parallel on Dispatch, outputs
/// written atomically and recorded in the state database; then the outputs the plan no
/// longer has, the state and a manifest of what was done. The run as a whole (state, writer,
/// manifest, summary) is a `Run`; each window is a `WindowStep` of it.
package struct Executor: Sendable {
  package let options: RunOptions
  package let reporter: RunReporter

  package init(options: RunOptions, reporter: RunReporter) {
    self.options = options
    self.reporter = reporter
  }

  /// Runs `workload` (the one way to run; `JobPlan` has refused files in the way before):
  /// refused, with nothing written, when the state cannot be opened for writing.
  package func run(_ workload: RunWorkload) -> RunSummary {
    let stream = workload.stream
    let verdicts = workload.verdicts
    Vips.startBeforeThreads()
    let run: Run
    switch Run.open(workload, options: options, reporter: reporter) {
    case .success(let opened): run = opened
    case .failure(let refusal): return refusal.report(planned: stream.selectedCount, to: reporter)
    }
    run.summary.withLock { $0.planned = stream.selectedCount }
    reporter.report(.started(total: stream.selectedCount, upToDate: 0))
    run.reportPlanFailures(stream.issues, roots: stream.issueRoots)
    var folders = Set<String>()
    // The run's windows are ranges of the plan's sources, each with the outputs of every job
    // of its stage over them: each source is decoded once for all of them
    // (`PlanStream.forEachRunWindow`). The windows the first pass found up to date are
    // counted, not planned again; each other window runs as the decide room judged it.
    let skipped = { (number: Int) in
      guard !run.shouldStop else { return }
      run.countUpToDate(window: number)
    }
    let step = { (window: PlanWindow) in
      guard !run.shouldStop else { return }
      WindowStep.run(window, verdicts: verdicts.verdicts(of: window), in: run, folders: &folders)
    }
    stream.forEachRunWindow(skipping: { run.upToDateWindows[$0] != nil }, skipped: skipped, step)
    if run.options.cancellation.isCancelled { run.summary.withLock { $0.interrupted = true } }
    let root = stream.outputRoot
    // The sources the plan could not use: their earlier outputs are kept, not stale.
    let failedSources = Set(stream.issues.compactMap { $0.severity == .error && !$0.blocksRun ? $0.source : nil })
    run.reportStale(
      isPlanned: { stream.outputPaths.containsSorted(HashSet64.hash(PathText.appending(root, $0))) },
      failedSources: failedSources)
    return run.finish()
  }
}
