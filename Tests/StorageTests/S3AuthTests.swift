import CropStorage
import Foundation
import TestSupport
import XCTest

/// moto with its IAM checks on (`setup-auth`: an admin allowed s3:*, a reader allowed only
/// s3:GetObject, then every request's SigV4 signature and permission checked): libcurl's
/// signatures are accepted for awkward keys, queries and ranges, and a wrong secret, an
/// unknown key, a missing bucket and a missing permission each give an error that names what
/// to check — and never the secret, in any error or event.
final class S3AuthTests: S3TestCase {
  struct Users {
    var admin: (id: String, secret: String)
    var reader: (id: String, secret: String)
    var session: (id: String, secret: String, token: String)
  }

  func startWithAuth(_ moto: MotoS3) throws -> Users {
    let users = try moto.client(["setup-auth", "private"]) as? [String: [String: String]] ?? [:]
    func pair(_ name: String) throws -> (String, String) {
      (try XCTUnwrap(users[name]?["id"]), try XCTUnwrap(users[name]?["secret"]))
    }
    let (id, secret) = try pair("session")
    return Users(
      admin: try pair("admin"), reader: try pair("reader"),
      session: (id, secret, try XCTUnwrap(users["session"]?["token"])))
  }

  func store(_ bucket: String, _ moto: MotoS3, id: String, secret: String, log: EventLog) throws -> S3Storage {
    try store(
      bucket, endpoint: moto.endpoint, environment: ["AWS_ACCESS_KEY_ID": id, "AWS_SECRET_ACCESS_KEY": secret],
      options: S3Storage.Options(
        retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, seed: 1), onEvent: { log.add($0) }))
  }

  /// Signed requests the server checked: list with a prefix and page size (a sorted, encoded
  /// query), keys with spaces, `+`, `&`, `=`, `%`, `~` and non-ASCII, a range, HEAD, PUT with
  /// If-None-Match, DELETE.
  func testSignaturesAreAcceptedForAwkwardKeys() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    let users = try startWithAuth(moto)
    let log = EventLog()
    let s3 = try store("private", moto, id: users.admin.id, secret: users.admin.secret, log: log)
    let keys = ["out/a b+c&d=e%f~g.jpg", "out/é/日本-400.webp", "out/(1) [x] {y}!$'*,;:@.png"]
    for (index, key) in keys.enumerated() {
      let body = bytes(1000 + index, seed: UInt64(index))
      try s3.write(body, to: key, options: WriteOptions(contentType: "image/jpeg", cacheControl: "max-age=60"))
      XCTAssertEqual(try s3.read(key), body, key)
      XCTAssertEqual(try s3.read(key, range: ByteRange(offset: 10, length: 20)), Array(body[10..<30]), key)
      XCTAssertEqual(try s3.stat(key)?.size, Int64(body.count), key)
    }
    // Above 1 MiB libcurl asks for 100-continue before the body.
    let large = bytes(1_500_000, seed: 8)
    try s3.write(large, to: "large/a.jpg", options: WriteOptions(contentType: "image/jpeg"))
    XCTAssertEqual(try boto3Get(moto, bucket: "private", key: "large/a.jpg", credentials: users.admin).body, large)
    XCTAssertEqual(
      try s3.listAll(prefix: "out/", pageSize: 2).map(\.key),
      keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    XCTAssertEqual(try s3.listAll(prefix: "out/é/").map(\.key), [keys[1]])
    for key in keys { try s3.delete(key) }
    XCTAssertEqual(try s3.listAll(prefix: "out/").count, 0)
    XCTAssertEqual(log.all, [], "nothing retried")
  }

  /// A role's temporary credentials: the session token goes in `x-amz-security-token` (moto
  /// checks it against the one it issued); without it the key is unknown, with another the
  /// request is refused — and the token is in no error.
  func testSessionTokensAreSent() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    let users = try startWithAuth(moto)
    let log = EventLog()
    let session = users.session
    let environment = [
      "AWS_ACCESS_KEY_ID": session.id, "AWS_SECRET_ACCESS_KEY": session.secret, "AWS_SESSION_TOKEN": session.token,
    ]
    let options = S3Storage.Options(
      retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.001, seed: 1), onEvent: { log.add($0) })
    let s3 = try store("private", endpoint: moto.endpoint, environment: environment, options: options)
    try s3.write([7, 7], to: "session/a.jpg", options: WriteOptions(contentType: "image/jpeg"))
    XCTAssertEqual(try s3.read("session/a.jpg"), [7, 7])
    XCTAssertEqual(try s3.listAll(prefix: "session/").map(\.key), ["session/a.jpg"])

    var texts: [String] = []
    var withoutToken = environment
    withoutToken["AWS_SESSION_TOKEN"] = nil
    let noToken = try store("private", endpoint: moto.endpoint, environment: withoutToken, options: options)
    XCTAssertThrowsError(try noToken.read("session/a.jpg")) { error in
      texts.append("\(error)")
      XCTAssertEqual((error as? StorageError)?.kind, .invalidAccessKey, "\(error)")
    }
    var otherToken = environment
    otherToken["AWS_SESSION_TOKEN"] = "FQoGZXIvYXdzEXAMPLETOKEN" + String(session.token.prefix(8))
    let wrongToken = try store("private", endpoint: moto.endpoint, environment: otherToken, options: options)
    XCTAssertThrowsError(try wrongToken.read("session/a.jpg")) { error in
      texts.append("\(error)")
      XCTAssertNotNil(error as? StorageError)
    }
    let everything = texts.joined(separator: "\n") + log.all.map(\.description).joined()
    for secret in [session.secret, session.token, otherToken["AWS_SESSION_TOKEN"]!] {
      XCTAssertFalse(everything.contains(secret), everything)
    }
  }

  /// Each misconfiguration gives its own kind of error, naming the bucket and key and what to
  /// check; no error and no event holds the secret, and nothing is retried (these answers
  /// will not change).
  func testCredentialErrorsSayWhatToCheckAndNeverTheSecret() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    let users = try startWithAuth(moto)
    let log = EventLog()
    let wrongSecret = "Wr0ngSecretValue/ForTheTest+xyz"
    var texts: [String] = []
    func expect(
      _ kind: StorageError.Kind, _ phrases: [String], line: UInt = #line, _ call: () throws -> Void
    ) {
      XCTAssertThrowsError(try call(), line: line) { error in
        let error = error as! StorageError
        texts.append(error.description)
        XCTAssertEqual(error.kind, kind, "\(error)", line: line)
        for phrase in phrases { XCTAssertTrue(error.description.contains(phrase), "\(phrase): \(error)", line: line) }
      }
    }

    let badSecret = try store("private", moto, id: users.admin.id, secret: wrongSecret, log: log)
    expect(
      .signatureMismatch,
      ["s3://private/photos/", "SignatureDoesNotMatch", "secret access key", "AWS_SECRET_ACCESS_KEY"]
    ) {
      _ = try badSecret.listAll(prefix: "photos/")
    }
    expect(.signatureMismatch, ["s3://private/photos/a.jpg", "SignatureDoesNotMatch"]) {
      _ = try badSecret.read("photos/a.jpg")
    }

    let unknown = try store("private", moto, id: "AKIAUNKNOWNKEY000000", secret: wrongSecret, log: log)
    expect(.invalidAccessKey, ["s3://private/photos/", "InvalidAccessKeyId", "AWS_ACCESS_KEY_ID", moto.endpoint]) {
      _ = try unknown.listAll(prefix: "photos/")
    }

    let reader = try store("private", moto, id: users.reader.id, secret: users.reader.secret, log: log)
    XCTAssertEqual(try reader.read("photos/a.jpg"), Array("seed".utf8), "the reader may read")
    expect(.accessDenied, ["s3://private/photos/", "AccessDenied", "s3:ListBucket", "bucket 'private'"]) {
      _ = try reader.listAll(prefix: "photos/")
    }
    expect(.accessDenied, ["s3://private/out/x.jpg", "s3:PutObject"]) {
      try reader.write([1], to: "out/x.jpg", options: WriteOptions(contentType: "image/jpeg"))
    }

    let missing = try store("no-such-bucket", moto, id: users.admin.id, secret: users.admin.secret, log: log)
    expect(
      .noSuchBucket, ["s3://no-such-bucket/photos/", "NoSuchBucket", "bucket 'no-such-bucket'", "AWS_ENDPOINT_URL"]
    ) {
      _ = try missing.listAll(prefix: "photos/")
    }

    XCTAssertEqual(log.all, [], "nothing retried")
    let everything = texts.joined(separator: "\n") + log.all.map(\.description).joined()
    for secret in [wrongSecret, users.admin.secret, users.reader.secret] {
      XCTAssertFalse(everything.contains(secret), "a secret in:\n\(everything)")
    }
    XCTAssertFalse("\(badSecret.settings.credentials)".contains(wrongSecret))
    print(texts.joined(separator: "\n"))
  }
}
