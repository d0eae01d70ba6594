/// Where the files of a job live, as one seam: a store lists the keys under a prefix page by
/// page, states a key's change token without reading it, reads it whole or a byte range,
/// writes it atomically with a content type, and deletes it. `LocalStorage` (the file system,
/// keys relative to a root folder) and `S3Storage` (one bucket) implement it; nothing outside
/// them needs to know which one it talks to.
///
/// Keys are `/`-separated and relative to the store's root (an S3 key is the whole key in the
/// bucket). Every method may be called from several threads at once.
public protocol ObjectStorage: Sendable {
  /// What the store is, for messages: `s3://bucket` or the root folder.
  var displayName: String { get }

  /// Whether each `stat` is a request to a server (an object store) rather than a system call:
  /// a caller that needs the sizes of many keys under one prefix lists it once instead.
  var statsAreRequests: Bool { get }

  /// The objects whose keys start with `prefix` (a string prefix, as in S3: `photos/a`
  /// matches `photos/a.jpg` and `photos/ab/c.jpg`), in ascending byte order of their keys,
  /// as a stream of pages of at most `pageSize` objects.
  func list(prefix: String, pageSize: Int) -> any ObjectPages

  /// The object's size and change token, or nil when there is no object at `key`.
  func stat(_ key: String) throws(StorageError) -> ObjectInfo?

  /// The object's bytes, or those of `range` (fewer where the object ends first; none when
  /// the range starts at or after its end). A missing key is `StorageError.Kind.notFound`.
  func read(_ key: String, range: ByteRange?) throws(StorageError) -> [UInt8]

  /// Writes `bytes` at `key` so that readers see the old object or the new one, never a part.
  /// `options.overwrite` says what may be replaced (see `Overwrite`); a refusal is
  /// `StorageError.Kind.exists` and leaves the key as it was.
  @discardableResult
  func write(_ bytes: [UInt8], to key: String, options: WriteOptions) throws(StorageError) -> WrittenObject

  /// Removes the object at `key`; a key that is already gone is not an error.
  func delete(_ key: String) throws(StorageError)

  /// The local file-system path of `key` when the store is a file system (its files can be
  /// walked, opened by path and identified by `stat`, as cropjob always did); nil for a
  /// store that is only reached through this protocol (S3). Callers branch on this
  /// capability, never on a scheme.
  func filePath(_ key: String) -> String?
}

extension ObjectStorage {
  public func filePath(_ key: String) -> String? { nil }
}

extension ObjectStorage {
  /// The whole object at `key`.
  public func read(_ key: String) throws(StorageError) -> [UInt8] { try read(key, range: nil) }

  /// Every object under `prefix`, all pages read (for small listings and tests).
  public func listAll(prefix: String, pageSize: Int = 1000) throws(StorageError) -> [ObjectInfo] {
    let pages = list(prefix: prefix, pageSize: pageSize)
    var all: [ObjectInfo] = []
    while let page = try pages.next() { all += page }
    return all
  }
}

/// A listing, read one page at a time: each `next()` may make one request (S3) or read a
/// few folders (local); nil when the listing is complete. Not for use by two threads at once.
public protocol ObjectPages: AnyObject {
  func next() throws(StorageError) -> [ObjectInfo]?
}

/// One listed or stated object.
public struct ObjectInfo: Sendable, Hashable {
  /// The key, relative to the store's root.
  public var key: String
  public var size: Int64
  /// What changes when the object's content may have changed.
  public var token: ChangeToken

  public init(key: String, size: Int64, token: ChangeToken) {
    self.key = key
    self.size = size
    self.token = token
  }
}

/// What tells, without reading an object, that it may have changed since it was last seen.
public enum ChangeToken: Sendable, Hashable, CustomStringConvertible {
  /// An object store's: the ETag (without quotes), the size, the last-modified time as the
  /// server wrote it, and the version ID where the bucket is versioned (HEAD gives it, a
  /// listing does not).
  case object(etag: String, size: Int64, lastModified: String, versionID: String?)
  /// A local file's identity, as cropjob's state records it: size, modification and change
  /// times in nanoseconds, inode and device (`touch -r` restores an mtime, not a ctime).
  case file(size: Int64, mtime: Int64, ctime: Int64, inode: UInt64, device: UInt64)

  public var description: String {
    switch self {
    case .object(let etag, let size, let modified, let version):
      return "etag \(etag), \(size) bytes, modified \(modified)" + (version.map { ", version \($0)" } ?? "")
    case .file(let size, let mtime, let ctime, let inode, let device):
      return "\(size) bytes, mtime \(mtime), ctime \(ctime), inode \(inode), device \(device)"
    }
  }

  /// Whether two tokens name the same content as far as the store can tell without reading:
  /// for objects the ETag and size (a listing and a HEAD give different time formats and only
  /// HEAD gives a version), for files every field.
  public func sameContent(as other: ChangeToken) -> Bool {
    switch (self, other) {
    case (.object(let a, let aSize, _, _), .object(let b, let bSize, _, _)): return a == b && aSize == bSize
    case (.file, .file): return self == other
    default: return false
    }
  }
}

/// Bytes `offset ..< offset + length` of an object.
public struct ByteRange: Sendable, Hashable {
  public var offset: Int64
  public var length: Int64

  public init(offset: Int64, length: Int64) {
    precondition(offset >= 0 && length > 0, "a byte range starts at 0 or later and holds at least one byte")
    self.offset = offset
    self.length = length
  }
}

/// How a write treats an object already at its key.
public enum Overwrite: Sendable, Hashable {
  /// Never replace anything: the write fails with `.exists` when the key holds an object
  /// (cropjob's default for a key it has no record of writing).
  case never
  /// Replace only the object cropjob wrote before, as recorded by the token the write (or a
  /// stat right after it) returned; anything else at the key is refused with `.exists`.
  case ifUnchanged(ChangeToken)
  /// Replace whatever is there (the user said so).
  case always
}

/// How an object is written.
public struct WriteOptions: Sendable, Hashable {
  /// The MIME type stored with the object (`Content-Type`), e.g. `image/jpeg`.
  public var contentType: String
  /// The `Cache-Control` stored with the object, if any (S3 only; local files have none).
  public var cacheControl: String?
  public var overwrite: Overwrite
  /// Local files only: fsync the file and its folder before returning (S3 acknowledges a PUT
  /// only once it is durable).
  public var durable: Bool

  public init(contentType: String, cacheControl: String? = nil, overwrite: Overwrite = .never, durable: Bool = true) {
    self.contentType = contentType
    self.cacheControl = cacheControl
    self.overwrite = overwrite
    self.durable = durable
  }
}

/// What a write placed: its key, size, and what the store says identifies it now (an S3 PUT
/// answers with the ETag and, in a versioned bucket, the version ID).
public struct WrittenObject: Sendable, Hashable {
  public var key: String
  public var size: Int64
  public var etag: String?
  public var versionID: String?

  public init(key: String, size: Int64, etag: String?, versionID: String?) {
    self.key = key
    self.size = size
    self.etag = etag
    self.versionID = versionID
  }
}
