import CropKit
import Foundation
import TestSupport
import XCTest

/// `state merge` and `manifest` after a shard that never ran or did not finish: they list
/// those shards and refuse (exit 1, nothing merged or exported) unless `--allow-partial`.
final class PartialShardTests: XCTestCase {
  func scratch(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(["kite.jpg", "cat.png", "bridge.jpg", "astronaut.jpg", "nuthatch.jpg", "ladybird.jpg"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*"]
          guide: {shape: square, size: 48}
          outputs: [{path: "{stem}.jpg"}]
      """)
    return s
  }

  func testAMissingShardIsListedAndNothingIsMergedOrExported() throws {
    let s = try scratch()
    defer { s.remove() }
    for index in [0, 1, 3] {
      XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--shard", "\(index)/4"]).status, 0)
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: s.path("out/.cropjob")).sorted()
    for command in [["state", "merge", "job.yaml"], ["manifest", "job.yaml", "--format", "csv"]] {
      let refused = try s.run(command)
      XCTAssertEqual(refused.status, 1, "\(command): \(refused.stderr)")
      XCTAssertEqual(refused.stdout, "", "\(command)")
      XCTAssertTrue(
        refused.stderr.contains(
          "cropjob: error: shard 2/4: missing (no .cropjob/state.shard-2-of-4.sqlite3: it never ran here)"),
        refused.stderr)
      XCTAssertEqual(refused.stderr.components(separatedBy: "error: shard").count - 1, 1, refused.stderr)
      XCTAssertTrue(refused.stderr.contains("--allow-partial"), refused.stderr)
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: s.path("out/.cropjob")).sorted(), files)
    }
    let csv = try s.run(["manifest", "job.yaml", "--format", "csv", "--allow-partial"])
    XCTAssertEqual(csv.status, 0, csv.stderr)
    XCTAssertTrue(csv.stderr.contains("warning: shard 2/4: missing"), csv.stderr)
    XCTAssertFalse(csv.stdout.isEmpty)
    let merged = try s.run(["state", "merge", "job.yaml", "--allow-partial"])
    XCTAssertEqual(merged.status, 0, merged.stderr)
    XCTAssertTrue(merged.stderr.contains("warning: shard 2/4: missing"), merged.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: s.path("out/.cropjob")), ["state.sqlite3"])
  }

  /// A shard with a failed output, and one whose run never finished (killed: the status it
  /// recorded when it opened its state is still there), are incomplete; once they are run
  /// again successfully, the merge goes through.
  func testFailedAndUnfinishedShardsAreIncompleteUntilRunAgain() throws {
    let s = try scratch()
    defer { s.remove() }
    // A damaged photo, in the shard its path hashes to.
    let broken = "photos/broken.jpg"
    try Data("not a photo".utf8).write(to: URL(fileURLWithPath: s.path(broken)))
    let failing = Shard.index(of: broken, count: 3)
    let killed = (failing + 1) % 3
    for index in 0..<3 {
      let run = try s.run(["run", "job.yaml", "-q", "--shard", "\(index)/3"])
      XCTAssertEqual(run.status, index == failing ? 1 : 0, run.stderr)
    }
    try tool(
      "/usr/bin/sqlite3",
      [
        s.path("out/.cropjob/state.shard-\(killed)-of-3.sqlite3"),
        "UPDATE meta SET value = 'running' WHERE name = 'run'",
      ])
    let refused = try s.run(["state", "merge", "job.yaml"])
    XCTAssertEqual(refused.status, 1, refused.stderr)
    XCTAssertTrue(
      refused.stderr.contains("shard \(failing)/3: incomplete (failed: 1 output failed)"), refused.stderr)
    XCTAssertTrue(
      refused.stderr.contains("shard \(killed)/3: incomplete (its run did not finish: killed, or still running)"),
      refused.stderr)
    // The damaged photo replaced, both shards run again: the batch is whole.
    try FileManager.default.removeItem(atPath: s.path(broken))
    try FileManager.default.copyItem(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples/kite.jpg").path, toPath: s.path(broken))
    for index in [failing, killed] {
      XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--shard", "\(index)/3"]).status, 0)
    }
    let merged = try s.run(["state", "merge", "job.yaml"])
    XCTAssertEqual(merged.status, 0, merged.stderr)
    XCTAssertEqual(merged.stderr, "")
  }
}
