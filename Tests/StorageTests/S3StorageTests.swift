import CropStorage
import Foundation
import TestSupport
import XCTest

/// The S3 store against moto's S3 server on loopback, with boto3 as the independent client
/// that seeds the bucket and reads back what the store wrote.
final class S3StorageTests: S3TestCase {
  /// 1,205 keys: the default page (1,000) and a small one (100) both page through
  /// continuation tokens; keys, sizes and ETags equal boto3's listing and the seeded MD5s.
  func testListingPagesThroughEveryKey() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "listing"])
    let seeded = try seed(moto, bucket: "listing", prefix: "photos/p", count: 1205, seed: 3)
    try moto.client(["put", "listing", "photos-other/x.bin", try scratchFile([1, 2, 3], in: moto.folder)])
    let boto3 = try moto.client(["list", "listing", "photos/"]) as? [[String: Any]] ?? []
    XCTAssertEqual(boto3.count, 1205)

    let s3 = try store("listing", endpoint: moto.endpoint)
    for pageSize in [1000, 100] {
      let before = s3.statistics.requests
      let pages = s3.list(prefix: "photos/", pageSize: pageSize)
      var listed: [ObjectInfo] = []
      var sizes: [Int] = []
      while let page = try pages.next() {
        sizes.append(page.count)
        listed += page
      }
      XCTAssertEqual(sizes, pageSize == 1000 ? [1000, 205] : Array(repeating: 100, count: 12) + [5])
      XCTAssertEqual(s3.statistics.requests - before, sizes.count, "one request per page")
      XCTAssertEqual(listed.map(\.key), boto3.map { $0["key"] as! String })
      XCTAssertEqual(listed.map(\.key), seeded.map(\.key))
      XCTAssertEqual(listed.map { Int($0.size) }, seeded.map(\.size))
      for (object, expected) in zip(listed, seeded) {
        guard case .object(let etag, let size, let modified, _) = object.token else { return XCTFail("\(object)") }
        XCTAssertEqual(etag, expected.md5)
        XCTAssertEqual(size, Int64(expected.size))
        XCTAssertFalse(modified.isEmpty)
      }
    }
    // A string prefix, as S3 means it.
    XCTAssertEqual(try s3.listAll(prefix: "photos/p0001").count, 10)
    XCTAssertEqual(try s3.listAll(prefix: "photos").count, 1206)
    XCTAssertEqual(try s3.listAll(prefix: "nothing/").count, 0)
  }

  /// Byte ranges of an object boto3 wrote: head, middle, a tail past the end, a start past
  /// the end, and the whole.
  func testRangeReads() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "ranges"])
    let content = bytes(70_000, seed: 11)
    try moto.client(["put", "ranges", "photo.jpg", try scratchFile(content, in: moto.folder)])
    let s3 = try store("ranges", endpoint: moto.endpoint)
    XCTAssertEqual(try s3.read("photo.jpg", range: ByteRange(offset: 0, length: 16)), Array(content[0..<16]))
    XCTAssertEqual(
      try s3.read("photo.jpg", range: ByteRange(offset: 65_536, length: 1000)), Array(content[65_536..<66_536]))
    XCTAssertEqual(try s3.read("photo.jpg", range: ByteRange(offset: 69_990, length: 100)), Array(content[69_990...]))
    XCTAssertEqual(try s3.read("photo.jpg", range: ByteRange(offset: 70_000, length: 10)), [])
    XCTAssertEqual(try s3.read("photo.jpg"), content)
    XCTAssertThrowsError(try s3.read("missing.jpg")) { XCTAssertEqual(($0 as? StorageError)?.kind, .notFound) }
    XCTAssertNil(try s3.stat("missing.jpg"))
    let info = try XCTUnwrap(try s3.stat("photo.jpg"))
    XCTAssertEqual(info.size, 70_000)
  }

  /// A PUT with a content type and Cache-Control, read back by boto3: the same bytes, type,
  /// cache header and ETag; stat's token agrees; delete removes it (and again is no error).
  func testWriteWithContentTypeReadBackByBoto3() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "outputs"])
    let s3 = try store("outputs", endpoint: moto.endpoint)
    let content = bytes(123_457, seed: 5)
    let key = "avatars/a b+c/é-400.jpg"
    let written = try s3.write(
      content, to: key,
      options: WriteOptions(contentType: "image/jpeg", cacheControl: "public, max-age=31536000"))
    let (body, headers) = try boto3Get(moto, bucket: "outputs", key: key)
    XCTAssertEqual(body, content)
    XCTAssertEqual(headers["content_type"] as? String, "image/jpeg")
    XCTAssertEqual(headers["cache_control"] as? String, "public, max-age=31536000")
    XCTAssertEqual(written.etag, headers["etag"] as? String)
    let info = try XCTUnwrap(try s3.stat(key))
    XCTAssertEqual(info.size, Int64(content.count))
    XCTAssertTrue(
      info.token.sameContent(as: .object(etag: written.etag!, size: 123_457, lastModified: "", versionID: nil)))
    XCTAssertEqual(try s3.listAll(prefix: "avatars/").map(\.key), [key])
    try s3.delete(key)
    try s3.delete(key)
    XCTAssertEqual((try moto.client(["list", "outputs", ""]) as? [[String: Any]])?.count, 0)
  }

  /// A key cropjob did not write is never replaced unless told: `.never` refuses what boto3
  /// put (and it stays as it was), `.ifUnchanged` replaces only cropjob's own last write,
  /// `.always` replaces anything. Both ways of guarding (the headers, HEAD first) behave so.
  func testConditionalWritesRefuseForeignKeys() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "guarded"])
    let foreign: [UInt8] = Array("not cropjob's".utf8)
    try moto.client(["put", "guarded", "out/foreign.jpg", try scratchFile(foreign, in: moto.folder)])
    for mode in [S3Storage.ConditionalWrites.headers, .headFirst] {
      let s3 = try store(
        "guarded", endpoint: moto.endpoint,
        options: S3Storage.Options(retry: RetryPolicy(baseDelay: 0.01, seed: 1), conditionalWrites: mode))
      let jpeg = WriteOptions(contentType: "image/jpeg")
      XCTAssertThrowsError(try s3.write([1, 2, 3], to: "out/foreign.jpg", options: jpeg)) { error in
        XCTAssertEqual((error as? StorageError)?.kind, .exists, "\(mode)")
        XCTAssertTrue("\(error)".contains("s3://guarded/out/foreign.jpg"), "\(error)")
      }
      XCTAssertEqual(try boto3Get(moto, bucket: "guarded", key: "out/foreign.jpg").body, foreign)

      let key = "out/ours-\(mode).jpg"
      let first = try s3.write([1], to: key, options: jpeg)
      let token = ChangeToken.object(etag: first.etag!, size: 1, lastModified: "", versionID: nil)
      var again = jpeg
      again.overwrite = .ifUnchanged(token)
      let second = try s3.write([2, 2], to: key, options: again)
      XCTAssertEqual(try boto3Get(moto, bucket: "guarded", key: key).body, [2, 2])
      // Someone else replaces it: the token of cropjob's first write no longer guards it.
      try moto.client(["put", "guarded", key, try scratchFile([9, 9, 9], in: moto.folder)])
      again.overwrite = .ifUnchanged(.object(etag: second.etag!, size: 2, lastModified: "", versionID: nil))
      XCTAssertThrowsError(try s3.write([3], to: key, options: again)) {
        XCTAssertEqual(($0 as? StorageError)?.kind, .exists, "\(mode)")
      }
      XCTAssertEqual(try boto3Get(moto, bucket: "guarded", key: key).body, [9, 9, 9])
      var told = jpeg
      told.overwrite = .always
      try s3.write([4], to: key, options: told)
      XCTAssertEqual(try boto3Get(moto, bucket: "guarded", key: key).body, [4])
    }
  }

  /// Requests reuse connections: 40 requests one at a time open one connection (counted by
  /// the store and by a fault-free proxy in front of moto, which itself closes every
  /// connection); 8 threads with 3 requests in flight make at most 3 handles.
  func testConnectionsAreReusedAndRequestsBounded() throws {
    let moto = try MotoS3()
    defer { moto.stop() }
    try moto.client(["make-bucket", "reuse"])
    let proxy = try FaultProxy(upstreamPort: moto.service.port, plan: [:], folder: moto.folder)
    defer { proxy.stop() }
    let serial = try store(
      "reuse", endpoint: proxy.endpoint, options: S3Storage.Options(maxInFlight: 1, retry: RetryPolicy(seed: 1)))
    for index in 0..<20 {
      try serial.write([UInt8(index)], to: "k\(index)", options: WriteOptions(contentType: "application/octet-stream"))
      XCTAssertEqual(try serial.read("k\(index)"), [UInt8(index)])
    }
    XCTAssertEqual(serial.statistics.requests, 40)
    XCTAssertEqual(serial.statistics.handles, 1)
    XCTAssertEqual(serial.statistics.connections, 1, "every request on the first connection")
    XCTAssertEqual(try proxy.stats().connections, 1)
    XCTAssertEqual(try proxy.stats().requests, 40)

    let bounded = try store(
      "reuse", endpoint: proxy.endpoint, options: S3Storage.Options(maxInFlight: 3, retry: RetryPolicy(seed: 1)))
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for index in 0..<5 { XCTAssertEqual(try? bounded.read("k\((worker * 5 + index) % 20)").count, 1) }
    }
    XCTAssertEqual(bounded.statistics.requests, 40)
    XCTAssertLessThanOrEqual(bounded.statistics.handles, 3)
    XCTAssertLessThanOrEqual(bounded.statistics.connections, 3)
    XCTAssertEqual(try proxy.stats().requests, 80)
    XCTAssertLessThanOrEqual(try proxy.stats().connections, 4)
  }
}
