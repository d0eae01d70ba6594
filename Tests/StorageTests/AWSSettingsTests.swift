import CropStorage
import Foundation
import TestSupport
import XCTest

/// Credentials, region, endpoint and addressing resolved from the places the AWS CLI reads,
/// in its order (docs/storage.md, "Credentials").
final class AWSSettingsTests: XCTestCase {
  var home: URL!

  override func setUp() {
    home = TestPaths.scratch()
    try? FileManager.default.createDirectory(
      at: home.appendingPathComponent(".aws"), withIntermediateDirectories: true)
  }

  func write(_ name: String, _ text: String) throws {
    try text.write(to: home.appendingPathComponent(".aws/\(name)"), atomically: true, encoding: .utf8)
  }

  func resolve(_ environment: [String: String]) throws -> S3Settings {
    try S3Settings.resolve(environment: environment, home: home.path)
  }

  let files = (
    credentials: """
    [default]
    aws_access_key_id = DEFAULTID
    aws_secret_access_key = default-secret

    # a comment
    [minio]
    aws_access_key_id=MINIOID
    aws_secret_access_key=minio-secret ; an inline comment
    aws_session_token = minio-token
    """,
    config: """
    [default]
    region = eu-west-1

    [profile minio]
    region = us-east-1
    endpoint_url = http://127.0.0.1:9000
    s3 =
      addressing_style = path
      endpoint_url = http://minio.local:9000/base/

    [profile r2]
    aws_access_key_id = R2ID
    aws_secret_access_key = r2-secret
    region = auto
    services = r2-services

    [services r2-services]
    s3 =
      endpoint_url = https://account.r2.cloudflarestorage.com

    [profile sso]
    sso_session = corp
    """
  )

  func testEnvironmentKeysComeFirstEvenWithAProfile() throws {
    try write("credentials", files.credentials)
    try write("config", files.config)
    let settings = try resolve([
      "AWS_ACCESS_KEY_ID": "ENVID", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
      "AWS_PROFILE": "minio",
    ])
    XCTAssertEqual(settings.credentials.accessKeyID, "ENVID")
    XCTAssertEqual(settings.credentials.secretAccessKey, "env-secret")
    XCTAssertEqual(settings.credentials.sessionToken, "env-token")
    XCTAssertEqual(settings.credentials.source, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN)")
    // The profile still gives what the environment does not: region, endpoint, addressing.
    XCTAssertEqual(settings.region, "us-east-1")
    XCTAssertEqual(settings.addressing, .path)
  }

  func testProfileFromTheCredentialsFileThenTheConfigFile() throws {
    try write("credentials", files.credentials)
    try write("config", files.config)
    let minio = try resolve(["AWS_PROFILE": "minio"])
    XCTAssertEqual(minio.credentials.accessKeyID, "MINIOID")
    XCTAssertEqual(minio.credentials.secretAccessKey, "minio-secret")
    XCTAssertEqual(minio.credentials.sessionToken, "minio-token")
    XCTAssertTrue(minio.credentials.source.hasPrefix("profile minio in \(home.path)/.aws/credentials"))
    // The nested s3 endpoint_url comes before the profile's own.
    XCTAssertEqual(minio.endpoint.description, "http://minio.local:9000/base")
    XCTAssertEqual(minio.addressing, .path)

    let r2 = try resolve(["AWS_PROFILE": "r2"])
    XCTAssertEqual(r2.credentials.accessKeyID, "R2ID")
    XCTAssertTrue(r2.credentials.source.contains(".aws/config"))
    XCTAssertEqual(r2.endpoint.description, "https://account.r2.cloudflarestorage.com")
    XCTAssertEqual(r2.region, "auto")
    XCTAssertEqual(r2.addressing, .auto)

    let fallback = try resolve([:])
    XCTAssertEqual(fallback.credentials.accessKeyID, "DEFAULTID")
    XCTAssertEqual(fallback.region, "eu-west-1")
    XCTAssertEqual(fallback.endpoint.description, "https://s3.eu-west-1.amazonaws.com")
  }

  func testRegionOrder() throws {
    try write("config", files.config)
    let keys = ["AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"]
    XCTAssertEqual(
      try resolve(keys.merging(["AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "us-west-2"]) { $1 }).region,
      "ap-south-1")
    XCTAssertEqual(
      try resolve(keys.merging(["AWS_DEFAULT_REGION": "us-west-2"]) { $1 }).regionSource, "AWS_DEFAULT_REGION")
    XCTAssertEqual(try resolve(keys).region, "eu-west-1")
    try write("config", "")
    XCTAssertEqual(try resolve(keys).region, "us-east-1")
  }

  func testEndpointOrder() throws {
    try write("config", files.config)
    var environment = [
      "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B", "AWS_PROFILE": "minio",
      "AWS_ENDPOINT_URL": "http://general:1", "AWS_ENDPOINT_URL_S3": "https://specific:2",
    ]
    XCTAssertEqual(try resolve(environment).endpoint.description, "https://specific:2")
    XCTAssertEqual(try resolve(environment).endpointSource, "AWS_ENDPOINT_URL_S3")
    environment["AWS_ENDPOINT_URL_S3"] = nil
    XCTAssertEqual(try resolve(environment).endpoint.description, "http://general:1")
    environment["AWS_ENDPOINT_URL"] = nil
    XCTAssertEqual(try resolve(environment).endpoint.description, "http://minio.local:9000/base")
    environment["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"] = "true"
    XCTAssertEqual(try resolve(environment).endpoint.description, "https://s3.us-east-1.amazonaws.com")
  }

  func testFilesNamedByTheEnvironment() throws {
    let other = home.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try "[team]\naws_access_key_id = TEAMID\naws_secret_access_key = s\n".write(
      to: other.appendingPathComponent("creds"), atomically: true, encoding: .utf8)
    try "[profile team]\nregion = sa-east-1\n".write(
      to: other.appendingPathComponent("conf"), atomically: true, encoding: .utf8)
    let settings = try resolve([
      "AWS_PROFILE": "team", "AWS_SHARED_CREDENTIALS_FILE": other.appendingPathComponent("creds").path,
      "AWS_CONFIG_FILE": other.appendingPathComponent("conf").path,
    ])
    XCTAssertEqual(settings.credentials.accessKeyID, "TEAMID")
    XCTAssertEqual(settings.region, "sa-east-1")
  }

  func testProblemsAreClearAndHoldNoSecret() throws {
    try write("credentials", files.credentials)
    try write("config", files.config)
    let cases: [([String: String], String)] = [
      (["AWS_PROFILE": "nobody"], "the profile 'nobody' (AWS_PROFILE) is in neither"),
      (["AWS_ACCESS_KEY_ID": "only-id"], "AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY"),
      (["AWS_SECRET_ACCESS_KEY": "only-secret-value"], "AWS_SECRET_ACCESS_KEY is set without AWS_ACCESS_KEY_ID"),
      (["AWS_PROFILE": "sso"], "through sso_session, which cropjob does not support yet"),
      (["AWS_ENDPOINT_URL": "ftp://x"], "is not http:// or https://"),
      (["AWS_ENDPOINT_URL": "http://user:pw@host"], "holds a user name"),
      (["AWS_ENDPOINT_URL": "http://host:99999"], "port"),
    ]
    for (environment, expected) in cases {
      XCTAssertThrowsError(try resolve(environment), expected) { error in
        XCTAssertTrue("\(error)".contains(expected), "\(expected): \(error)")
        XCTAssertFalse("\(error)".contains("only-secret-value"))
        XCTAssertFalse("\(error)".contains("default-secret"))
      }
    }
    try write("credentials", "")
    try write("config", "")
    XCTAssertThrowsError(try resolve([:])) { XCTAssertTrue("\($0)".contains("no AWS credentials"), "\($0)") }
    let settings = try resolve(["AWS_ACCESS_KEY_ID": "ID", "AWS_SECRET_ACCESS_KEY": "the-secret"])
    XCTAssertFalse("\(settings.credentials)".contains("the-secret"))
  }

  /// The nested-section parser: indentation, comments, CRLF, `[profile default]`.
  func testConfigFileParsing() {
    let file = AWSConfigFile(
      parsing: "[profile default]\r\nregion = x\r\ns3 =\r\n  addressing_style = virtual\r\n  ; c\r\nafter = y\r\n")
    XCTAssertEqual(file.configProfile("default")?.values, ["region": "x", "after": "y"])
    XCTAssertEqual(file.configProfile("default")?.nested["s3"], ["addressing_style": "virtual"])
  }
}
