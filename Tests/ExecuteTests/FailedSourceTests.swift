import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// A source that fails a run (emptied, truncated: a half-finished upload, a network file
/// system's hiccup) keeps its last good outputs, in-process: neither stale nor pruned, the
/// manifest keeps their rows marked `fromLastGoodRun`, the summary counts them (issue 28.1).
/// (An unreadable source, run as `nobody` when the tests run as root, and the text summary:
/// CLITests' `FailedSourceTests`.)
final class FailedSourceTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]
  /// The outputs of `photos/kite.jpg` in `TestJobs.thumbsAndTiny()`.
  static let kiteOutputs = ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png"]

  func testEmptiedSourceKeepsItsOutputsUnderPrune() throws {
    try check(kept: Self.kiteOutputs) { try Data().write(to: URL(fileURLWithPath: $0)) }
  }

  func testSourceTruncatedInItsHeaderKeepsItsOutputsUnderPrune() throws {
    try check(kept: Self.kiteOutputs) {
      try Data(try Data(contentsOf: URL(fileURLWithPath: $0)).prefix(300)).write(to: URL(fileURLWithPath: $0))
    }
  }

  /// The header reads, the decode fails: the outputs are planned, fail, and keep their files;
  /// the `from:` output made of the kept thumbnail stays up to date.
  func testSourceTruncatedInItsPixelsKeepsItsOutputsUnderPrune() throws {
    try check(kept: Array(Self.kiteOutputs.prefix(3))) {
      try Data(try Data(contentsOf: URL(fileURLWithPath: $0)).prefix(20_000)).write(to: URL(fileURLWithPath: $0))
    }
  }

  private func check(
    kept: [String], file: StaticString = #filePath, line: UInt = #line, name: String = #function,
    damage: (String) throws -> Void
  ) throws {
    let h = try RunHarness(samples: Self.photos, job: TestJobs.thumbsAndTiny(), name: name)
    defer { h.remove() }
    XCTAssertEqual(try h.run().0.failed, 0, file: file, line: line)
    let before = try h.tree("out")
    let source = h.path("photos/kite.jpg")
    try damage(source)

    let (summary, reporter) = try h.run { $0.prune = true }
    XCTAssertGreaterThan(summary.failed, 0, "the run failed", file: file, line: line)
    XCTAssertEqual(reporter.pruned + reporter.stale, [], file: file, line: line)
    let keptEvents = reporter.events.compactMap { event -> String? in
      if case .kept(let path, _) = event { return path } else { return nil }
    }
    XCTAssertEqual(Set(keptEvents), Set(kept), file: file, line: line)
    XCTAssertEqual(summary.kept, kept.count, file: file, line: line)
    XCTAssertEqual(summary.pruned, 0, file: file, line: line)
    XCTAssertEqual(summary.stale, 0, file: file, line: line)
    // Every file is still there, byte for byte.
    XCTAssertEqual(
      try h.tree("out").filter { !$0.key.hasPrefix(".cropjob") && !$0.key.hasPrefix("cropjob-manifest") },
      before.filter { !$0.key.hasPrefix(".cropjob") && !$0.key.hasPrefix("cropjob-manifest") }, file: file, line: line)
    // The manifest lists them, marked, and nothing else marked.
    let marked = try manifest(h).filter { $0["fromLastGoodRun"] as? Bool == true }.compactMap { $0["path"] as? String }
    XCTAssertEqual(Set(marked), Set(kept), file: file, line: line)
    XCTAssertEqual(try manifest(h).count, 3 * Self.photos.count + Self.photos.count, file: file, line: line)

    // The photo comes back: rebuilt, nothing marked any more.
    try FileManager.default.removeItem(atPath: source)
    try h.copySamples(["kite.jpg"])
    let (again, _) = try h.run { $0.prune = true }
    XCTAssertEqual(again.failed, 0, "\(again.failures)", file: file, line: line)
    XCTAssertEqual(try manifest(h).filter { $0["fromLastGoodRun"] != nil }.count, 0, file: file, line: line)
  }

  private func manifest(_ h: RunHarness) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: h.path("out/cropjob-manifest.json")))
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try XCTUnwrap(object["outputs"] as? [[String: Any]])
  }
}
