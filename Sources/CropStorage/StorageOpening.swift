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
    case .local(let path):
      var parts: [Substring] = []
      for part in ((path.hasPrefix("/") ? "" : directory + "/") + path).split(separator: "/") {
        if part == ".." {
          _ = parts.popLast()
        } else if part != "." {
          parts.append(part)
        }
      }
      let key = parts.joined(separator: "/") + (path.hasSuffix("/") && !parts.isEmpty ? "/" : "")
      return (LocalStorage(root: "/"), key)
    case .s3(let bucket, let key):
      let settings = try S3Settings.resolve(environment: environment, home: home)
      return (S3Storage(bucket: bucket, settings: settings, options: options), key)
    }
  }
}
