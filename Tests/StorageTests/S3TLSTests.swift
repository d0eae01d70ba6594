import CropStorage
import Foundation
import TestSupport
import XCTest

/// TLS is verified: an endpoint whose certificate no trusted CA signed is refused at once
/// (not retried) with what to check, and trusted once `AWS_CA_BUNDLE` names its CA. The
/// server is the fault proxy speaking HTTPS in front of moto, with a certificate for
/// 127.0.0.1 made by openssl for this test.
final class S3TLSTests: S3TestCase {
  func testCertificatesAreVerified() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "tls"])
    let cert = moto.folder.appendingPathComponent("cert.pem").path
    let key = moto.folder.appendingPathComponent("key.pem").path
    let made = try Subprocess.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj",
        "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
      ])
    XCTAssertEqual(made.status, 0, made.stderr)
    let proxy = try FaultProxy(upstreamPort: moto.service.port, plan: [:], folder: moto.folder, tls: (cert, key))
    defer { proxy.stop() }
    XCTAssertTrue(proxy.endpoint.hasPrefix("https://"))

    let log = EventLog()
    let options = S3Storage.Options(
      retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, seed: 1), onEvent: { log.add($0) })
    let untrusted = try store("tls", endpoint: proxy.endpoint, options: options)
    XCTAssertThrowsError(try untrusted.listAll(prefix: "")) { error in
      XCTAssertEqual((error as? StorageError)?.kind, .transport, "\(error)")
      XCTAssertTrue("\(error)".contains("AWS_CA_BUNDLE"), "\(error)")
    }
    XCTAssertEqual(log.all, [], "a certificate problem is not retried")
    XCTAssertEqual(try proxy.stats().requests, 0, "nothing was sent over the unverified connection")

    let trusted = try store("tls", endpoint: proxy.endpoint, environment: ["AWS_CA_BUNDLE": cert], options: options)
    try trusted.write([1, 2, 3], to: "a.jpg", options: WriteOptions(contentType: "image/jpeg"))
    XCTAssertEqual(try trusted.read("a.jpg"), [1, 2, 3])
    XCTAssertEqual(try proxy.stats().requests, 2)
  }
}
