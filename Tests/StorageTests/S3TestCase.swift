import CropStorage
import Foundation
import TestSupport
import XCTest

/// What the S3 tests share: a store on an endpoint with the test credentials, and the
/// seeded bodies (the same generator as Tests/S3/s3_client.py's `seed`, checked by MD5
/// against boto3's listing, so the two cannot drift apart silently).
class S3TestCase: XCTestCase {
  /// An S3 store for `bucket` at `endpoint`, its settings resolved from an environment as a
  /// user's would be (no files), with fast retries.
  func store(
    _ bucket: String, endpoint: String, environment extra: [String: String] = [:],
    options: S3Storage.Options = S3Storage.Options(retry: RetryPolicy(maxAttempts: 6, baseDelay: 0.01, seed: 7))
  ) throws -> S3Storage {
    var environment = MotoS3.environment
    environment["AWS_ENDPOINT_URL"] = endpoint
    environment["AWS_CONFIG_FILE"] = "/nonexistent/config"
    environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/credentials"
    environment.merge(extra) { $1 }
    let settings = try S3Settings.resolve(environment: environment, home: "/nonexistent")
    return S3Storage(bucket: bucket, settings: settings, options: options)
  }

  /// Seeded objects as boto3 listed them: key, size and MD5 (moto's ETag of a single PUT).
  func seed(_ moto: MotoS3, bucket: String, prefix: String, count: Int, seed: Int) throws -> [(
    key: String, size: Int, md5: String
  )] {
    let listed = try moto.client(["seed", bucket, prefix, String(count), String(seed)]) as? [[String: Any]] ?? []
    return listed.map { ($0["key"] as! String, $0["size"] as! Int, $0["md5"] as! String) }
  }

  /// Writes `bytes` to a scratch file and returns its path (for boto3 `put`).
  func scratchFile(_ bytes: [UInt8], in folder: URL) throws -> String {
    let url = folder.appendingPathComponent("body-\(UUID().uuidString.prefix(8))")
    try Data(bytes).write(to: url)
    return url.path
  }

  /// Reads `key` with boto3: the body and its Content-Type, Cache-Control and ETag.
  func boto3Get(
    _ moto: MotoS3, bucket: String, key: String, credentials: (id: String, secret: String)? = nil
  ) throws -> (body: [UInt8], headers: [String: Any]) {
    let file = moto.folder.appendingPathComponent("get-\(UUID().uuidString.prefix(8))")
    let headers =
      try moto.client(["get", bucket, key, file.path], credentials: credentials) as? [String: Any] ?? [:]
    return ([UInt8](try Data(contentsOf: file)), headers)
  }

  /// Deterministic bytes for a test's own writes.
  func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    let words = (0..<(count + 7) / 8).map { _ in random.next() }
    return words.withUnsafeBytes { Array($0.prefix(count)) }
  }
}

/// Collects what a store reports, from any thread.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [StorageEvent] = []
  private var sleeps: [Double] = []

  func add(_ event: StorageEvent) { lock.withLock { events.append(event) } }
  func slept(_ seconds: Double) { lock.withLock { sleeps.append(seconds) } }
  var all: [StorageEvent] { lock.withLock { events } }
  var totalSleep: Double { lock.withLock { sleeps.reduce(0, +) } }
}
