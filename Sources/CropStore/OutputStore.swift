import CropStorage
import CropSupport
import Foundation

/// Where a run's outputs, manifest and index files live: a store (`ObjectStorage`) and the
/// key prefix of the output root in it. Every write, existence check and deletion of an
/// output goes through it, so that the executor does not know which store it writes to.
///
/// A store whose `stat` is a request (an object store) is listed once when the run opens:
/// what is under the prefix then, and what the run writes and deletes since, answers
/// `size(of:)` without a request per output (a no-op makes only the listing's requests). A
/// store whose `stat` is a system call (the file system) is asked each time, as before.
package final class OutputStore: @unchecked Sendable {
  package let storage: any ObjectStorage
  /// The key of the output root: an output at path `p` (relative to the root) is at key
  /// `prefix + p`. Empty or ending in `/`.
  package let prefix: String
  /// The local folder that stands for the output root: the root itself for the file system;
  /// for an object store, a folder of this machine that holds the state while the run lasts
  /// (`StateSync` brings it from the prefix and takes it back).
  package let root: String
  /// The objects under the prefix by path (relative to the root), for a store whose stats
  /// are requests; nil otherwise.
  private let listed: LockedBox<[String: ObjectInfo]>?
  /// Whether `root` is a folder made for this store, removed with it.
  private let ownsRoot: Bool

  /// The file system folder `root` (today's outputs: byte for byte, path for path).
  package init(localRoot root: String) {
    storage = LocalStorage(root: root)
    prefix = ""
    self.root = root
    listed = nil
    ownsRoot = false
  }

  /// The outputs under `prefix` in `storage`, with the local folder `root` for the state
  /// (removed when the store is let go with `ownsRoot`). A store whose stats are requests is
  /// listed now (one request per 1,000 keys).
  package init(storage: any ObjectStorage, prefix: String, root: String, ownsRoot: Bool = false) throws(StorageError) {
    self.storage = storage
    self.ownsRoot = ownsRoot
    self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
    self.root = root
    if storage.statsAreRequests {
      var objects: [String: ObjectInfo] = [:]
      for object in try storage.listAll(prefix: self.prefix) {
        objects[String(object.key.dropFirst(self.prefix.count))] = object
      }
      listed = LockedBox(objects)
    } else {
      listed = nil
    }
  }

  deinit {
    if ownsRoot { try? FileManager.default.removeItem(atPath: root) }
  }

  /// Whether the outputs live in a store whose stats are requests (listed when opened).
  package var isListed: Bool { listed != nil }

  /// The key of the output at `path` (relative to the root).
  package func key(_ path: String) -> String { prefix + path }

  /// What names the output at `path` in messages: its absolute path, or `s3://bucket/key`.
  package func displayName(_ path: String) -> String {
    listed == nil ? PathText.appending(root, path) : "\(storage.displayName)/\(key(path))"
  }

  /// The object listed at `path` when the run opened (or written since), for a listed store.
  package func listedObject(_ path: String) -> ObjectInfo? { listed?.withLock { $0[path] } }

  /// The paths listed under `folder` (relative to the root, ending in `/`), sorted; none
  /// for a store that is not listed.
  package func listedPaths(under folder: String) -> [String] {
    (listed?.withLock { $0.keys.filter { $0.hasPrefix(folder) } } ?? []).sorted()
  }

  /// The size of the output at `path`, nil when there is none: from the listing for a listed
  /// store, else one `stat`.
  package func size(of path: String) -> Int64? {
    if let listed { return listed.withLock { $0[path]?.size } }
    return (try? storage.stat(key(path)))??.size
  }

  /// Whether an output is at `path`.
  package func exists(_ path: String) -> Bool { size(of: path) != nil }

  /// Writes an output. `overwrite` says what it may replace; a guard on a key that the
  /// listing says is gone becomes `.never` (the object cropjob wrote was removed).
  @discardableResult
  package func write(_ bytes: [UInt8], to path: String, options: WriteOptions) throws(StorageError) -> WrittenObject {
    var options = options
    if case .ifUnchanged = options.overwrite, let listed, listed.withLock({ $0[path] == nil }) {
      options.overwrite = .never
    }
    let written = try storage.write(bytes, to: key(path), options: options)
    listed?.withLock {
      $0[path] = ObjectInfo(
        key: written.key, size: written.size,
        token: .object(etag: written.etag ?? "", size: written.size, lastModified: "", versionID: written.versionID))
    }
    return written
  }

  /// The bytes of the output at `path`, at most `limit` of them; nil when there is none.
  package func read(_ path: String, limit: Int? = nil) -> [UInt8]? {
    if let listed, listed.withLock({ $0[path] == nil }) { return nil }
    let range = limit.map { ByteRange(offset: 0, length: Int64($0)) }
    return try? storage.read(key(path), range: range)
  }

  /// Deletes the output at `path`.
  package func delete(_ path: String) throws(StorageError) {
    try storage.delete(key(path))
    _ = listed?.withLock { $0.removeValue(forKey: path) }
  }

  /// The MIME type an output of `format` (`OutputFormat.rawValue`) is stored with.
  package static func contentType(format: String) -> String {
    switch format {
    case "jxl": return "image/jxl"
    case "jpeg", "png", "webp", "avif", "heif", "tiff", "gif": return "image/" + format
    default: return "application/octet-stream"
    }
  }
}
