import CropGeometry
import CropPlan
import CropSpec
import CropStore
import Foundation
import TestSupport
import XCTest

/// "Outputs are recorded in transactions (every 256 outputs or every second)" (README), at the
/// default batch of 256 (no test override), seen by an outside reader: the state file and
/// its write-ahead log are copied while the writer holds them open, and the `sqlite3` command
/// counts the committed rows of the copy (a committed transaction is in the log; one not yet
/// committed is not).
final class StateCommitTimingTests: XCTestCase {
  func entry(_ path: String) -> Manifest.Entry {
    Manifest.Entry(
      path: path, job: "j", key: "k-\(path)", bytes: 10, width: 4, height: 3, sha256: "ab", format: "png", quality: 85,
      encodes: 1, source: Manifest.SourceRecord(path: "s.jpg", sha256: "cd", bytes: 99, mtime: 1_700_000_000),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: 0, y: 0, width: 4, height: 3), scale: 1, angle: 0, centre: Point(x: 2, y: 1.5),
        smartFocus: nil, flip: nil, notes: []))
  }

  /// Rows committed in `root`'s state, as sqlite3 reads a copy of the file and its log.
  func committedRows(_ root: URL) throws -> Int {
    let copy = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: copy) }
    let state = root.appendingPathComponent(".cropjob/state.sqlite3").path
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: state + suffix) {
      try FileManager.default.copyItem(
        atPath: state + suffix, toPath: copy.appendingPathComponent("state.sqlite3" + suffix).path)
    }
    let result = try Subprocess.run(
      "/usr/bin/sqlite3", [copy.appendingPathComponent("state.sqlite3").path, "SELECT count(*) FROM outputs"])
    XCTAssertEqual(result.status, 0, result.stderr)
    return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// Polls until `rows` are committed or `seconds` pass; the count last seen.
  func waitForRows(_ root: URL, _ rows: Int, seconds: Double = 10) throws -> Int {
    let deadline = Date().addingTimeInterval(seconds)
    var seen = try committedRows(root)
    while seen < rows && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.05)
      seen = try committedRows(root)
    }
    return seen
  }

  func testAFewOutputsAreCommittedAfterOneSecond() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
      return XCTFail("/usr/bin/sqlite3 is not installed (scripts/install-deps.sh installs sqlite3)")
    }
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let opened = Date()
    let writer = try StateWriter.open(root: root.path, shard: nil)
    XCTAssertEqual(writer.batchSize, 256)
    writer.record(entry("a.png"))
    // Well within the second: nothing committed yet (checked only when the machine was quick
    // enough for the second not to have passed).
    let early = try committedRows(root)
    if Date().timeIntervalSince(opened) < 0.8 { XCTAssertEqual(early, 0, "committed before 256 outputs or 1 s") }
    // After the second, the next output commits both, with the writer still open.
    Thread.sleep(forTimeInterval: 1.1)
    writer.record(entry("b.png"))
    XCTAssertEqual(try waitForRows(root, 2), 2, "two outputs not committed 1 s after the last commit")
    XCTAssertNil(writer.finish())
  }

  func testTheTwoHundredFiftySixthOutputCommitsTheBatch() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
      return XCTFail("/usr/bin/sqlite3 is not installed (scripts/install-deps.sh installs sqlite3)")
    }
    // The machine may be slow enough for a second to pass before the 256th output is
    // recorded: tried a few times, and asserted on the first attempt within 0.9 s.
    for attempt in 1...5 {
      let root = TestPaths.scratch()
      defer { try? FileManager.default.removeItem(at: root) }
      let opened = Date()
      let writer = try StateWriter.open(root: root.path, shard: nil)
      for i in 0..<255 { writer.record(entry("o\(i).png")) }
      // No commit can start between two records: the batch and the clock are checked when
      // an output is recorded.
      let before = try committedRows(root)
      let quick = Date().timeIntervalSince(opened) < 0.9
      writer.record(entry("o255.png"))
      let after = try waitForRows(root, 256, seconds: 0.5)
      XCTAssertNil(writer.finish())
      guard quick else {
        print("attempt \(attempt): a second passed before the batch was full; again")
        continue
      }
      XCTAssertEqual(before, 0, "committed before the 256th output (attempt \(attempt))")
      XCTAssertEqual(after, 256, "the 256th output did not commit the batch (attempt \(attempt))")
      return
    }
    XCTFail("no attempt recorded 256 outputs within 0.9 s")
  }
}
