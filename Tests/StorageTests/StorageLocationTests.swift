import CropStorage
import XCTest

/// `s3://` locations, local paths, and other schemes refused with what to write instead.
final class StorageLocationTests: XCTestCase {
  func testS3LocationsSplitIntoBucketAndKey() throws {
    XCTAssertEqual(try StorageLocation.parse("s3://photos/2024/a.jpg"), .s3(bucket: "photos", key: "2024/a.jpg"))
    XCTAssertEqual(try StorageLocation.parse("s3://photos"), .s3(bucket: "photos", key: ""))
    XCTAssertEqual(try StorageLocation.parse("s3://photos/"), .s3(bucket: "photos", key: ""))
    XCTAssertEqual(try StorageLocation.parse("S3://my.bucket-1/out/"), .s3(bucket: "my.bucket-1", key: "out/"))
    XCTAssertEqual(try StorageLocation.parse("s3://photos/a b/é.jpg").description, "s3://photos/a b/é.jpg")
  }

  func testLocalPathsStayPaths() throws {
    for path in ["photos/a.jpg", "/srv/photos", "./x", "x/a://b", "weird:name/x", "C:/x"] {
      XCTAssertEqual(try StorageLocation.parse(path), .local(path: path), path)
    }
  }

  func testOtherSchemesAreRefusedWithWhatToWrite() {
    for text in ["https://example.com/a.jpg", "http://x/y", "gs://bucket/x", "file:///tmp/x", "a://b/c"] {
      XCTAssertThrowsError(try StorageLocation.parse(text), text) { error in
        let error = error as! StorageError
        XCTAssertEqual(error.kind, .unsupportedLocation)
        XCTAssertTrue(error.description.contains("not supported, use s3://bucket/prefix or a local path"), "\(error)")
        XCTAssertTrue(error.description.hasPrefix(text), "\(error)")
      }
    }
  }

  /// A location opens the store it names, with nothing sent: local paths keep their key as
  /// written, `s3://` resolves the AWS settings (and their errors) from the environment.
  func testLocationsOpenTheirStores() throws {
    let (local, key) = try StorageLocation.parse("/srv/photos/a.jpg").open(environment: [:], home: "/nonexistent")
    XCTAssertEqual((local as? LocalStorage)?.root, "/")
    XCTAssertEqual(key, "srv/photos/a.jpg")
    let (relative, relativeKey) = try StorageLocation.parse("../samples/./in/").open(
      environment: [:], home: "/nonexistent", directory: "/work/jobs")
    XCTAssertEqual((relative as? LocalStorage)?.root, "/")
    XCTAssertEqual(relativeKey, "work/samples/in/")
    XCTAssertEqual(try relative.stat(relativeKey + "missing.jpg"), nil)
    let environment = [
      "AWS_ACCESS_KEY_ID": "ID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
    ]
    let (s3, prefix) = try StorageLocation.parse("s3://photos/in/").open(environment: environment, home: "/nonexistent")
    XCTAssertEqual((s3 as? S3Storage)?.bucket, "photos")
    XCTAssertEqual((s3 as? S3Storage)?.settings.endpoint.description, "http://127.0.0.1:9")
    XCTAssertEqual(prefix, "in/")
    XCTAssertEqual((s3 as? S3Storage)?.statistics.requests, 0)
    XCTAssertThrowsError(try StorageLocation.parse("s3://photos/in/").open(environment: [:], home: "/nonexistent")) {
      XCTAssertEqual(($0 as? StorageError)?.kind, .configuration)
    }
  }

  func testBadBucketNamesSayWhy() {
    let cases = [
      "s3://": "no bucket", "s3:///key": "no bucket", "s3://ab/x": "3 to 63", "s3://a*b/x": "letters, digits",
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try StorageLocation.parse(text), text) { error in
        XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
      }
    }
  }
}
