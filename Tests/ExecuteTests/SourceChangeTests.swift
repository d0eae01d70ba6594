import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Change detection that a restored mtime cannot fool (issue 28.2), in-process: the state's
/// fingerprint of a source holds size, mtime, ctime, inode and device; any difference hashes
/// the source again, and only a changed content rebuilds; `verifySources` (`--verify-sources`)
/// hashes every source. Hashes are checked against `sha256sum`, the state with `sqlite3`.
/// (A state file of an older schema read by `plan`, `manifest` and `run`: CLITests'
/// `OlderStateSchemaTests`.)
final class SourceChangeTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]
  /// kite's three outputs, and the circle made from its 192 px thumbnail.
  static let kiteOutputs: Set<String> = [
    "thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png",
  ]

  func scratch(_ name: String = #function) throws -> RunHarness {
    let h = try RunHarness(samples: Self.photos, job: TestJobs.thumbsAndTiny(), name: name)
    XCTAssertEqual(try h.run().0.failed, 0)
    return h
  }

  func path(_ h: RunHarness, _ relative: String) -> String { h.folder.appendingPathComponent(relative).path }

  /// Rewrites `photos/kite.jpg` in place with other pixels (bridge.jpg's bytes, cut or padded
  /// with zeros to the same size: a JPEG decoder stops at its end marker), then puts its mtime
  /// back: size, mtime and inode are what the state recorded.
  func rewriteKeepingSizeAndTime(_ h: RunHarness) throws {
    let path = path(h, "photos/kite.jpg")
    var before = stat()
    XCTAssertEqual(stat(path, &before), 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: self.path(h, "photos/bridge.jpg")))
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

  func sha256sum(_ path: String) throws -> String {
    let result = try Subprocess.run("/usr/bin/sha256sum", [path])
    return String(result.stdout.prefix(64))
  }

  func manifestSourceHashes(_ h: RunHarness) throws -> [String: String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path(h, "out/cropjob-manifest.json")))
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
    let h = try scratch()
    defer { h.remove() }
    try rewriteKeepingSizeAndTime(h)
    let (summary, reporter) = try h.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    XCTAssertEqual(Set(reporter.written), Self.kiteOutputs)
    let hash = try sha256sum(path(h, "photos/kite.jpg"))
    XCTAssertEqual(try manifestSourceHashes(h)["thumbs/kite-96.jpg"], hash)
  }

  func testRebuildStateAfterARewriteWithRestoredMtimeRebuilds() throws {
    let h = try scratch()
    defer { h.remove() }
    try rewriteKeepingSizeAndTime(h)
    let (summary, reporter) = try h.run(rebuildState: true)
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    XCTAssertEqual(Set(reporter.written), Self.kiteOutputs)
    XCTAssertEqual(try manifestSourceHashes(h)["webp/kite.webp"], try sha256sum(path(h, "photos/kite.jpg")))
  }

  /// A new ctime alone (`chmod`, `touch`) hashes the source again and rebuilds nothing.
  func testSameContentWithANewCtimeRebuildsNothing() throws {
    let h = try scratch()
    defer { h.remove() }
    let state = path(h, "out/.cropjob/state.sqlite3")
    func recordedCtime() throws -> Int? {
      try StateOracle.query(state, "SELECT ctime_ns FROM sources WHERE path LIKE '%/photos/kite.jpg'").first?[
        "ctime_ns"]
        as? Int
    }
    let before = try XCTUnwrap(try recordedCtime(), "kite.jpg not recorded in the state")
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path(h, "photos/kite.jpg"))
    var status = stat()
    XCTAssertEqual(stat(path(h, "photos/kite.jpg"), &status), 0)
    let ctime = Int(status.st_ctim.tv_sec) * 1_000_000_000 + Int(status.st_ctim.tv_nsec)
    XCTAssertNotEqual(ctime, before, "chmod did not change the ctime")
    let (summary, reporter) = try h.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    XCTAssertEqual(reporter.written, [])
    XCTAssertEqual(summary.upToDate, 12)
    // Hashed again: the state (read by sqlite3) records the file under its new ctime, which a
    // source whose recorded identity was trusted would not get.
    XCTAssertEqual(try recordedCtime(), ctime, "kite.jpg's new ctime not recorded: the source was not hashed again")
  }

  /// A file system that updates no ctime (or a state edited by hand) is what
  /// `--verify-sources` is for: here the state records the rewritten file's identity with
  /// the old hash; a plain run trusts it, `verifySources` hashes and rebuilds.
  func testVerifySourcesHashesEverySource() throws {
    let h = try scratch()
    defer { h.remove() }
    try rewriteKeepingSizeAndTime(h)
    let path = path(h, "photos/kite.jpg")
    var status = stat()
    XCTAssertEqual(stat(path, &status), 0)
    let ctime = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    let sql = try Subprocess.run(
      "/usr/bin/sqlite3",
      [
        self.path(h, "out/.cropjob/state.sqlite3"),
        "UPDATE sources SET ctime_ns = \(ctime) WHERE path = '\(path.replacing("'", with: "''"))'",
      ])
    XCTAssertEqual(sql.status, 0, sql.stderr)
    let (_, trusting) = try h.run()
    XCTAssertEqual(trusting.written, [], "the state was made to say the file is unchanged")
    let (verified, reporter) = try h.run(verifySources: true)
    XCTAssertEqual(verified.failed, 0, "\(verified.failures)")
    XCTAssertEqual(Set(reporter.written), Self.kiteOutputs)
    XCTAssertEqual(try manifestSourceHashes(h)["thumbs/kite-192.jpg"], try sha256sum(path))
  }
}
