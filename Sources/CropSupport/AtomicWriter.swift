internal import CSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes files so that they appear whole or not at all, even after `kill -9`: the bytes go
/// to an unnamed file in the destination folder (`O_TMPFILE`), are fsynced, and are linked
/// under a temporary name that is renamed over the destination at once. Where `O_TMPFILE`
/// is missing, a named temporary file is used and removed on any failure.
///
/// A batch writes its outputs with `durable: false` (still atomic: a killed process leaves the
/// old file or the new one, never a part) and makes them durable all at once with
/// `syncFileSystem(containing:)` before its manifest is written (durably), so the manifest
/// never lists an output that a power cut could lose. One fsync per output cost about 10 ms of
/// waiting each (4.6 s summed over the workers for job B's 224 outputs; bench/README.md).
package enum AtomicWriter {
  /// Prefix of temporary names; a run removes stale ones it finds in the folders it writes.
  package static let temporaryPrefix = ".cropjob-tmp-"

  package struct WriteError: Error, CustomStringConvertible, Sendable {
    package var path: String
    package var message: String
    /// The write was refused because `path` exists and `replacing` was false.
    package var existed: Bool
    package var description: String { "\(path): \(message)" }

    package init(path: String, message: String, existed: Bool = false) {
      self.path = path
      self.message = message
      self.existed = existed
    }
  }

  /// Linux's O_TMPFILE (__O_TMPFILE | O_DIRECTORY), a macro Swift does not import.
  private static let openTemporaryFile: Int32 = 0o20_200_000

  /// Writes `bytes` to `path`, creating its folder. With `durable` (the default) the file and
  /// the rename are fsynced before returning; without it, call `syncFileSystem(containing:)`
  /// once the batch is written.
  /// With `replacing: false` a file already at `path` is left alone and the write fails
  /// with `WriteError.existed` (the new file is linked, not renamed, into place).
  package static func write(
    _ bytes: [UInt8], to path: String, durable: Bool = true, replacing: Bool = true
  ) throws(WriteError) {
    try write(to: path, durable: durable, replacing: replacing) { (emit) throws(WriteError) in try emit(bytes) }
  }

  /// `write(_:to:durable:)` for a file made piece by piece: `produce` passes each piece to the
  /// function it is given, in order (a manifest of a million outputs is never one array).
  /// Nothing appears at `path` unless `produce` returns.
  package static func write(
    to path: String, durable: Bool = true, replacing: Bool = true,
    _ produce: (_ emit: ([UInt8]) throws(WriteError) -> Void) throws(WriteError) -> Void
  ) throws(WriteError) {
    let folder = PathText.deletingLastComponent(path)
    try createFolders(folder)
    let temporary = PathText.appending(
      folder,
      "\(temporaryPrefix)\(getpid())-\(hostTag)-\(UInt64.random(in: 0...UInt64.max))")
    var fd = open(folder, openTemporaryFile | O_WRONLY | O_CLOEXEC, 0o644)
    let unnamed = fd >= 0
    if !unnamed {
      fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw WriteError(path: path, message: "cannot create a file: \(errnoText())") }
    }
    var linked = !unnamed
    var closed = false
    func fail(_ what: String) -> WriteError {
      let message = "\(what): \(errnoText())"
      close(fd)
      closed = true
      if linked { unlink(temporary) }
      return WriteError(path: path, message: message)
    }
    func emit(_ bytes: [UInt8]) throws(WriteError) {
      var written = 0
      while written < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
        if n < 0 {
          if errno == EINTR { continue }
          throw fail("write failed")
        }
        written += n
      }
    }
    do {
      try produce(emit)
    } catch {
      // A failed `emit` has closed the file; an error of `produce` itself has not.
      if !closed {
        close(fd)
        if linked { unlink(temporary) }
      }
      throw error
    }
    if durable && fsync(fd) != 0 { throw fail("fsync failed") }
    // A new file is linked straight under its name (no temporary name that a kill -9
    // could leave behind); one that replaces a file goes through a temporary name and rename.
    var placed = false
    func refuse() -> WriteError {
      close(fd)
      if linked { unlink(temporary) }
      return WriteError(path: path, message: "exists, and the write may not replace it", existed: true)
    }
    if unnamed {
      if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
        placed = true
      } else if errno == EEXIST && !replacing {
        throw refuse()
      } else if errno != EEXIST {
        throw fail("cannot link the new file")
      } else if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) != 0 {
        throw fail("cannot link the new file")
      } else {
        linked = true
      }
    }
    if !placed && !replacing {
      // link(2) fails on an existing name where rename(2) would replace it.
      if link(temporary, path) == 0 {
        unlink(temporary)
      } else if errno == EEXIST {
        throw refuse()
      } else if errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS {
        // A file system without hard links (FAT, some FUSE mounts): look, then rename; a
        // writer that races in between is not seen (as an object store's HEAD-first mode).
        var status = stat()
        if lstat(path, &status) == 0 { throw refuse() }
        if rename(temporary, path) != 0 { throw fail("cannot rename into place") }
      } else {
        throw fail("cannot link the new file")
      }
    } else if !placed && rename(temporary, path) != 0 {
      throw fail("cannot rename into place")
    }
    close(fd)
    // Make the rename durable.
    guard durable else { return }
    let dirFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dirFD >= 0 {
      fsync(dirFD)
      close(dirFD)
    }
  }

  /// `mkdir -p` that says why it failed (FileManager only says "error 512"): "Not a
  /// directory", "Read-only file system", "Permission denied", and which folder.
  package static func createFolders(_ folder: String) throws(WriteError) {
    var info = stat()
    if stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return }
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/") {
      if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
      prefix += component
      if mkdir(prefix, 0o755) == 0 { continue }
      let error = errno
      guard error == EEXIST else {
        throw WriteError(
          path: folder, message: "cannot create the folder \(prefix): \(String(cString: strerror(error)))")
      }
      if stat(prefix, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
        throw WriteError(path: folder, message: "cannot create the folder: \(prefix) exists and is not a folder")
      }
    }
  }

  /// Makes every file written with `durable: false` on the file system holding `path` durable
  /// (syncfs(2): one flush for the whole batch).
  package static func syncFileSystem(containing path: String) throws(WriteError) {
    if cj_sync_filesystem(path) != 0 {
      throw WriteError(path: path, message: "cannot flush the written files: \(errnoText())")
    }
  }

  /// Removes temporary files left by killed runs in `folder` (not recursive).
  /// Temporary names carry the pid and a tag of the host, because shards on several
  /// machines may write into one shared folder (NFS has no `O_TMPFILE`, so named temporary
  /// files are used there): a pid means something only on its own host. Another host's
  /// temporary file is removed only when it is a day old (its writer surely gone).
  package static func removeStaleTemporaries(in folder: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(temporaryPrefix) {
      let fields = name.dropFirst(temporaryPrefix.count).split(separator: "-")
      let path = PathText.appending(folder, name)
      if fields.count >= 3, fields[1] != hostTag {
        var info = stat()
        if stat(path, &info) == 0, time(nil) - info.st_mtim.tv_sec < 86_400 { continue }
      } else if let pid = fields.first.flatMap({ Int32($0) }), pid == getpid() || processExists(pid) {
        continue  // Ours, or still running.
      }
      unlink(path)
    }
  }

  /// Whether process `pid` exists on this host: `kill(pid, 0)` succeeds, or fails only because
  /// the process belongs to another user (EPERM), as a writer run by another account does.
  private static func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// This host's name, hashed (FNV-1a) to a short tag without dashes.
  package static let hostTag: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    gethostname(&buffer, buffer.count - 1)
    var hash: UInt32 = 0x811c_9dc5
    for byte in buffer.prefix(while: { $0 != 0 }) {
      hash ^= UInt32(UInt8(bitPattern: byte))
      hash = hash &* 0x0100_0193
    }
    return String(hash, radix: 16)
  }()

  package static func errnoText() -> String { String(cString: strerror(errno)) }

  package static func reason(_ error: Error) -> String {
    if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError {
      return underlying.localizedDescription
    }
    return (error as NSError).localizedDescription
  }
}
