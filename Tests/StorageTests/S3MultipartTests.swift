import CropStorage
import Foundation
import TestSupport
import XCTest

/// Objects above the multipart threshold (lowered to 6 MiB here, with S3's smallest parts of
/// 5 MiB): read back whole by boto3 with their content type; a refused condition leaves the
/// old object and no upload behind.
final class S3MultipartTests: S3TestCase {
  func testLargeObjectsAreUploadedInParts() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "large"])
    let proxy = try FaultProxy(upstreamPort: moto.service.port, plan: [:], folder: moto.folder)
    defer { proxy.stop() }
    let s3 = try store(
      "large", endpoint: proxy.endpoint,
      options: S3Storage.Options(
        retry: RetryPolicy(baseDelay: 0.01, seed: 1), multipartThreshold: 6 << 20, partSize: 5 << 20))
    let content = bytes(12 << 20, seed: 21)
    let written = try s3.write(
      content, to: "big/a.tif", options: WriteOptions(contentType: "image/tiff", cacheControl: "no-cache"))
    let (body, headers) = try boto3Get(moto, bucket: "large", key: "big/a.tif")
    XCTAssertEqual(body.count, content.count)
    XCTAssertTrue(body == content)
    XCTAssertEqual(headers["content_type"] as? String, "image/tiff")
    XCTAssertEqual(headers["cache_control"] as? String, "no-cache")
    XCTAssertEqual(written.etag, headers["etag"] as? String)
    XCTAssertTrue(written.etag?.hasSuffix("-3") ?? false, "three parts: \(String(describing: written.etag))")
    let stats = try proxy.stats()
    XCTAssertEqual(stats.methods, ["POST": 2, "PUT": 3], "create, three parts, complete")

    // The key exists now: a second upload that may not replace it is refused at completion
    // and aborted, and the object is the first one still.
    XCTAssertThrowsError(
      try s3.write(bytes(7 << 20, seed: 22), to: "big/a.tif", options: WriteOptions(contentType: "image/tiff"))
    ) { XCTAssertEqual(($0 as? StorageError)?.kind, .exists, "\($0)") }
    XCTAssertEqual((try moto.client(["uploads", "large"]) as? [String])?.count, 0, "the refused upload was aborted")
    XCTAssertTrue(try boto3Get(moto, bucket: "large", key: "big/a.tif").body == content)

    // Below the threshold: one PUT.
    let before = try proxy.stats().requests
    try s3.write(bytes(6 << 20, seed: 23), to: "big/b.tif", options: WriteOptions(contentType: "image/tiff"))
    XCTAssertEqual(try proxy.stats().requests - before, 1)
  }
}
