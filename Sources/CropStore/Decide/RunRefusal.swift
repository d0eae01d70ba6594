import CropPlan
import CropStorage
import CropSupport

/// Why a run does not start: nothing is written. The one place that decides it, once, after
/// the first pass and before anything is written, for `plan` (its exit code), `run --dry-run`
/// and `run` alike (`JobPlan`, in CropKit).
public enum RunRefusal: Error, CustomStringConvertible, Sendable {
  /// The state database cannot be opened or read (damaged, locked, newer).
  case state(StateError)
  /// Errors that stop the whole plan (path collisions, outputs outside the root, a job that
  /// cannot produce anything, a listing refused): the plan's text, which lists them
  /// (`PlanRenderer.text(_:upToDate:)`, what `cropjob` prints), and each of them as a value
  /// (`errors`).
  case notRunnable(plan: String, problems: [CropError] = [])
  /// Outputs or index files in the way of files cropjob did not write, without
  /// `--overwrite` (`FileInTheWay`).
  case filesInTheWay([FileInTheWay])
  /// The store the outputs live in cannot be used: credentials, a missing bucket, no
  /// permission to list or to write (found by the listing, or by the state's first upload,
  /// before any output is written).
  case storage(StorageError)

  /// The refusal of a planned stream, if any: the state could not be read while planning,
  /// an error stops the whole plan, or a file cropjob did not write is in the way of an
  /// output or an index file (unless `overwrite`).
  package static func of(
    _ stream: PlanStream, state: StateReader, filesInTheWay: [FileInTheWay], overwrite: Bool
  ) -> RunRefusal? {
    if let failure = state.failure { return .state(failure) }
    if !stream.isRunnable {
      let problems = stream.issues.filter { $0.severity == .error && $0.blocksRun }.map(problem)
      return .notRunnable(plan: PlanRenderer.text(stream, upToDate: nil), problems: problems)
    }
    if !filesInTheWay.isEmpty && !overwrite { return .filesInTheWay(filesInTheWay) }
    return nil
  }

  /// An issue that stops the plan as a value: a refused listing names its location
  /// (`.storage`); the others (a collision or an output outside the root with its output
  /// and source, a job with nothing to do, crop-table rows that match no source) are `.plan`.
  static func problem(_ issue: PlanIssue) -> CropError {
    if issue.kind == .source, issue.output == nil, let location = issue.source {
      return .storage(location: location, message: issue.message)
    }
    return .plan(job: issue.job, output: issue.output, source: issue.source, message: issue.message)
  }

  /// The refusal as values to switch on, one per problem: the state's failure, the store's,
  /// each error that stops the plan, or each file in the way.
  public var errors: [CropError] {
    switch self {
    case .state(let error): return [.state(file: error.path, message: error.description)]
    case .storage(let error): return [.storage(location: error.location, message: error.message)]
    case .notRunnable(let plan, let problems):
      return problems.isEmpty ? [.plan(job: nil, output: nil, source: nil, message: plan)] : problems
    case .filesInTheWay(let files):
      return files.map { .fileInTheWay(path: $0.path, source: $0.source, message: $0.message) }
    }
  }

  public var description: String {
    switch self {
    case .state(let error): return "\(error)"
    case .storage(let error): return "\(error) (nothing was written)"
    case .notRunnable(let plan, _): return plan
    case .filesInTheWay(let files):
      return (files.map(\.message) + ["nothing was written; --overwrite replaces these files"])
        .joined(separator: "\n")
    }
  }
}
