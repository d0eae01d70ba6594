import Foundation
import TestSupport
import XCTest

/// `run` over a plan in windows of a few sources (`CROPJOB_PLAN_WINDOW`): the same files and
/// manifest as one window, across `--jobs` and shards; a collision between windows found
/// before anything is written.
final class StreamedRunTests: XCTestCase {
  static let job = """
    version: 1
    output: out
    jobs:
      square:
        sources: photos
        guide: {shape: square, size: 48}
        place: {fit: cover}
        outputs:
          - {path: "square/{stem}-{width}.jpg", widths: [24, 48]}
      dot:
        from: square
        guide: {shape: circle, size: 16}
        outputs:
          - {path: "dot/{stem}.png"}

    """

  func testWindowedRunsWriteWhatOneWindowWrites() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["astronaut.jpg", "bridge.jpg", "cat.png", "forest-path.jpg"], copies: 4)
    try s.write(Self.job)
    let whole = try s.run(["run", "-q", "job.yaml", "--output", "whole"])
    XCTAssertEqual(whole.status, 0, whole.stderr)
    let expected = try s.tree("whole").filter { !$0.key.hasPrefix(".cropjob/") }
    XCTAssertEqual(expected.keys.filter { $0.hasPrefix("dot/") }.count, 16)
    for (name, arguments) in [("w1", ["--jobs", "1"]), ("w2", ["--jobs", "2"])] {
      let result = try s.run(
        ["run", "-q", "job.yaml", "--output", name] + arguments, environment: ["CROPJOB_PLAN_WINDOW": "3"])
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertEqual(try s.tree(name).filter { !$0.key.hasPrefix(".cropjob/") }, expected, name)
      // A re-run finds everything up to date and leaves the manifest as it is.
      let again = try s.run(["run", "-q", "job.yaml", "--output", name], environment: ["CROPJOB_PLAN_WINDOW": "5"])
      XCTAssertEqual(again.status, 0, again.stderr)
      XCTAssertEqual(try s.tree(name).filter { !$0.key.hasPrefix(".cropjob/") }, expected, name)
    }
    // Three shards in windows of 2: their outputs together are the whole run's.
    var union: [String: Data] = [:]
    for index in 0..<3 {
      let result = try s.run(
        ["run", "-q", "job.yaml", "--output", "shards", "--shard", "\(index)/3"],
        environment: ["CROPJOB_PLAN_WINDOW": "2"])
      XCTAssertEqual(result.status, 0, result.stderr)
    }
    union = try s.tree("shards").filter { !$0.key.hasPrefix(".cropjob/") && !$0.key.hasPrefix("cropjob-manifest") }
    XCTAssertEqual(union, expected.filter { !$0.key.hasPrefix("cropjob-manifest") })
  }

  func testCollisionBetweenWindowsStopsTheRunBeforeAnythingIsWritten() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["astronaut.jpg", "bridge.jpg", "cat.png", "forest-path.jpg"], copies: 5)
    // photos/sub/1-astronaut.jpg writes square/1-astronaut-24.jpg as photos/1-astronaut.jpg
    // does, ten windows before it.
    try s.copySamples(["astronaut.jpg"], into: "photos/sub")
    try FileManager.default.moveItem(
      atPath: s.path("photos/sub/astronaut.jpg"), toPath: s.path("photos/sub/1-astronaut.jpg"))
    try s.write(Self.job)
    let result = try s.run(["run", "job.yaml"], environment: ["CROPJOB_PLAN_WINDOW": "2"])
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(
      result.stderr.contains(
        "photos/sub/1-astronaut.jpg → square/1-astronaut-24.jpg: path collision: also written by job square from photos/1-astronaut.jpg"
      ),
      result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out")))
    let plan = try s.run(["plan", "job.yaml"], environment: ["CROPJOB_PLAN_WINDOW": "2"])
    XCTAssertEqual(plan.status, 2)
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out")))
  }
}
