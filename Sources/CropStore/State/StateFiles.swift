import CropPlan
import CropSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the state database lives in an output root: `.cropjob/state.sqlite3`, or one file per
/// shard (`.cropjob/state.shard-I-of-N.sqlite3`), because SQLite's locking over NFS is not to be
/// trusted when shards on several machines share the output root.
package enum StateFiles {
  /// The folder in the output root that holds the state.
  package static let folderName = ".cropjob"

  /// The state file of a run (`shard` nil or of count 1: the main file).
  package static func path(root: String, shard: Shard?) -> String {
    let folder = PathText.appending(root, folderName)
    guard let shard, shard.count > 1 else { return PathText.appending(folder, "state.sqlite3") }
    return PathText.appending(folder, "state.shard-\(shard.index)-of-\(shard.count).sqlite3")
  }

  /// The shard files in `root`, sorted by name, with the shard each one belongs to.
  static func shardFiles(root: String) -> [(path: String, shard: Shard)] {
    let folder = PathText.appending(root, folderName)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    return names.sorted().compactMap { name in
      shard(ofFileNamed: name).map { (PathText.appending(folder, name), $0) }
    }
  }

  /// The shard a state file of this name belongs to (`state.shard-I-of-N.sqlite3`), or nil.
  static func shard(ofFileNamed name: String) -> Shard? {
    guard name.hasPrefix("state.shard-"), name.hasSuffix(".sqlite3") else { return nil }
    let fields = name.dropFirst("state.shard-".count).dropLast(".sqlite3".count).split(separator: "-")
    guard fields.count == 3, fields[1] == "of", let index = Int(fields[0]), let count = Int(fields[2]),
      count > 1, index < count
    else { return nil }
    return Shard(index: index, count: count)
  }

  /// How many shard files `root` holds (what `cropjob state merge` folds).
  package static func shardFileCount(root: String) -> Int { shardFiles(root: root).count }

  /// The files a run of `shard` reads, main first: every file except those of the other
  /// shards of the same count (running at the same time, perhaps on other machines).
  static func readable(root: String, shard: Shard?) -> [String] {
    let main = path(root: root, shard: nil)
    let shards = shardFiles(root: root).filter { file in
      guard let shard, shard.count > 1 else { return true }
      return file.shard.count != shard.count || file.shard.index == shard.index
    }
    return ([main] + shards.map(\.path)).filter { FileManager.default.fileExists(atPath: $0) }
  }

  /// Removes a database file with its WAL and shared-memory files.
  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  }

  /// Removes every state file of `root` (`--rebuild-state`); the JSON manifests stay, and the
  /// next run rebuilds the state from them.
  package static func removeAll(root: String) {
    remove(path(root: root, shard: nil))
    for file in shardFiles(root: root) { remove(file.path) }
  }
}
