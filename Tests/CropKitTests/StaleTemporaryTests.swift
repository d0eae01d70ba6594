import CropKit
import Foundation
import XCTest

/// Leftover temporary files: removed when their writer is gone, kept while it may still be
/// writing, including writers on other hosts sharing the folder (shards on NFS).
final class StaleTemporaryTests: XCTestCase {
  func deadPID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  func testRemovesOnlyTheTemporariesOfGoneWriters() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let dead = try deadPID()
    let p = AtomicWriter.temporaryPrefix
    let tag = AtomicWriter.hostTag
    let names = [
      "deadLocal": "\(p)\(dead)-\(tag)-1",
      "alive": "\(p)1-\(tag)-2",  // pid 1 is always running
      "ours": "\(p)\(getpid())-\(tag)-3",
      "otherHostFresh": "\(p)\(dead)-0other0-4",
      "otherHostOld": "\(p)\(dead)-0other0-5",
      "oldFormatDead": "\(p)\(dead)-6",
      "notOurs": "photo.jpg",
    ]
    for name in names.values { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)],
      ofItemAtPath: folder.appendingPathComponent(names["otherHostOld"]!).path)
    AtomicWriter.removeStaleTemporaries(in: folder.path)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    XCTAssertEqual(left, Set(["alive", "ours", "otherHostFresh", "notOurs"].map { names[$0]! }))
  }

  func testTemporaryNamesCarryPidAndHost() {
    XCTAssertFalse(AtomicWriter.hostTag.isEmpty)
    XCTAssertFalse(AtomicWriter.hostTag.contains("-"))
  }
}
