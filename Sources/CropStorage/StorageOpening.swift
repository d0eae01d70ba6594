import Foundation

extension StorageLocation {
  /// The store a location lives in and the key (or key prefix) in it: a local path becomes
  /// the key of its absolute path (relative to `directory`, `.` and `..` resolved by name, a
  /// trailing `/` kept) in a `LocalStorage` rooted at `/`; an `s3://` location an
  /// `S3Storage` of its bucket with settings resolved from `environment` as the AWS CLI would
  /// (`S3Settings.resolve`). Nothing is sent over the network here.
  public func open(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    home: String = NSHomeDirectory(), directory: String = FileManager.default.currentDirectoryPath,
    options: S3Storage.Options = S3Storage.Options()
  ) throws(StorageError) -> (storage: any ObjectStorage, key: String) {
    switch self {
    case .local:
      return (LocalStorage(root: "/"), open(localIn: directory))
    case .s3(let bucket, let key):
      let settings = try S3Settings.resolve(environment: environment, home: home)
      return (S3Storage(bucket: bucket, settings: settings, options: options), key)
    }
  }

  /// The key of a local path in a `LocalStorage` rooted at `/`: the absolute path (relative
  /// to `directory`) without its leading `/`, `.` and `..` resolved by name, a trailing `/`
  /// kept.
  func open(localIn directory: String) -> String {
    let path = key
    var parts: [Substring] = []
    for part in ((path.hasPrefix("/") ? "" : directory + "/") + path).split(separator: "/") {
      if part == ".." {
        _ = parts.popLast()
      } else if part != "." {
        parts.append(part)
      }
    }
    return parts.joined(separator: "/") + (path.hasSuffix("/") && !parts.isEmpty ? "/" : "")
  }
}

/// Reads whole objects at storage locations, each location's store opened as
/// `StorageLocation.open` does (credentials from `environment` and `home`, relative paths
/// against `directory`): how `plan` and `run` read a crop table at an `s3://` location.
public struct ObjectReading: Sendable {
  public var environment: [String: String]
  public var home: String
  public var directory: String

  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment, home: String = NSHomeDirectory(),
    directory: String = FileManager.default.currentDirectoryPath
  ) {
    self.environment = environment
    self.home = home
    self.directory = directory
  }

  /// The object at `location`, with at most `maxBytes + 1` bytes read (one ranged GET), so
  /// that a caller sees an object over its limit without reading it all.
  public func read(_ location: StorageLocation, maxBytes: Int) throws(StorageError) -> [UInt8] {
    let (storage, key) = try location.open(environment: environment, home: home, directory: directory)
    return try storage.read(key, range: ByteRange(offset: 0, length: Int64(maxBytes) + 1))
  }
}
