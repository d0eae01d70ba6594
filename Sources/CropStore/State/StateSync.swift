import CropPlan
import CropStorage
import CropSupport
import Foundation

/// The state of a run whose outputs live in an object store (`OutputStore.isListed`): kept
/// in the output prefix, under the names it has in a local root (`.cropjob/state.sqlite3`,
/// `.cropjob/state.shard-I-of-N.sqlite3`), so that a worker that starts with an empty disk
/// (a fresh container) reads the state its shard needs there, and a killed one loses at
/// most the last upload interval. The run works on a copy in the store's local folder
/// (`OutputStore.root`): brought in before planning (`pull`), put back during the run and
/// at its end (`push`, a compacted copy of what is committed).
///
/// Each state object is the SQLite file as `VACUUM INTO` writes it (no free pages),
/// compressed with Zstandard (`StateCompression`), named as the file plus `.zst`
/// (docs/storage.md, "The state object").
package struct StateSync: Sendable {
  package let outputs: OutputStore
  package let shard: Shard?

  package init(outputs: OutputStore, shard: Shard?) {
    self.outputs = outputs
    self.shard = shard
  }

  /// The path of a state file relative to the output root.
  package static func relativePath(shard: Shard?) -> String {
    StateFiles.folderName + "/" + PathText.lastComponent(StateFiles.path(root: "/", shard: shard))
  }

  /// What a state object's name ends with after the file's name.
  package static let suffix = ".zst"

  /// The state objects a run of `shard` reads (as `StateFiles.readable` for files): the main
  /// one, and those of shards of another count or of this shard, as listed when the store
  /// opened (no request of its own).
  func readable() -> [String] {
    outputs.listedPaths(under: StateFiles.folderName + "/").filter { path in
      guard path.hasSuffix(Self.suffix) else { return false }
      let name = String(PathText.lastComponent(path).dropLast(Self.suffix.count))
      if name == "state.sqlite3" { return true }
      guard let other = StateFiles.shard(ofFileNamed: name) else { return false }
      guard let shard, shard.count > 1 else { return true }
      return other.count != shard.count || other.index == shard.index
    }
  }

  /// Brings the state objects this run reads into the local folder (a GET each); the bytes
  /// read. Local files of an earlier run in that folder are replaced.
  @discardableResult
  package func pull() throws(StorageError) -> Int {
    var total = 0
    for path in readable() {
      let compressed = try outputs.storage.read(outputs.key(path))
      let local = PathText.appending(outputs.root, String(path.dropLast(Self.suffix.count)))
      do throws(StateCompression.Failure) {
        StateFiles.remove(local)
        try StateCompression.decompress(compressed, toFile: local)
      } catch {
        switch error {
        case .notAFrame:
          throw StorageError(
            .server, location: outputs.displayName(path),
            message: "not a state object of cropjob (not one Zstandard frame): remove it, and run again")
        case .cannotWrite(let reason):
          throw StorageError(.local, location: local, message: reason)
        }
      }
      total += compressed.count
    }
    return total
  }

  /// Puts a compacted copy of what `writer` has committed in the prefix as this run's state
  /// object (replacing the last one); the bytes put.
  @discardableResult
  package func push(_ writer: StateWriter) throws(StorageError) -> Int {
    let copy = writer.path + ".upload"
    defer { unlink(copy) }
    do throws(StateError) {
      try writer.snapshot(to: copy)
    } catch {
      throw StorageError(.local, location: error.path, message: "\(error)")
    }
    guard let compressed = StateCompression.compress(file: copy) else {
      throw StorageError(.local, location: copy, message: "cannot read the state's copy")
    }
    let options = WriteOptions(contentType: "application/zstd", overwrite: .always)
    try outputs.write(compressed, to: Self.relativePath(shard: shard) + Self.suffix, options: options)
    return compressed.count
  }

  /// After an unsharded run folded the shard objects into its own: they are removed from
  /// the prefix, as their files are from a local root.
  package func removeFoldedShards() throws(StorageError) {
    guard (shard?.count ?? 1) == 1 else { return }
    for path in readable() where PathText.lastComponent(path) != "state.sqlite3" + Self.suffix {
      try outputs.delete(path)
    }
  }
}
