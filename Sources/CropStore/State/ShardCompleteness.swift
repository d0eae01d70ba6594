import CropPlan
import Foundation

/// Whether the shard state files of an output root add up to a whole batch: for each shard
/// count found, every shard has its file, and each shard's last run finished with nothing
/// failed. `cropjob state merge` and `cropjob manifest` refuse an incomplete set unless
/// `--allow-partial` (docs/sharding.md, "Missing and incomplete shards").
package enum ShardCompleteness {
  /// What a run of a shard records of itself (the state's `meta` row `run`).
  package enum RunStatus {
    /// Recorded when the run opens its state; still there if it was killed.
    package static let running = "running"
    package static let complete = "complete"
    package static func failed(_ count: Int) -> String { "failed: \(count) output\(count == 1 ? "" : "s") failed" }
    package static let interrupted = "interrupted"
  }

  /// A shard that is missing or incomplete, and why.
  package struct Gap: Sendable, Hashable, CustomStringConvertible {
    package var shard: Shard
    package var problem: String
    package var description: String { "shard \(shard.index)/\(shard.count): \(problem)" }
  }

  /// The shards of `root` that are missing or did not finish, by count then index.
  package static func gaps(root: String) -> [Gap] {
    let files = StateFiles.shardFiles(root: root)
    var gaps: [Gap] = []
    for count in Set(files.map(\.shard.count)).sorted() {
      let present = Dictionary(
        files.filter { $0.shard.count == count }.map { ($0.shard.index, $0.path) }, uniquingKeysWith: { a, _ in a })
      for index in 0..<count {
        let shard = Shard(index: index, count: count)
        guard let path = present[index] else {
          let name = (StateFiles.path(root: root, shard: shard) as NSString).lastPathComponent
          gaps.append(Gap(shard: shard, problem: "missing (no \(StateFiles.folderName)/\(name): it never ran here)"))
          continue
        }
        if let problem = problem(path) { gaps.append(Gap(shard: shard, problem: problem)) }
      }
    }
    return gaps
  }

  /// Why the shard file at `path` does not record a finished run, or nil when it does (or
  /// when an earlier cropjob wrote it, which recorded no status).
  static func problem(_ path: String) -> String? {
    var status: String? = nil
    do throws(StateError) {
      try StateReader.readFile(path) { (connection) throws(SQLiteConnection.Failure) in
        let statement = try connection.prepare("SELECT value FROM meta WHERE name = 'run'")
        if try statement.next() { status = statement.text("value") }
      }
    } catch {
      return "its state file cannot be read (\(error))"
    }
    switch status {
    case nil, RunStatus.complete: return nil
    case RunStatus.running: return "incomplete (its run did not finish: killed, or still running)"
    case RunStatus.interrupted: return "incomplete (its run was interrupted)"
    case let other?: return "incomplete (\(other))"
    }
  }
}
