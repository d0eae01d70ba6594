import CropStorage
import XCTest

/// Request URLs in both addressing styles: the bucket in the host or the path, keys encoded
/// as SigV4 wants, queries sorted; `auto` as botocore decides.
final class S3EndpointTests: XCTestCase {
  let aws = S3Endpoint(scheme: "https", host: "s3.eu-west-1.amazonaws.com", port: nil, basePath: "")

  func testAddressingStyles() throws {
    let key = "photos/a b+é~.jpg"
    XCTAssertEqual(
      aws.url(bucket: "photos", key: key, query: [], style: .auto),
      "https://photos.s3.eu-west-1.amazonaws.com/photos/a%20b%2B%C3%A9~.jpg")
    XCTAssertEqual(
      aws.url(bucket: "photos", key: key, query: [], style: .path),
      "https://s3.eu-west-1.amazonaws.com/photos/photos/a%20b%2B%C3%A9~.jpg")
    // A dotted bucket over HTTPS, a capital or underscore: path style under auto.
    XCTAssertTrue(aws.url(bucket: "my.bucket", key: "k", query: [], style: .auto).hasPrefix("https://s3.eu"))
    XCTAssertTrue(aws.url(bucket: "My_Bucket", key: "k", query: [], style: .auto).hasPrefix("https://s3.eu"))
    let minio = try S3Endpoint(parsing: "http://127.0.0.1:9000", source: "test")
    XCTAssertEqual(minio.url(bucket: "b", key: "k", query: [], style: .auto), "http://127.0.0.1:9000/b/k")
    XCTAssertEqual(minio.url(bucket: "b", key: "k", query: [], style: .virtual), "http://b.127.0.0.1:9000/k")
    let local = try S3Endpoint(parsing: "http://localhost:9000/", source: "test")
    XCTAssertEqual(local.url(bucket: "b", key: "", query: [], style: .auto), "http://localhost:9000/b/")
  }

  func testQueriesAreSortedAndEncoded() {
    XCTAssertEqual(
      aws.url(
        bucket: "b", key: "", query: [("prefix", "a b/"), ("list-type", "2"), ("continuation-token", "1+/=")],
        style: .path),
      "https://s3.eu-west-1.amazonaws.com/b/?continuation-token=1%2B%2F%3D&list-type=2&prefix=a%20b%2F")
  }
}
