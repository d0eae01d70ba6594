import CropPlan
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What `stat` says about a file: a source whose identity equals the recorded one is taken
/// as unchanged (its header and hash are reused), as ninja trusts an input's mtime.
public struct FileIdentity: Sendable, Hashable {
  public var size: Int64
  /// Modification time in nanoseconds since 1970.
  public var mtime: Int64
  public var inode: UInt64

  public init(size: Int64, mtime: Int64, inode: UInt64) {
    self.size = size
    self.mtime = mtime
    self.inode = inode
  }

  /// The identity of the file at `path` (following links), or nil when it cannot be stat'ed.
  public static func of(path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(
      size: Int64(info.st_size), mtime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      inode: UInt64(info.st_ino))
  }
}

/// What the state records of one source (by absolute path): its identity when recorded, its
/// content hash (nil until a run hashed it) and its header.
public struct SourceFacts: Sendable, Equatable {
  public var identity: FileIdentity
  public var sha256: String?
  public var header: SourceHeader

  public init(identity: FileIdentity, sha256: String?, header: SourceHeader) {
    self.identity = identity
    self.sha256 = sha256
    self.header = header
  }
}
