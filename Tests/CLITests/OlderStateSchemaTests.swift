import Foundation
import TestSupport
import XCTest

/// A state file of an older schema keeps working through the binary: `plan` and `manifest`
/// read it as it is, `run` migrates it and rebuilds nothing (checked with `sqlite3`). What
/// changes of a source rebuild (issue 28.2) is ExecuteTests' `SourceChangeTests`.
final class OlderStateSchemaTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]

  func scratch(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(Self.photos)
    try s.write(TestJobs.thumbsAndTiny())
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    return s
  }

  func written(_ result: CLIRunner.Result) -> Set<String> {
    Set(
      CLIJob.events(result.stdout).filter { $0["event"] as? String == "wrote" }.compactMap { $0["path"] as? String })
  }

  /// A state file of schema 1 (as cropjob wrote it before ctime and device were recorded):
  /// `plan` reads it, `run` migrates it, hashes each source once and rebuilds nothing.
  func testStateOfSchemaOneKeepsWorking() throws {
    let s = try scratch()
    defer { s.remove() }
    let state = s.path("out/.cropjob/state.sqlite3")
    let downgrade = try Subprocess.run(
      "/usr/bin/sqlite3",
      [
        state,
        "ALTER TABLE sources DROP COLUMN ctime_ns; ALTER TABLE sources DROP COLUMN device; "
          + "ALTER TABLE outputs DROP COLUMN placeholders; ALTER TABLE outputs DROP COLUMN ssim; "
          + "ALTER TABLE outputs DROP COLUMN frames; PRAGMA user_version = 1;",
      ])
    XCTAssertEqual(downgrade.status, 0, downgrade.stderr)
    let plan = try s.run(["plan", "job.yaml", "--format", "json"])
    XCTAssertEqual(plan.status, 0, plan.stderr)
    let result = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(written(result), [])
    XCTAssertEqual(CLIJob.events(result.stdout).last?["upToDate"] as? Int, 12)
    let version = try Subprocess.run("/usr/bin/sqlite3", [state, "PRAGMA user_version"])
    XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "5")
    let rows = try Subprocess.run("/usr/bin/sqlite3", [state, "SELECT count(*) FROM sources WHERE ctime_ns > 0"])
    XCTAssertEqual(rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "3")
  }

  /// A state file of schema 2 (before placeholders), 3 (before `ssim`, issue 27.3) or 4 (before
  /// `frames`, issue 27.4): `plan` and `manifest` (every format) read it as it is, `run`
  /// migrates it to the current version and rebuilds nothing.
  func testStateOfSchemaTwoKeepsWorking() throws {
    try stateOfOlderSchemaKeepsWorking(
      version: 2,
      "ALTER TABLE outputs DROP COLUMN placeholders; ALTER TABLE outputs DROP COLUMN ssim; "
        + "ALTER TABLE outputs DROP COLUMN frames;")
  }

  func testStateOfSchemaThreeKeepsWorking() throws {
    try stateOfOlderSchemaKeepsWorking(
      version: 3, "ALTER TABLE outputs DROP COLUMN ssim; ALTER TABLE outputs DROP COLUMN frames;")
  }

  func testStateOfSchemaFourKeepsWorking() throws {
    try stateOfOlderSchemaKeepsWorking(version: 4, "ALTER TABLE outputs DROP COLUMN frames;")
  }

  func stateOfOlderSchemaKeepsWorking(version old: Int, _ drop: String, name: String = #function) throws {
    let s = try scratch(name)
    defer { s.remove() }
    let state = s.path("out/.cropjob/state.sqlite3")
    let downgrade = try Subprocess.run("/usr/bin/sqlite3", [state, "\(drop) PRAGMA user_version = \(old);"])
    XCTAssertEqual(downgrade.status, 0, downgrade.stderr)
    let plan = try s.run(["plan", "job.yaml", "--format", "json"])
    XCTAssertEqual(plan.status, 0, plan.stderr)
    for format in ["json", "jsonl", "csv"] {
      let manifest = try s.run(["manifest", "job.yaml", "--format", format])
      XCTAssertEqual(manifest.status, 0, "\(format): \(manifest.stderr)")
      XCTAssertTrue(manifest.stdout.contains("thumbs/kite-96.jpg"), "\(format): \(manifest.stdout)")
    }
    let result = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(written(result), [])
    let version = try Subprocess.run("/usr/bin/sqlite3", [state, "PRAGMA user_version"])
    XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "5")
  }
}
