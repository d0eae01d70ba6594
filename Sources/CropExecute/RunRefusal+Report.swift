import CropStore
import CropSupport

extension RunRefusal {
  /// Reports the refusal as a run that did not start (every file in the way, or the reason,
  /// a failure; nothing written) and returns its summary.
  package func report(planned: Int, to reporter: RunReporter) -> RunSummary {
    var summary = RunSummary()
    summary.planned = planned
    reporter.report(.started(total: planned, upToDate: 0))
    let failures: [RunSummary.Failure]
    switch self {
    case .filesInTheWay(let files):
      failures = files.map {
        RunSummary.Failure(
          output: $0.path, source: $0.source, reason: $0.message + " (nothing was written; --overwrite replaces it)",
          error: .fileInTheWay(path: $0.path, source: $0.source, message: $0.message))
      }
    case .state(let error):
      failures = [Run.statusFailure(error)]
    case .storage(let error):
      summary.storageRefused = true
      failures = [
        RunSummary.Failure(
          output: "", source: "", reason: "\(error) (nothing was written)",
          error: .storage(location: error.location, message: error.message))
      ]
    case .notRunnable:
      // One failure per problem that stops the plan, each naming its output and source.
      failures = errors.map { error in
        switch error {
        case .plan(_, let output, let source, let message):
          return RunSummary.Failure(output: output ?? "", source: source ?? "", reason: message, error: error)
        case .storage(let location, let message):
          return RunSummary.Failure(output: "", source: location, reason: message, error: error)
        default:
          return RunSummary.Failure(output: "", source: "", reason: error.description, error: error)
        }
      }
    }
    for failure in failures {
      summary.failed += 1
      summary.failures.append(failure)
      reporter.report(.failed(path: failure.output, source: failure.source, reason: failure.reason))
    }
    reporter.report(.finished(summary))
    return summary
  }
}
