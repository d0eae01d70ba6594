import Foundation
import TestSupport
import XCTest

/// Issue 40, point 7: `jobs/web.yaml` reads only `samples/` (its animated sources were
/// `../Tests/Fixtures/animated`), so jobs/ and samples/ copied elsewhere together plan whole.
final class WebJobCopyTests: XCTestCase {
  func testWebJobPlansWhenCopiedWithSamples() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("jobs"), withIntermediateDirectories: true)
    try manager.copyItem(at: TestPaths.samples, to: folder.appendingPathComponent("samples"))
    try manager.copyItem(
      at: TestPaths.jobs.appendingPathComponent("web.yaml"), to: folder.appendingPathComponent("jobs/web.yaml"))
    let plan = try CLIRunner.run(["plan", "jobs/web.yaml"], cwd: folder)
    XCTAssertEqual(plan.status, 0, plan.stdout + plan.stderr)
    XCTAssertTrue(plan.stdout.contains("Runnable."), plan.stdout)
    XCTAssertTrue(plan.stdout.contains("Issues: 0 errors"), plan.stdout + plan.stderr)
  }
}
