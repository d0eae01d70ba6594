import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Objects read whole while a run is planned, kept in a folder of the local disk until the
/// run takes them, so that a photo new to the state costs one GET, not a ranged GET of its
/// head to plan it and a second GET to decode it (docs/storage.md, "Reading sources").
///
/// Bounded: at most `limit` bytes are held at once (an object that does not fit is not
/// spooled; its head is read as before). The folder, `cropjob-spool-<pid>-XXXXXX` under
/// `$TMPDIR` (default `/tmp`), is made at the first `put`, each file is removed when taken, and
/// the folder when the spool is closed; one left by a killed run is removed by the next run
/// on the machine once its process is gone. Every method may be called from several threads
/// at once.
public final class ObjectSpool: @unchecked Sendable {
  /// The default bound: 512 MiB of local disk.
  public static let defaultLimit: Int64 = 512 << 20

  private struct Entry {
    var file: String
    var size: Int64
    var token: UInt64
  }

  public let limit: Int64
  private let parent: String
  private let lock = NSLock()
  private var folder: String? = nil
  private var entries: [String: Entry] = [:]
  private var held: Int64 = 0
  private var reserved: Int64 = 0
  private var counter = 0
  private var closed = false

  /// A spool of at most `limit` bytes in a folder under `parent` (default: `$TMPDIR`, else
  /// `/tmp`).
  public init(limit: Int64 = defaultLimit, parent: String? = nil) {
    self.limit = max(0, limit)
    let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    self.parent = parent ?? temporary ?? "/tmp"
  }

  deinit { close() }

  /// The bytes currently held (files written and not yet taken).
  public var heldBytes: Int64 { lock.withLock { held } }

  /// Room for an object of `size` bytes, reserved (`put` fills it, `release` gives it back);
  /// false when the spool would exceed its limit.
  public func reserve(_ size: Int64) -> Bool {
    lock.withLock {
      guard !closed, size > 0, held + reserved + size <= limit else { return false }
      reserved += size
      return true
    }
  }

  /// Gives back a reservation that was not filled.
  public func release(_ size: Int64) {
    lock.withLock { reserved -= size }
  }

  /// Keeps `bytes`, the whole object `name` (a store's display name and key) of change token
  /// `token`, in the room `reserve(size)` made; false (and the room given back) when the file
  /// cannot be written: the run then reads the object again.
  @discardableResult
  public func put(_ bytes: [UInt8], name: String, token: UInt64, reservedSize size: Int64) -> Bool {
    lock.lock()
    reserved -= size
    guard !closed, let folder = openFolder() else {
      lock.unlock()
      return false
    }
    counter += 1
    let file = folder + "/\(counter)"
    held += Int64(bytes.count)
    lock.unlock()
    if Self.write(bytes, to: file) {
      lock.withLock {
        if let old = entries.updateValue(Entry(file: file, size: Int64(bytes.count), token: token), forKey: name) {
          held -= old.size
          unlink(old.file)
        }
      }
      return true
    }
    unlink(file)
    lock.withLock { held -= Int64(bytes.count) }
    return false
  }

  /// The bytes kept for object `name` with change token `token`, removed from the spool; nil
  /// when none are kept (or they cannot be read back).
  public func take(_ name: String, token: UInt64) -> [UInt8]? {
    let entry: Entry? = lock.withLock {
      guard let entry = entries[name], entry.token == token else { return nil }
      entries[name] = nil
      return entry
    }
    guard let entry else { return nil }
    defer {
      unlink(entry.file)
      lock.withLock { held -= entry.size }
    }
    return Self.read(entry.file, size: Int(entry.size))
  }

  /// Removes every file kept and the folder; later `put`s keep nothing.
  public func close() {
    let (folder, files): (String?, [String]) = lock.withLock {
      closed = true
      let files = entries.values.map(\.file)
      entries.removeAll()
      held = 0
      return (self.folder, files)
    }
    for file in files { unlink(file) }
    if let folder { rmdir(folder) }
  }

  /// The spool's folder, made on first use (under the lock); stale folders of processes that
  /// are gone are removed first.
  private func openFolder() -> String? {
    if let folder { return folder }
    Self.removeStale(in: parent)
    var template = Array("\(parent)/cropjob-spool-\(getpid())-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
    folder = String(cString: made)
    return folder
  }

  /// Removes the spool folders under `parent` whose process (the number in the name) no
  /// longer runs.
  static func removeStale(in parent: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
    for name in names where name.hasPrefix("cropjob-spool-") {
      let fields = name.split(separator: "-")
      guard fields.count == 4, let pid = Int32(fields[2]), pid != getpid() else { continue }
      if kill(pid, 0) == 0 || errno != ESRCH { continue }
      try? FileManager.default.removeItem(atPath: parent + "/" + name)
    }
  }

  private static func write(_ bytes: [UInt8], to path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { Glibc.close(fd) }
    return bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
      }
      return true
    }
  }

  private static func read(_ path: String, size: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var offset = 0
      while offset < size {
        let n = Glibc.read(fd, buffer.baseAddress! + offset, size - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        offset += n
      }
      failed = offset != size
      count = offset
    }
    return failed ? nil : bytes
  }
}
