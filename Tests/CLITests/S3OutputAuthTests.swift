import Foundation
import TestSupport
import XCTest

/// `cropjob run` to an `s3://` output that cannot be used, against moto with its IAM checks
/// on (one server for the class: an admin allowed s3:*, a lister allowed only to list and
/// read): a wrong secret, a missing bucket and no permission to write each exit 2 before
/// anything is written, with a message naming the bucket and what to check, and the secret
/// is nowhere — not in the output, the events, the files of the job, nor the objects of a
/// run that worked.
final class S3OutputAuthTests: XCTestCase {
  nonisolated(unsafe) static var moto: MotoS3?
  nonisolated(unsafe) static var users: [String: [String: String]] = [:]
  static let bucket = "private"

  override class func setUp() {
    super.setUp()
    moto = try? MotoS3(name: "S3OutputAuthTests")
    users = (try? moto?.client(["setup-auth", bucket])) as? [String: [String: String]] ?? [:]
  }

  override class func tearDown() {
    moto?.stop()
    moto = nil
    super.tearDown()
  }

  func user(_ name: String) throws -> (id: String, secret: String) {
    _ = try XCTUnwrap(Self.moto, "moto did not start: run scripts/install-deps.sh")
    return (try XCTUnwrap(Self.users[name]?["id"]), try XCTUnwrap(Self.users[name]?["secret"]))
  }

  func environment(id: String, secret: String) throws -> [String: String] {
    var environment = MotoS3.environment
    environment["AWS_ENDPOINT_URL"] = try XCTUnwrap(Self.moto).endpoint
    environment["AWS_CONFIG_FILE"] = "/nonexistent/config"
    environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/credentials"
    environment["AWS_ACCESS_KEY_ID"] = id
    environment["AWS_SECRET_ACCESS_KEY"] = secret
    return environment
  }

  /// The keys in the bucket, listed by the admin with boto3.
  func keys() throws -> [String] {
    let admin = try user("admin")
    let listed = try XCTUnwrap(Self.moto).client(["list", Self.bucket, ""], credentials: admin) as? [[String: Any]]
    return (listed ?? []).compactMap { $0["key"] as? String }.sorted()
  }

  /// Every byte the job's folder holds, as text (for the secret to be looked for).
  func folderText(_ s: CLIJob) -> String {
    let files = FileManager.default.enumerator(atPath: s.folder.path)?.compactMap { $0 as? String } ?? []
    return files.compactMap { FileManager.default.contents(atPath: s.path($0)) }.map {
      String(decoding: $0, as: UTF8.self)
    }.joined()
  }

  func job(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(["cat.png"])
    try s.write(
      """
      version: 1
      output: s3://\(Self.bucket)/thumbs
      jobs:
        thumbs:
          sources: [photos/*]
          guide: {shape: square, size: 32}
          outputs: [{path: "{stem}.jpg"}]
      """)
    return s
  }

  func testUnusableOutputsExitTwoNamingWhatToCheckAndNeverTheSecret() throws {
    let s = try job()
    defer { s.remove() }
    let admin = try user("admin")
    let lister = try user("lister")
    let before = try keys()
    let wrong = "wrong+Secret/\(UUID().uuidString)"
    let cases: [(what: String, environment: [String: String], arguments: [String], says: [String], secret: String)] = [
      (
        "wrong secret", try environment(id: admin.id, secret: wrong), [],
        ["private", "SignatureDoesNotMatch", "secret"],
        wrong
      ),
      (
        "missing bucket", try environment(id: admin.id, secret: admin.secret), ["--output", "s3://no-such-bucket/x"],
        ["no-such-bucket", "does not exist"], admin.secret
      ),
      (
        "no permission to write", try environment(id: lister.id, secret: lister.secret), [],
        ["private", "s3:PutObject"], lister.secret
      ),
    ]
    for c in cases {
      let run = try s.run(["run", "job.yaml", "--json"] + c.arguments, environment: c.environment)
      XCTAssertEqual(run.status, 2, "\(c.what): \(run.stderr)")
      // A refused plan says so on standard error; a refusal when the state is first put, in
      // the run's events (`--json`: on standard output).
      let said = run.stderr + run.stdout
      for text in c.says { XCTAssertTrue(said.contains(text), "\(c.what): \(text) in \(said)") }
      XCTAssertEqual(try keys(), before, "\(c.what): nothing was written")
      for output in [run.stdout, run.stderr, folderText(s)] {
        XCTAssertFalse(output.contains(c.secret), "\(c.what): the secret was shown")
      }
    }
    // A run that works: the secret is in none of the objects it wrote either.
    let good = try s.run(
      ["run", "job.yaml", "--json"], environment: try environment(id: admin.id, secret: admin.secret))
    XCTAssertEqual(good.status, 0, good.stderr)
    let written = try keys().filter { $0.hasPrefix("thumbs/") }
    XCTAssertEqual(written, ["thumbs/.cropjob/state.sqlite3.zst", "thumbs/cat.jpg", "thumbs/cropjob-manifest.json"])
    for key in written {
      let file = s.path("object-\(UUID().uuidString.prefix(6))")
      try XCTUnwrap(Self.moto).client(["get", Self.bucket, key, file], credentials: admin)
      var bytes = try XCTUnwrap(FileManager.default.contents(atPath: file))
      if key.hasSuffix(".zst") {
        // The state object, compressed: looked into with the zstd tool (scripts/install-deps.sh).
        let plain = try Subprocess.run("/usr/bin/zstd", ["-d", "-c", file])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdoutData.starts(with: Data("SQLite format 3".utf8)), "a SQLite file")
        bytes = plain.stdoutData
      }
      XCTAssertNil(bytes.range(of: Data(admin.secret.utf8)), key)
    }
    XCTAssertFalse(good.stdout.contains(admin.secret) || good.stderr.contains(admin.secret))
  }
}
