import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// A source deleted (or replaced by something else) after the plan was made fails alone,
/// naming the path; the other sources' outputs are written and nothing partial is left
/// (docs/reliability.md). In-process: the plan is made, the photos changed, then the run.
final class SourceChangedBetweenPassesTests: XCTestCase {
  func testSourceDeletedOrReplacedBetweenPlanAndRun() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg", "cat.png", "bridge.jpg", "coffee-alpha.png"],
      job: """
        version: 1
        output: out
        jobs:
          t:
            sources: ["photos/*"]
            guide: {shape: square, size: 96}
            outputs:
              - path: "{stem}.jpg"
        """)
    defer { harness.remove() }
    let file = try harness.load()
    let plan = try JobPlan.planned(file, planner: Planner())
    XCTAssertTrue(plan.stream.isRunnable)
    let deleted = harness.folder.appendingPathComponent("photos/kite.jpg").path
    let replaced = harness.folder.appendingPathComponent("photos/cat.png").path
    try FileManager.default.removeItem(atPath: deleted)
    try FileManager.default.removeItem(atPath: replaced)
    try FileManager.default.copyItem(atPath: TestPaths.sample("mountains.jpg"), toPath: replaced)
    var options = RunOptions()
    options.jobs = 2
    let summary = JobRun(file, options: options).execute(plan, reporter: JobRunner.Silent())
    XCTAssertEqual(summary.written, 2)
    XCTAssertEqual(summary.failed, 2)
    let reasons = Dictionary(summary.failures.map { ($0.source, $0.reason) }, uniquingKeysWith: { a, _ in a })
    XCTAssertTrue(reasons["photos/kite.jpg"]?.lowercased().contains("no such file") ?? false, "\(reasons)")
    XCTAssertTrue(reasons["photos/cat.png"]?.contains("changed since it was planned") ?? false, "\(reasons)")
    // Both are the source's failures (`CropError.source`, naming it), not their outputs'.
    let sources = summary.failures.compactMap { failure -> String? in
      guard case .source(let path, _) = failure.error else { return nil }
      return path
    }
    XCTAssertEqual(Set(sources), ["photos/kite.jpg", "photos/cat.png"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: harness.outputRoot + "/kite.jpg"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: harness.outputRoot + "/cat.jpg"))
    let left = try FileManager.default.subpathsOfDirectory(atPath: harness.outputRoot)
    XCTAssertFalse(left.contains { PathText.lastComponent($0).hasPrefix(AtomicWriter.temporaryPrefix) }, "\(left)")
  }
}
