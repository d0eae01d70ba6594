import CropPlan
import CropStorage
import CropSupport

/// Why a run does not start: nothing is written. The one place that decides it, once, after
/// the first pass and before anything is written, for `plan` (its exit code), `run --dry-run`
/// and `run` alike (`JobPlan`, in CropKit).
public enum RunRefusal: Error, CustomStringConvertible, Sendable {
  /// The state database cannot be opened or read (damaged, locked, newer).
  case state(StateError)
  /// Errors that stop the whole plan (path collisions, outputs outside the root): the
  /// plan's text, which lists them (`PlanRenderer.text(_:upToDate:)`).
  case notRunnable(plan: String)
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
    if !stream.isRunnable { return .notRunnable(plan: PlanRenderer.text(stream, upToDate: nil)) }
    if !filesInTheWay.isEmpty && !overwrite { return .filesInTheWay(filesInTheWay) }
    return nil
  }

  /// The refusal as values to switch on: the state's failure, the plan's errors (its text),
  /// or each file in the way.
  public var errors: [CropError] {
    switch self {
    case .state(let error): return [.state(file: error.path, message: error.description)]
    case .storage(let error): return [.storage(location: error.location, message: error.message)]
    case .notRunnable(let plan): return [.plan(job: nil, output: nil, message: plan)]
    case .filesInTheWay(let files):
      return files.map { .fileInTheWay(path: $0.path, source: $0.source, message: $0.message) }
    }
  }

  public var description: String {
    switch self {
    case .state(let error): return "\(error)"
    case .storage(let error): return "\(error) (nothing was written)"
    case .notRunnable(let plan): return plan
    case .filesInTheWay(let files):
      return (files.map(\.message) + ["nothing was written; --overwrite replaces these files"])
        .joined(separator: "\n")
    }
  }
}
