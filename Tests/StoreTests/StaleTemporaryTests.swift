import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation
import TestSupport
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

  /// The temporary name the writer really uses (seen with inotify while it replaces a file)
  /// is `<prefix><pid>-<host tag>-<random>` with this process's pid and this host's tag, the
  /// FNV-1a hash of the host name, the same in every process on the host: what
  /// `removeStaleTemporaries` reads back. A file of that name is kept while its writer lives
  /// and removed once the pid in it is gone.
  func testTemporaryNamesCarryPidAndHost() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.jpg").path
    // A new file is linked straight under its name; one that replaces a file goes through a
    // temporary name, renamed over it.
    try AtomicWriter.write(Array("old".utf8), to: path, durable: false)
    let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    XCTAssertGreaterThanOrEqual(watch, 0, "inotify_init1: \(String(cString: strerror(errno)))")
    defer { close(watch) }
    XCTAssertGreaterThanOrEqual(inotify_add_watch(watch, folder.path, UInt32(IN_MOVED_FROM)), 0)
    try AtomicWriter.write(Array("new".utf8), to: path, durable: false)
    let renamed = Self.eventNames(watch)
    XCTAssertEqual(renamed.count, 1, "\(renamed)")
    let name = try XCTUnwrap(renamed.first)
    XCTAssertTrue(name.hasPrefix(AtomicWriter.temporaryPrefix), name)
    let fields = name.dropFirst(AtomicWriter.temporaryPrefix.count).split(separator: "-").map(String.init)
    XCTAssertEqual(fields.count, 3, name)
    guard fields.count == 3 else { return }
    XCTAssertEqual(fields[0], String(getpid()), "pid in \(name)")
    XCTAssertEqual(fields[1], Self.hostNameHash(), "host tag in \(name)")
    XCTAssertEqual(AtomicWriter.hostTag, Self.hostNameHash())

    // The remover reads the same fields back.
    let other = folder.appendingPathComponent("other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    let gone = "\(AtomicWriter.temporaryPrefix)\(try deadPID())-\(fields[1])-\(fields[2])"
    for leftover in [name, gone] { try Data("x".utf8).write(to: other.appendingPathComponent(leftover)) }
    AtomicWriter.removeStaleTemporaries(in: other.path)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other.path), [name])
  }

  /// The names in the inotify events waiting on `watch` (non-blocking).
  static func eventNames(_ watch: Int32) -> [String] {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
    var names: [String] = []
    var offset = 0
    // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
    let header = 16
    while count > 0, offset + header <= count {
      let length = buffer[(offset + 12)..<(offset + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
      let name = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
      names.append(String(decoding: name, as: UTF8.self))
      offset += header + length
    }
    return names
  }

  /// FNV-1a (32 bits, hex) of gethostname(2)'s answer.
  static func hostNameHash() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    XCTAssertEqual(gethostname(&buffer, buffer.count - 1), 0)
    var hash: UInt32 = 0x811c_9dc5
    for byte in buffer.prefix(while: { $0 != 0 }) {
      hash = (hash ^ UInt32(UInt8(bitPattern: byte))) &* 0x0100_0193
    }
    return String(hash, radix: 16)
  }
}
