import Foundation
import TestSupport
import XCTest

/// A listing refused (wrong secret, missing bucket, no permission to list) stops the run
/// before anything is written: exit 2, a message naming the bucket and what to check, and
/// the secret in no output and no file (moto with its IAM checks on; one server for the
/// class).
final class S3SourceAuthTests: XCTestCase {
  func testRefusedListingsExit2NamingWhatToCheckWithTheSecretNowhere() throws {
    let job = try S3SourceJob(name: "S3SourceAuthTests")
    defer { job.moto.stop() }
    let users = try job.moto.client(["setup-auth", "private"]) as? [String: [String: String]] ?? [:]
    let admin = (id: try XCTUnwrap(users["admin"]?["id"]), secret: try XCTUnwrap(users["admin"]?["secret"]))
    let reader = (id: try XCTUnwrap(users["reader"]?["id"]), secret: try XCTUnwrap(users["reader"]?["secret"]))
    let wrongSecret = "wrong-secret-that-must-not-leak-0123456789"
    let cases: [(name: String, source: String, id: String, secret: String, expected: [String])] = [
      ("wrong-secret", "s3://private/photos/", admin.id, wrongSecret, ["s3://private", "secret"]),
      ("no-bucket", "s3://no-such-bucket-38/in/", admin.id, admin.secret, ["no-such-bucket-38", "bucket"]),
      ("no-list", "s3://private/photos/", reader.id, reader.secret, ["s3://private", "s3:ListBucket"]),
    ]
    for c in cases {
      let output = job.folder.appendingPathComponent("out-\(c.name)")
      let file = try job.jobFile(c.name, source: c.source, output: output.path)
      let result = try job.cropjob(
        ["run", file.path], environment: job.environment(endpoint: job.moto.endpoint, id: c.id, secret: c.secret))
      XCTAssertEqual(result.status, 2, "\(c.name): \(result.stderr)")
      for word in c.expected {
        XCTAssertTrue(result.stderr.contains(word), "\(c.name): \(word) not in \(result.stderr)")
      }
      XCTAssertEqual(S3SourceJob.files(output), [:], "\(c.name): nothing written")
      var texts = [result.stdout, result.stderr]
      let enumerator = FileManager.default.enumerator(at: job.folder, includingPropertiesForKeys: nil)
      while let url = enumerator?.nextObject() as? URL {
        if url.path.hasSuffix(".log") { continue }  // moto's own log
        if let data = FileManager.default.contents(atPath: url.path) {
          texts.append(String(decoding: data, as: UTF8.self))
        }
      }
      for secret in [c.secret, admin.secret, reader.secret, wrongSecret] {
        XCTAssertFalse(texts.contains { $0.contains(secret) }, "\(c.name): a secret was shown or written")
      }
    }
  }
}
