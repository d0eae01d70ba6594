import CropSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The local file system as an `ObjectStorage`: keys are paths relative to `root`. Writes go
/// through `AtomicWriter` (a temporary file fsynced and renamed, or linked when nothing may be
/// replaced), so they keep today's guarantees: whole or absent even after `kill -9`. The
/// change token is the file identity cropjob's state records (size, mtime, ctime, inode,
/// device). Folders are not objects: a listing descends into them (not through symbolic
/// links to folders) and skips `AtomicWriter`'s temporary files.
public struct LocalStorage: ObjectStorage {
  /// The folder keys are relative to ("" or "." for the working directory).
  public let root: String

  public init(root: String) { self.root = root }

  public var displayName: String { root.isEmpty ? "." : root }

  public var statsAreRequests: Bool { false }

  /// The path of `key`, or an error for a key that would leave the root.
  public func path(of key: String) throws(StorageError) -> String {
    let parts = key.split(separator: "/", omittingEmptySubsequences: false)
    if key.isEmpty || key.hasPrefix("/") || parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) {
      throw StorageError(.local, location: key, message: "not a key: keys are relative paths without '.' or '..'")
    }
    return root.isEmpty || root == "." ? key : PathText.appending(root, key)
  }

  /// A key ending in `/` (a folder, as a prefix) is the folder's path.
  public func filePath(_ key: String) -> String? {
    var key = Substring(key)
    while key.hasSuffix("/") { key = key.dropLast() }
    return key.isEmpty ? (root.isEmpty ? "." : root) : try? path(of: String(key))
  }

  public func list(prefix: String, pageSize: Int) -> any ObjectPages {
    LocalPages(storage: self, prefix: prefix, pageSize: max(1, pageSize))
  }

  public func stat(_ key: String) throws(StorageError) -> ObjectInfo? {
    let path = try path(of: key)
    var info = Glibc.stat()
    guard fileStatus(path, &info) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw Self.failure(path, "cannot read its status")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Self.object(key, info)
  }

  public func read(_ key: String, range: ByteRange?) throws(StorageError) -> [UInt8] {
    let path = try path(of: key)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT || errno == ENOTDIR {
        throw StorageError(.notFound, location: path, message: "no such file")
      }
      throw Self.failure(path, "cannot open")
    }
    defer { close(fd) }
    var info = Glibc.stat()
    guard fstat(fd, &info) == 0 else { throw Self.failure(path, "cannot read its status") }
    let size = Int64(info.st_size)
    let start = range?.offset ?? 0
    let end = min(size, range.map { $0.offset + $0.length } ?? size)
    guard end > start else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(end - start))
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start) + off_t(done))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        if n == 0 { break }  // Truncated while read: what is there.
        throw Self.failure(path, "cannot read")
      }
      done += n
    }
    return done == bytes.count ? bytes : Array(bytes.prefix(done))
  }

  @discardableResult
  public func write(_ bytes: [UInt8], to key: String, options: WriteOptions) throws(StorageError) -> WrittenObject {
    let path = try path(of: key)
    var replacing: Bool
    switch options.overwrite {
    case .always: replacing = true
    case .never: replacing = false
    case .ifUnchanged(let token):
      // A file that is no longer there may be written; one that changed is not replaced.
      if let now = try stat(key) {
        guard now.token.sameContent(as: token) else {
          throw StorageError(
            .exists, location: path,
            message: "changed since cropjob wrote it (\(now.token), recorded \(token)): not replaced")
        }
        replacing = true
      } else {
        replacing = false
      }
    }
    do {
      try AtomicWriter.write(bytes, to: path, durable: options.durable, replacing: replacing)
    } catch {
      if error.existed {
        throw StorageError(.exists, location: path, message: "exists and cropjob did not write it: not replaced")
      }
      throw StorageError(.local, location: path, message: error.message)
    }
    return WrittenObject(key: key, size: Int64(bytes.count), etag: nil, versionID: nil)
  }

  public func delete(_ key: String) throws(StorageError) {
    let path = try path(of: key)
    if unlink(path) != 0 && errno != ENOENT { throw Self.failure(path, "cannot delete") }
  }

  static func object(_ key: String, _ info: Glibc.stat) -> ObjectInfo {
    let size = Int64(info.st_size)
    let token = ChangeToken.file(
      size: size, mtime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      ctime: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec), inode: UInt64(info.st_ino),
      device: UInt64(info.st_dev))
    return ObjectInfo(key: key, size: size, token: token)
  }

  static func failure(_ path: String, _ what: String) -> StorageError {
    StorageError(.local, location: path, message: "\(what): \(String(cString: strerror(errno)))")
  }
}

/// stat(2), outside `LocalStorage` whose `stat` method hides it.
private func fileStatus(_ path: String, _ info: inout Glibc.stat) -> Int32 { stat(path, &info) }

/// A local listing: a depth-first walk whose folders are read one at a time, each sorted so
/// that keys come out in byte order (a folder sorts as its name plus `/`, as its keys do).
final class LocalPages: ObjectPages {
  private let storage: LocalStorage
  private let prefix: String
  private let pageSize: Int
  /// Folders being walked: the folder's key (ending in `/`, or empty) and its entries left.
  private var stack: [(folder: String, entries: ArraySlice<(name: String, isFolder: Bool)>)] = []
  private var started = false

  init(storage: LocalStorage, prefix: String, pageSize: Int) {
    self.storage = storage
    self.prefix = prefix
    self.pageSize = pageSize
  }

  func next() throws(StorageError) -> [ObjectInfo]? {
    if !started {
      started = true
      let folder = prefix.contains("/") ? String(prefix[...prefix.lastIndex(of: "/")!]) : ""
      try push(folder)
    }
    var page: [ObjectInfo] = []
    while page.count < pageSize, !stack.isEmpty {
      guard let entry = stack[stack.count - 1].entries.popFirst() else {
        stack.removeLast()
        continue
      }
      let key = stack[stack.count - 1].folder + entry.name
      if entry.isFolder {
        let folder = key + "/"
        if folder.hasPrefix(prefix) || prefix.hasPrefix(folder) { try push(folder) }
      } else if key.hasPrefix(prefix), let object = try storage.stat(key) {
        page.append(object)
      }
    }
    return page.isEmpty && stack.isEmpty ? nil : page
  }

  /// Reads the folder `folder` (a key ending in `/`, or empty for the root) onto the stack;
  /// a folder that does not exist lists nothing, as an S3 prefix with no keys.
  private func push(_ folder: String) throws(StorageError) {
    let base = storage.root.isEmpty ? "." : storage.root
    let path = folder.isEmpty ? base : PathText.appending(base, String(folder.dropLast()))
    guard let dir = opendir(path) else {
      if errno == ENOENT || errno == ENOTDIR { return }
      throw LocalStorage.failure(path, "cannot list the folder")
    }
    defer { closedir(dir) }
    var entries: [(name: String, isFolder: Bool)] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name == "." || name == ".." || name.hasPrefix(AtomicWriter.temporaryPrefix) { continue }
      var info = Glibc.stat()
      guard lstat(PathText.appending(path, name), &info) == 0 else { continue }
      let type = info.st_mode & S_IFMT
      if type == S_IFDIR {
        entries.append((name, true))
      } else if type == S_IFREG || type == S_IFLNK {
        entries.append((name, false))
      }
    }
    entries.sort { Self.sortKey($0).lexicographicallyPrecedes(Self.sortKey($1)) }
    stack.append((folder, entries[...]))
  }

  private static func sortKey(_ entry: (name: String, isFolder: Bool)) -> [UInt8] {
    Array(entry.name.utf8) + (entry.isFolder ? [UInt8(ascii: "/")] : [])
  }
}
