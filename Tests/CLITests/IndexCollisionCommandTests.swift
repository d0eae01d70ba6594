import Foundation
import TestSupport
import XCTest

/// Issue 40, point 7: two jobs writing one index file are refused by `validate` and `plan`
/// (exit 2), as by `run`, not only when `run` reaches the index.
final class IndexCollisionCommandTests: XCTestCase {
  func write(_ job: String) throws -> URL {
    let folder = TestPaths.scratch()
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for name in ["kite.jpg", "bridge.jpg"] {
      try FileManager.default.copyItem(atPath: TestPaths.sample(name), toPath: photos.appendingPathComponent(name).path)
    }
    try job.write(to: folder.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
    return folder
  }

  func twoJobs(index: String, sourcesB: String = "photos/bridge.jpg") -> String {
    """
    version: 1
    output: out
    jobs:
      a:
        sources: ["photos/kite.jpg"]
        guide: {aspect: "16:9", width: 320}
        index: {path: "\(index)"}
        outputs: [{path: "a/{stem}.jpg"}]
      b:
        sources: ["\(sourcesB)"]
        guide: {aspect: "16:9", width: 320}
        index: {path: "\(index)"}
        outputs: [{path: "b/{stem}.jpg"}]
    """
  }

  /// One batch index path in two jobs: `validate` knows it from the file alone.
  func testValidateAndPlanRefuseTwoJobsWritingOneBatchIndex() throws {
    let folder = try write(twoJobs(index: "index.html"))
    defer { try? FileManager.default.removeItem(at: folder) }
    let validate = try CLIRunner.run(["validate", "job.yaml"], cwd: folder)
    XCTAssertEqual(validate.status, 2, validate.stdout + validate.stderr)
    let said = validate.stdout + validate.stderr
    XCTAssertTrue(said.contains("job.yaml:12:19: error: jobs.b.index.path"), said)
    XCTAssertTrue(said.contains("\"index.html\", which job a writes too"), said)
    let plan = try CLIRunner.run(["plan", "job.yaml"], cwd: folder)
    XCTAssertEqual(plan.status, 2, plan.stdout + plan.stderr)
    XCTAssertFalse(plan.stdout.contains("Runnable."), plan.stdout)
  }

  /// A per-source index path in two jobs that read the same photo: only the plan knows.
  func testPlanRefusesTwoJobsWhosePerSourceIndexesMeet() throws {
    let folder = try write(twoJobs(index: "pages/{stem}.html", sourcesB: "photos/kite.jpg"))
    defer { try? FileManager.default.removeItem(at: folder) }
    let validate = try CLIRunner.run(["validate", "job.yaml"], cwd: folder)
    XCTAssertEqual(validate.status, 0, validate.stdout + validate.stderr)
    let plan = try CLIRunner.run(["plan", "job.yaml"], cwd: folder)
    XCTAssertEqual(plan.status, 2, plan.stdout + plan.stderr)
    XCTAssertTrue(
      (plan.stdout + plan.stderr).contains("the jobs a, b write the same index file"), plan.stdout + plan.stderr)
    XCTAssertFalse(plan.stdout.contains("Runnable."), plan.stdout)
    // Different photos: different files, no problem.
    let apart = try write(twoJobs(index: "pages/{stem}.html"))
    defer { try? FileManager.default.removeItem(at: apart) }
    XCTAssertEqual(try CLIRunner.run(["plan", "job.yaml"], cwd: apart).status, 0)
  }
}
