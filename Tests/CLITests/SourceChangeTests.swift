import Foundation
import TestSupport
import XCTest

/// Change detection that a restored mtime cannot fool (issue 28.2): the state's fingerprint of
/// a source holds size, mtime, ctime, inode and device; any difference hashes the source
/// again, and only a changed content rebuilds; `--verify-sources` hashes every source; a state
/// file of schema 1 keeps working. Hashes are checked against `sha256sum`.
final class SourceChangeTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]

  func scratch(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(Self.photos)
    try s.write(TestJobs.thumbsAndTiny())
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    return s
  }

  /// Rewrites `photos/kite.jpg` in place with other pixels (bridge.jpg's bytes, cut or padded
  /// with zeros to the same size: a JPEG decoder stops at its end marker), then puts its mtime
  /// back: size, mtime and inode are what the state recorded.
  func rewriteKeepingSizeAndTime(_ s: CLIJob) throws {
    let path = s.path("photos/kite.jpg")
    var before = stat()
    XCTAssertEqual(stat(path, &before), 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: s.path("photos/bridge.jpg")))
    XCTAssertLessThan(bytes.count, Int(before.st_size))
    bytes += Data(count: Int(before.st_size) - bytes.count)
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: bytes)
    try handle.close()
    // `touch -r`: the times back to the nanosecond.
    var times = [before.st_atim, before.st_mtim]
    XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
    var after = stat()
    XCTAssertEqual(stat(path, &after), 0)
    XCTAssertEqual(after.st_size, before.st_size)
    XCTAssertEqual(after.st_ino, before.st_ino)
    XCTAssertEqual(after.st_mtim.tv_sec, before.st_mtim.tv_sec)
    XCTAssertEqual(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec)
  }

  func written(_ result: CLIRunner.Result) -> Set<String> {
    Set(
      CLIJob.events(result.stdout).filter { $0["event"] as? String == "wrote" }.compactMap { $0["path"] as? String })
  }

  func sha256sum(_ path: String) throws -> String {
    let result = try Subprocess.run("/usr/bin/sha256sum", [path])
    return String(result.stdout.prefix(64))
  }

  func manifestSourceHashes(_ s: CLIJob) throws -> [String: String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json")))
    let outputs = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["outputs"] as? [[String: Any]])
    var result: [String: String] = [:]
    for entry in outputs {
      let source = try XCTUnwrap(entry["source"] as? [String: Any])
      result[entry["path"] as! String] = source["sha256"] as? String
    }
    return result
  }

  func testRewriteWithRestoredMtimeIsRebuilt() throws {
    let s = try scratch()
    defer { s.remove() }
    try rewriteKeepingSizeAndTime(s)
    let result = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    // kite's three outputs, and the circle made from its 192 px thumbnail.
    XCTAssertEqual(
      written(result), ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png"])
    let hash = try sha256sum(s.path("photos/kite.jpg"))
    XCTAssertEqual(try manifestSourceHashes(s)["thumbs/kite-96.jpg"], hash)
  }

  func testRebuildStateAfterARewriteWithRestoredMtimeRebuilds() throws {
    let s = try scratch()
    defer { s.remove() }
    try rewriteKeepingSizeAndTime(s)
    let result = try s.run(["run", "job.yaml", "--rebuild-state", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      written(result), ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png"])
    XCTAssertEqual(try manifestSourceHashes(s)["webp/kite.webp"], try sha256sum(s.path("photos/kite.jpg")))
  }

  /// A new ctime alone (`chmod`, `touch`) hashes the source again and rebuilds nothing.
  func testSameContentWithANewCtimeRebuildsNothing() throws {
    let s = try scratch()
    defer { s.remove() }
    let state = s.path("out/.cropjob/state.sqlite3")
    func recordedCtime() throws -> Int? {
      try StateOracle.query(state, "SELECT ctime_ns FROM sources WHERE path LIKE '%/photos/kite.jpg'").first?[
        "ctime_ns"]
        as? Int
    }
    let before = try XCTUnwrap(try recordedCtime(), "kite.jpg not recorded in the state")
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: s.path("photos/kite.jpg"))
    var status = stat()
    XCTAssertEqual(stat(s.path("photos/kite.jpg"), &status), 0)
    let ctime = Int(status.st_ctim.tv_sec) * 1_000_000_000 + Int(status.st_ctim.tv_nsec)
    XCTAssertNotEqual(ctime, before, "chmod did not change the ctime")
    let result = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(written(result), [])
    XCTAssertEqual(CLIJob.events(result.stdout).last?["upToDate"] as? Int, 12)
    // Hashed again: the state (read by sqlite3) records the file under its new ctime, which a
    // source whose recorded identity was trusted would not get.
    XCTAssertEqual(try recordedCtime(), ctime, "kite.jpg's new ctime not recorded: the source was not hashed again")
  }

  /// A file system that updates no ctime (or a state edited by hand) is what
  /// `--verify-sources` is for: here the state records the rewritten file's identity with
  /// the old hash; a plain run trusts it, `--verify-sources` hashes and rebuilds.
  func testVerifySourcesHashesEverySource() throws {
    let s = try scratch()
    defer { s.remove() }
    try rewriteKeepingSizeAndTime(s)
    let path = s.path("photos/kite.jpg")
    var status = stat()
    XCTAssertEqual(stat(path, &status), 0)
    let ctime = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    let sql = try Subprocess.run(
      "/usr/bin/sqlite3",
      [
        s.path("out/.cropjob/state.sqlite3"),
        "UPDATE sources SET ctime_ns = \(ctime) WHERE path = '\(path.replacing("'", with: "''"))'",
      ])
    XCTAssertEqual(sql.status, 0, sql.stderr)
    let trusting = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(written(trusting), [], "the state was made to say the file is unchanged")
    let verified = try s.run(["run", "job.yaml", "--verify-sources", "--json"])
    XCTAssertEqual(verified.status, 0, verified.stderr)
    XCTAssertEqual(
      written(verified), ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png"])
    XCTAssertEqual(try manifestSourceHashes(s)["thumbs/kite-192.jpg"], try sha256sum(path))
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
