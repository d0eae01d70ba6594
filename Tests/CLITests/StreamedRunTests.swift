import Foundation
import TestSupport
import XCTest

/// `run` over a plan in windows of a few sources (`CROPJOB_PLAN_WINDOW`): a collision between
/// windows found before anything is written, exit 2 and the collision named (what windowed
/// runs write is ExecuteTests' `WindowedRunTests`).
final class StreamedRunTests: XCTestCase {
  func testCollisionBetweenWindowsStopsTheRunBeforeAnythingIsWritten() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["astronaut.jpg", "bridge.jpg", "cat.png", "forest-path.jpg"], copies: 5)
    // photos/sub/1-astronaut.jpg writes square/1-astronaut-24.jpg as photos/1-astronaut.jpg
    // does, ten windows before it.
    try s.copySamples(["astronaut.jpg"], into: "photos/sub")
    try FileManager.default.moveItem(
      atPath: s.path("photos/sub/astronaut.jpg"), toPath: s.path("photos/sub/1-astronaut.jpg"))
    try s.write(TestJobs.squaresAndDots)
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
