import CropStorage
import Foundation
import XCTest

/// `ObjectSpool`: objects kept on local disk between planning and decoding, within a byte
/// bound, each given back once and only for the change token it was kept with; the folder
/// made on first use and removed on close.
final class ObjectSpoolTests: XCTestCase {
  func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("spool-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }

  func testObjectsAreKeptWithinTheBoundAndGivenBackOnce() throws {
    let parent = try temporaryFolder()
    let spool = ObjectSpool(limit: 100, parent: parent.path)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), [], "no folder before a put")
    let a = [UInt8](repeating: 7, count: 60)
    XCTAssertTrue(spool.reserve(60))
    XCTAssertFalse(spool.reserve(41), "60 + 41 > 100")
    XCTAssertTrue(spool.put(a, name: "s3://b/a.jpg", token: 1, reservedSize: 60))
    XCTAssertEqual(spool.heldBytes, 60)
    XCTAssertTrue(spool.reserve(40))
    spool.release(40)
    XCTAssertNil(spool.take("s3://b/a.jpg", token: 2), "another change token: not these bytes")
    XCTAssertEqual(spool.take("s3://b/a.jpg", token: 1), a)
    XCTAssertNil(spool.take("s3://b/a.jpg", token: 1), "given back once")
    XCTAssertEqual(spool.heldBytes, 0)
    XCTAssertTrue(spool.reserve(100), "the room is free again")
    XCTAssertFalse(spool.reserve(1))
  }

  func testCloseRemovesTheFolderAndWhatItHeld() throws {
    let parent = try temporaryFolder()
    let spool = ObjectSpool(limit: 1000, parent: parent.path)
    for i in 0..<3 {
      XCTAssertTrue(spool.reserve(10))
      XCTAssertTrue(spool.put([UInt8](repeating: UInt8(i), count: 10), name: "k\(i)", token: 0, reservedSize: 10))
    }
    let folders = try FileManager.default.contentsOfDirectory(atPath: parent.path)
    XCTAssertEqual(folders.count, 1)
    XCTAssertTrue(folders[0].hasPrefix("cropjob-spool-\(getpid())-"), folders[0])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: parent.appendingPathComponent(folders[0]).path).count, 3)
    spool.close()
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), [])
    XCTAssertFalse(spool.reserve(1), "closed")
    XCTAssertNil(spool.take("k0", token: 0))
  }
}
