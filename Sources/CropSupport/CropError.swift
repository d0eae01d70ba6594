/// What went wrong in a job, as a value a program can switch on: one case per stage that
/// finds failures (job file, plan, source, output, state, storage, files in the way), each carrying what names it — the file (with line, column and field for a
/// job file), the source photo, the output. `description` is the one line `cropjob` prints.
/// The job loader's diagnostics (`Diagnostic.error`), a refused run (`RunRefusal.errors`) and
/// each failure of a run (`RunSummary.Failure.error`) give one.
public enum CropError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The job file (or its crop table) is invalid: `file`, the 1-based `line` and `column` (0
  /// for the whole file), the `field` path (`jobs.avatar.guide.size`; empty for the file).
  case jobFile(file: String, line: Int, column: Int, field: String, message: String)
  /// The plan cannot run, or a job of it cannot (path collisions, outputs outside the output
  /// root, a job with no sources, crop-table rows that match no source): the job, the output
  /// path and the source it would be made from when there are.
  case plan(job: String?, output: String?, source: String?, message: String)
  /// A source photo could not be used (unreadable, over a limit, damaged, changed since it
  /// was planned): every output made from it failed.
  case source(path: String, message: String)
  /// One output could not be made or written (render, encode, budget, write).
  case output(path: String, source: String, message: String)
  /// The state database (`.cropjob/`) cannot be opened, read or written: its file.
  case state(file: String, message: String)
  /// The store the sources or outputs live in cannot be used (credentials, a missing bucket,
  /// no permission): its `location` (`s3://bucket/prefix`, or a path) and what the store said.
  case storage(location: String, message: String)
  /// A file cropjob did not write is in the way of an output or an index file; the run was
  /// refused and nothing was written (`--overwrite` replaces it).
  case fileInTheWay(path: String, source: String, message: String)

  public var description: String {
    switch self {
    case .jobFile(let file, let line, let column, let field, let message):
      let place = line > 0 ? "\(file):\(line):\(column)" : file
      return field.isEmpty ? "\(place): \(message)" : "\(place): \(field): \(message)"
    case .plan(let job, let output, let source, let message):
      let subject = source.map { source in output.map { "\(source) → \($0)" } ?? source } ?? output
      return [job.map { "job \($0)" }, subject, message].compactMap { $0 }.joined(separator: ": ")
    case .source(let path, let message): return "\(path): \(message)"
    case .output(let path, let source, let message):
      return source.isEmpty ? "\(path): \(message)" : "\(path) (from \(source)): \(message)"
    case .state(let file, let message): return "\(file): \(message)"
    case .storage(let location, let message): return location.isEmpty ? message : "\(location): \(message)"
    case .fileInTheWay(_, _, let message): return message
    }
  }
}
