import Foundation

/// The stores one plan or run reads and writes, opened once each: the local file system and
/// one `S3Storage` per bucket (so that every read of a bucket reuses its connections), with
/// the S3 settings resolved once from the environment as the AWS CLI would. Thread-safe.
public final class StorageSet: @unchecked Sendable {
  /// What every S3 store is made with (retries reported through `options.onEvent`).
  public let options: S3Storage.Options
  private let environment: [String: String]
  private let home: String
  private let lock = NSLock()
  private var settings: Result<S3Settings, StorageError>?
  private var buckets: [String: S3Storage] = [:]
  private let local = LocalStorage(root: "/")

  public init(
    options: S3Storage.Options = S3Storage.Options(),
    environment: [String: String] = ProcessInfo.processInfo.environment, home: String = NSHomeDirectory()
  ) {
    self.options = options
    self.environment = environment
    self.home = home
  }

  /// The store `location` lives in and its key there (see `StorageLocation.open`); a
  /// relative local path is taken against `directory`. No request is made.
  public func open(
    _ location: StorageLocation, directory: String = FileManager.default.currentDirectoryPath
  ) throws(StorageError) -> (storage: any ObjectStorage, key: String) {
    guard let bucket = location.bucket else {
      return (local, location.open(localIn: directory))
    }
    lock.lock()
    defer { lock.unlock() }
    if let store = buckets[bucket] { return (store, location.key) }
    if settings == nil {
      do throws(StorageError) {
        settings = .success(try S3Settings.resolve(environment: environment, home: home))
      } catch {
        settings = .failure(error)
      }
    }
    let store = S3Storage(bucket: bucket, settings: try settings!.get(), options: options)
    buckets[bucket] = store
    return (store, location.key)
  }

  /// The store and key of `text` (a local path or `s3://bucket/key`).
  public func open(_ text: String, directory: String = FileManager.default.currentDirectoryPath) throws(StorageError)
    -> (storage: any ObjectStorage, key: String)
  {
    try open(try StorageLocation.parse(text), directory: directory)
  }

  /// The requests the S3 stores made so far, with their retries (for reports and tests).
  public var statistics: (requests: Int, retries: Int) {
    lock.lock()
    defer { lock.unlock() }
    return buckets.values.reduce((0, 0)) { ($0.0 + $1.statistics.requests, $0.1 + $1.statistics.retries) }
  }
}
