import CropSpec
import CropStorage

/// The verdict on a job that reads files and matches none: it cannot produce anything, so it
/// is an error for `validate`, `plan`, `run --dry-run` and `run` alike, unless the job says
/// `allow_empty: true` (a nightly folder that is sometimes empty), when all four say so and
/// succeed. A `from:` job is empty only when the job it reads is, and is not judged itself.
package enum EmptyJobs {
  /// A job of the file whose sources match no file.
  package struct Finding: Sendable, Hashable {
    package var job: String
    package var allowed: Bool
    package var message: String
  }

  /// What the four commands say of `job` when its sources match no file.
  package static func finding(_ job: Job) -> Finding? {
    guard case .sources(let include, let exclude) = job.input else { return nil }
    let what = include.map { "\"\($0)\"" }.joined(separator: ", ")
    let excluded = exclude.isEmpty ? "" : " (after exclude)"
    let message =
      job.allowEmpty
      ? "no file matches \(what)\(excluded): the job is empty, which allow_empty: true allows"
      : "no file matches \(what)\(excluded): the job cannot produce anything "
        + "(a folder that is sometimes empty needs allow_empty: true)"
    return Finding(job: job.name, allowed: job.allowEmpty, message: message)
  }

  /// The jobs of `file` whose sources match no file, in the file's order: the folders and
  /// globs are listed (the file system is read, no photo is opened). What `validate` checks;
  /// the planner finds the same from the expansion it makes anyway. A job with a source in
  /// object storage (`s3://`) is not judged here: `validate` makes no request; `plan` and
  /// `run` find it empty from their listing.
  package static func find(in file: JobFile) -> [Finding] {
    file.jobs.compactMap { job in
      guard case .sources(let include, let exclude) = job.input,
        include.allSatisfy({ (try? StorageLocation.parse($0))?.isLocal ?? true })
      else { return nil }
      let matches = SourceExpansion.expandCompact(include: include, exclude: exclude, base: file.baseDirectory).matches
      return matches.count == 0 ? finding(job) : nil
    }
  }
}
