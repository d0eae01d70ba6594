import CropStorage
import Foundation
import TestSupport
import XCTest

/// The S3 store through Tests/S3/fault_proxy.py in front of moto: 503s, resets (before and
/// after the server acted), SlowDown bursts and held-back answers, by a seeded plan. Every
/// object must come out right, each retry be reported, and the requests stay bounded.
final class S3FaultTests: S3TestCase {
  /// 5 % of requests failing (503, reset before the server saw it, reset after it acted):
  /// 120 reads and 120 conditional writes over 4 workers all come out right (the writes read
  /// back by boto3), every fault is one reported retry, and nothing else is retried.
  func testFivePercentFailuresAreRetriedAndReported() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "faulty"])
    let seeded = try seed(moto, bucket: "faulty", prefix: "in/", count: 120, seed: 9)
    let proxy = try FaultProxy(
      upstreamPort: moto.service.port, plan: ["rate": 0.05, "faults": ["503", "reset", "reset-after"], "seed": 4],
      folder: moto.folder)
    defer { proxy.stop() }
    let log = EventLog()
    let s3 = try store(
      "faulty", endpoint: proxy.endpoint,
      options: S3Storage.Options(
        maxInFlight: 4, retry: RetryPolicy(maxAttempts: 6, baseDelay: 0.005, seed: 12), onEvent: { log.add($0) }))

    let listed = try s3.listAll(prefix: "in/", pageSize: 50)
    XCTAssertEqual(listed.map(\.key), seeded.map(\.key))
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for index in stride(from: worker, to: seeded.count, by: 4) {
        do {
          let body = try s3.read(seeded[index].key)
          guard body.count == seeded[index].size else { throw Mismatch(key: seeded[index].key) }
          try s3.write(
            body + [UInt8(index & 255)], to: "out/\(index).bin", options: WriteOptions(contentType: "image/png"))
        } catch {
          failures.add("\(error)")
        }
      }
    }
    XCTAssertEqual(failures.all, [])
    let written = try moto.client(["list", "faulty", "out/"]) as? [[String: Any]] ?? []
    XCTAssertEqual(written.count, seeded.count)
    for index in [0, 1, 57, 119] {
      let back = try boto3Get(moto, bucket: "faulty", key: "out/\(index).bin")
      let original = try boto3Get(moto, bucket: "faulty", key: seeded[index].key).body
      XCTAssertEqual(back.body, original + [UInt8(index & 255)])
      XCTAssertEqual(back.headers["content_type"] as? String, "image/png")
    }
    let stats = try proxy.stats()
    let faults = stats.faults.values.reduce(0, +)
    print(
      "5 % faults: \(stats.requests) requests at the proxy, \(faults) faults \(stats.faults), retries \(log.all.count)")
    XCTAssertGreaterThan(faults, 5, "the plan injected faults")
    XCTAssertEqual(log.all.count, faults, "one reported retry per fault")
    XCTAssertEqual(s3.statistics.retries, faults)
    XCTAssertEqual(stats.requests, s3.statistics.requests, "the proxy saw every request the store counted")
    // Reads, writes, 3 list pages, the retries, and a read-back for each write whose
    // reset-after answer was lost and whose retry found the object there.
    XCTAssertLessThanOrEqual(stats.requests, 243 + faults + 3 * (stats.faults["reset-after"] ?? 0))
    let reasons = Set(log.all.map(\.reason))
    print("retry reasons: \(reasons.sorted())")
    for reason in reasons {
      XCTAssertTrue(
        reason == "503 ServiceUnavailable" || reason.hasPrefix("Failure when receiving data")
          || reason.hasPrefix("Server returned nothing") || reason.hasPrefix("connection closed before an answer"),
        reason)
    }
    XCTAssertTrue(log.all.allSatisfy { $0.description.contains("attempt \($0.attempt) of 6") })
  }

  /// SlowDown bursts (five in a row, then four): the requests they hit wait longer each time
  /// (full jitter under a doubling ceiling) and all succeed; the waits are reported.
  func testSlowDownBurstsSlowButDoNotFail() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "throttled"])
    let proxy = try FaultProxy(
      upstreamPort: moto.service.port, plan: ["slowdown": [[3, 7], [15, 18]]], folder: moto.folder)
    defer { proxy.stop() }
    let log = EventLog()
    let s3 = try store(
      "throttled", endpoint: proxy.endpoint,
      options: S3Storage.Options(
        maxInFlight: 1, retry: RetryPolicy(maxAttempts: 6, baseDelay: 0.05, seed: 3), onEvent: { log.add($0) },
        sleep: { log.slept($0) }))
    for index in 0..<12 {
      try s3.write(bytes(100, seed: UInt64(index)), to: "t/\(index)", options: WriteOptions(contentType: "image/jpeg"))
    }
    XCTAssertEqual(try s3.listAll(prefix: "t/").count, 12)
    let events = log.all
    XCTAssertEqual(events.count, 9)
    XCTAssertTrue(events.allSatisfy { $0.reason == "503 SlowDown" }, "\(events)")
    XCTAssertEqual(events.map(\.attempt), [1, 2, 3, 4, 5, 1, 2, 3, 4])
    // Each wait is drawn from 0 ... 0.05 × 2^(attempt-1).
    for event in events {
      XCTAssertLessThanOrEqual(event.delay, 0.05 * pow(2, Double(event.attempt - 1)))
    }
    XCTAssertGreaterThan(log.totalSleep, 0.1)
    XCTAssertEqual(try proxy.stats().requests, 12 + 1 + 9)
  }

  /// Answers held back past the request timeout: the store gives up on them, retries, and a
  /// conditional write whose first attempt landed is recognised as its own.
  func testSlowAnswersTimeOutAndAreRetried() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "slow"])
    let proxy = try FaultProxy(
      upstreamPort: moto.service.port, plan: ["slow": ["every": 4, "seconds": 2.5]], folder: moto.folder)
    defer { proxy.stop() }
    let log = EventLog()
    let s3 = try store(
      "slow", endpoint: proxy.endpoint,
      options: S3Storage.Options(
        maxInFlight: 1, retry: RetryPolicy(maxAttempts: 4, baseDelay: 0.01, seed: 5), requestTimeout: 1,
        onEvent: { log.add($0) }))
    for index in 0..<6 {
      let body = bytes(500, seed: UInt64(100 + index))
      try s3.write(body, to: "s/\(index)", options: WriteOptions(contentType: "image/webp"))
      XCTAssertEqual(try boto3Get(moto, bucket: "slow", key: "s/\(index)").body, body)
    }
    XCTAssertGreaterThanOrEqual(log.all.count, 1)
    XCTAssertTrue(log.all.allSatisfy { $0.reason.lowercased().contains("timeout") }, "\(log.all)")
  }

  /// Resets on a reused connection, before and after the server acted: libcurl may send the
  /// request again on a new connection by itself; the whole body must go again (not an
  /// empty one), each sending is counted and reported, and a conditional write whose first
  /// sending landed is recognised as the store's own.
  func testResetsOnReusedConnectionsResendWholeBodies() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "resets"])
    let proxy = try FaultProxy(
      upstreamPort: moto.service.port, plan: ["schedule": ["2": "reset", "4": "reset-after", "7": "reset"]],
      folder: moto.folder)
    defer { proxy.stop() }
    let log = EventLog()
    let s3 = try store(
      "resets", endpoint: proxy.endpoint,
      options: S3Storage.Options(
        maxInFlight: 1, retry: RetryPolicy(maxAttempts: 4, baseDelay: 0.001, seed: 2), onEvent: { log.add($0) }))
    var bodies: [[UInt8]] = []
    for index in 0..<5 {
      bodies.append(bytes(3000 + index, seed: UInt64(40 + index)))
      try s3.write(bodies[index], to: "r/\(index)", options: WriteOptions(contentType: "image/jpeg"))
    }
    for index in 0..<5 {
      XCTAssertEqual(try boto3Get(moto, bucket: "resets", key: "r/\(index)").body, bodies[index], "r/\(index)")
    }
    let stats = try proxy.stats()
    XCTAssertEqual(stats.faults.values.reduce(0, +), 3)
    XCTAssertEqual(stats.requests, s3.statistics.requests, "\(log.all)")
    XCTAssertEqual(log.all.count, 3, "\(log.all)")
  }

  /// A server that always fails: the store stops after `maxAttempts` (counted at the proxy)
  /// with an error that names the request and what happened.
  func testRetriesAreBounded() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "down"])
    let proxy = try FaultProxy(
      upstreamPort: moto.service.port, plan: ["rate": 1.0, "faults": ["503"]], folder: moto.folder)
    defer { proxy.stop() }
    let log = EventLog()
    let s3 = try store(
      "down", endpoint: proxy.endpoint,
      options: S3Storage.Options(
        retry: RetryPolicy(maxAttempts: 4, baseDelay: 0.001, seed: 1), onEvent: { log.add($0) }))
    XCTAssertThrowsError(try s3.read("a.jpg")) { error in
      XCTAssertEqual((error as? StorageError)?.kind, .server)
      XCTAssertTrue("\(error)".contains("s3://down/a.jpg"), "\(error)")
      XCTAssertTrue("\(error)".contains("503"), "\(error)")
    }
    XCTAssertEqual(try proxy.stats().requests, 4)
    XCTAssertEqual(log.all.count, 3)
  }
}

private struct Mismatch: Error { var key: String }

/// Errors collected from worker threads.
private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var errors: [String] = []
  func add(_ error: String) { lock.withLock { errors.append(error) } }
  var all: [String] { lock.withLock { errors } }
}
