import CropStore
import CropSupport
import Foundation
import TestSupport
import XCTest

/// The state object's Zstandard streams, against the `zstd` tool (Debian `zstd`, an
/// independent encoder and decoder): a file of several chunks compressed by cropjob is what
/// `zstd -d` gives back, one compressed by `zstd` is what cropjob writes out, and bytes that
/// are not one whole frame leave no file behind.
final class StateCompressionTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-zstd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  /// 3.5 chunks of bytes that compress a little (text rows) and some that do not (noise).
  private func stateLikeBytes() -> Data {
    var bytes = Data()
    var seed: UInt64 = 0x9e37_79b9_7f4a_7c15
    var row = 0
    while bytes.count < StateCompression.chunk * 7 / 2 {
      bytes.append(contentsOf: Array("out/d\(row / 1000)/p\(row).jpg|".utf8))
      for _ in 0..<16 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
      }
      row += 1
    }
    return bytes
  }

  /// `AtomicWriter`'s temporary files left in the folder.
  private func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix(AtomicWriter.temporaryPrefix)
    }
  }

  private func zstd(_ arguments: [String]) throws {
    let result = try Subprocess.run("/usr/bin/zstd", arguments)
    XCTAssertEqual(result.status, 0, result.stderr)
  }

  func testCompressedFileIsWhatTheZstdToolDecodes() throws {
    let original = stateLikeBytes()
    let file = folder.appendingPathComponent("state.sqlite3")
    try original.write(to: file)
    let compressed = try XCTUnwrap(StateCompression.compress(file: file.path))
    XCTAssertLessThan(compressed.count, original.count)
    let object = folder.appendingPathComponent("state.sqlite3.zst")
    try Data(compressed).write(to: object)
    let decoded = folder.appendingPathComponent("decoded")
    try zstd(["-q", "-d", object.path, "-o", decoded.path])
    XCTAssertEqual(try Data(contentsOf: decoded), original)
    // One frame with its content size and a checksum, as `zstd -lv` reads it.
    let listing = try Subprocess.run("/usr/bin/zstd", ["-lv", object.path]).stdout
    XCTAssertTrue(listing.contains("Decompressed Size: 3.50 MiB"), listing)
    XCTAssertTrue(listing.contains("Check: XXH64"), listing)
  }

  func testWhatTheZstdToolCompressedIsWrittenOutWhole() throws {
    let original = stateLikeBytes()
    let file = folder.appendingPathComponent("original")
    try original.write(to: file)
    // Without a checksum, as objects were written before 2026-12-07, and with one.
    for check in ["--no-check", "--check"] {
      let object = folder.appendingPathComponent("object\(check).zst")
      try zstd(["-q", "-1", check, file.path, "-o", object.path])
      let compressed = [UInt8](try Data(contentsOf: object))
      let target = folder.appendingPathComponent("state.sqlite3")
      try Data("an older state".utf8).write(to: target)
      try StateCompression.decompress(compressed, toFile: target.path)
      XCTAssertEqual(try Data(contentsOf: target), original, check)
    }
    XCTAssertEqual(try leftovers(), [])
  }

  func testBytesThatAreNotOneWholeFrameLeaveNoFile() throws {
    let file = folder.appendingPathComponent("original")
    try stateLikeBytes().write(to: file)
    let compressed = try XCTUnwrap(StateCompression.compress(file: file.path))
    let cases: [(String, [UInt8])] = [
      ("cut short", Array(compressed.prefix(compressed.count - 100))),
      ("trailing bytes", compressed + [1, 2, 3]),
      ("not zstd", Array("SQLite format 3\0".utf8)),
      ("empty", []),
    ]
    for (name, bytes) in cases {
      let target = folder.appendingPathComponent("state-\(name).sqlite3")
      XCTAssertThrowsError(try StateCompression.decompress(bytes, toFile: target.path), name) { error in
        guard case .notAFrame = error as? StateCompression.Failure else {
          return XCTFail("\(name): \(error)")
        }
      }
      XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), name)
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["original"])
  }
}
