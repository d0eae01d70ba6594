import Foundation
import TestSupport
import XCTest

/// `plan` and `run` read the state a window at a time (`StateReader`, docs/scale.md): in
/// windows of 3 sources, over outputs recorded in the main file and in shard files, they
/// answer what one window answers — the same up-to-date outputs, stale outputs, manifest.
final class WindowedStateTests: XCTestCase {
  /// The job of `StreamedRunTests`: a `from:` job reads the first job's outputs.
  static let job = StreamedRunTests.job

  static let samples = ["astronaut.jpg", "bridge.jpg", "cat.png", "forest-path.jpg"]

  /// Runs `arguments` in windows of `window` sources (nil: one window per job).
  func run(_ s: CLIJob, _ arguments: [String], window: Int?) throws -> CLIRunner.Result {
    try s.run(arguments, environment: window.map { ["CROPJOB_PLAN_WINDOW": "\($0)"] } ?? [:])
  }

  /// The finished event of a `--json` run.
  func finished(_ result: CLIRunner.Result) throws -> [String: Any] {
    try XCTUnwrap(CLIJob.events(result.stdout).last, result.stderr)
  }

  /// Half the photos recorded by an unsharded run (main file), the other half by two shards
  /// (their own files, the main file read but not folded).
  func spreadState(_ s: CLIJob) throws {
    try s.copySamples(Self.samples, copies: 2)
    try s.write(Self.job)
    let names = try FileManager.default.contentsOfDirectory(atPath: s.path("photos")).sorted()
    let later = s.path("later")
    try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
    for name in names where name.hasPrefix("2-") {
      try FileManager.default.moveItem(atPath: s.path("photos/\(name)"), toPath: later + "/" + name)
    }
    XCTAssertEqual(try run(s, ["run", "-q", "job.yaml"], window: 3).status, 0)
    for name in names where name.hasPrefix("2-") {
      try FileManager.default.moveItem(atPath: later + "/" + name, toPath: s.path("photos/\(name)"))
    }
    for index in 0..<2 {
      let shard = try run(s, ["run", "--json", "job.yaml", "--shard", "\(index)/2"], window: 3)
      XCTAssertEqual(shard.status, 0, shard.stderr)
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: s.path("out/.cropjob")).filter { $0.hasSuffix(".sqlite3") }
        .sorted(),
      ["state.shard-0-of-2.sqlite3", "state.shard-1-of-2.sqlite3", "state.sqlite3"])
  }

  func testAWindowedReRunOverShardFilesAndTheMainFileFindsEverythingUpToDate() throws {
    let s = CLIJob()
    defer { s.remove() }
    try spreadState(s)
    // 8 photos: 16 square outputs and 8 dots.
    let whole = try run(s, ["plan", "job.yaml"], window: nil)
    XCTAssertEqual(whole.status, 0, whole.stderr)
    XCTAssertTrue(whole.stdout.contains("16 outputs (16 up to date)"), whole.stdout)
    XCTAssertTrue(whole.stdout.contains("8 outputs (8 up to date)"), whole.stdout)
    for format in ["text", "json"] {
      let one = try run(s, ["plan", "job.yaml", "--format", format], window: nil)
      let windowed = try run(s, ["plan", "job.yaml", "--format", format], window: 3)
      XCTAssertEqual(windowed.status, 0, windowed.stderr)
      XCTAssertEqual(windowed.stdout, one.stdout, format)
    }
    for index in 0..<2 {
      let again = try run(s, ["run", "--json", "job.yaml", "--shard", "\(index)/2"], window: 3)
      XCTAssertEqual(try finished(again)["written"] as? Int, 0, again.stdout)
    }
    let unsharded = try run(s, ["run", "--json", "job.yaml"], window: 3)
    let summary = try finished(unsharded)
    XCTAssertEqual(summary["written"] as? Int, 0, unsharded.stdout)
    XCTAssertEqual(summary["upToDate"] as? Int, 24, unsharded.stdout)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: s.path("out/.cropjob")), ["state.sqlite3"])
  }

  /// The first pass finds windows all up to date and the second does not plan them again;
  /// a `from:` job's window is not taken as up to date while its upstream job is rebuilt.
  func testAnUpstreamRebuiltRebuildsItsDownstreamWindows() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(Self.samples, copies: 2)
    try s.write(Self.job)
    XCTAssertEqual(try run(s, ["run", "-q", "job.yaml"], window: 3).status, 0)
    let noOp = try run(s, ["run", "--json", "job.yaml"], window: 3)
    let events = CLIJob.events(noOp.stdout)
    XCTAssertEqual(events.filter { $0["event"] as? String == "up-to-date" }.count, 24, noOp.stdout)
    XCTAssertEqual(try finished(noOp)["upToDate"] as? Int, 24)
    // The upstream's 48-pixel outputs change (a sharper encoding): the dots read them.
    let changed = Self.job.replacing(
      "widths: [24, 48]}", with: "widths: [24, 48], encode: {quality: 95}}")
    try s.write(changed)
    let rebuilt = try run(s, ["run", "--json", "job.yaml"], window: 3)
    XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
    let written = CLIJob.events(rebuilt.stdout).filter { $0["event"] as? String == "wrote" }.compactMap {
      $0["path"] as? String
    }
    XCTAssertEqual(written.filter { $0.hasPrefix("dot/") }.count, 8, rebuilt.stdout)
    // What a fresh run of the changed job writes.
    let fresh = try run(s, ["run", "-q", "job.yaml", "--output", "fresh"], window: nil)
    XCTAssertEqual(fresh.status, 0, fresh.stderr)
    let expected = try s.tree("fresh").filter { !$0.key.hasPrefix(".cropjob/") && !$0.key.hasPrefix("cropjob-") }
    XCTAssertEqual(
      try s.tree("out").filter { !$0.key.hasPrefix(".cropjob/") && !$0.key.hasPrefix("cropjob-") }, expected)
  }

  func testStaleOutputsAcrossWindowsAreFoundInPathOrderAndPruned() throws {
    var manifests: [String] = []
    var staleEvents: [[String]] = []
    for window in [nil, 3] {
      let s = CLIJob()
      defer { s.remove() }
      try spreadState(s)
      // The 48-pixel outputs are no longer made, nor the dots made from them: 16 stale
      // outputs, over windows and files.
      try s.write(Self.job.replacing("widths: [24, 48]", with: "widths: [24]"))
      let stale = try run(s, ["run", "--json", "job.yaml"], window: window)
      XCTAssertEqual(stale.status, 0, stale.stderr)
      let events = CLIJob.events(stale.stdout)
      let paths = events.filter { $0["event"] as? String == "stale" }.compactMap { $0["path"] as? String }
      XCTAssertEqual(paths.count, 16, stale.stdout)
      XCTAssertEqual(paths, paths.sorted())
      XCTAssertTrue(paths.allSatisfy { $0.contains("-48.") }, "\(paths)")
      staleEvents.append(paths)
      let manifest = try String(contentsOfFile: s.path("out/cropjob-manifest.json"), encoding: .utf8)
      for path in paths { XCTAssertTrue(manifest.contains("\"\(path)\""), path) }
      let pruned = try run(s, ["run", "--json", "--prune", "job.yaml"], window: window)
      XCTAssertEqual(try finished(pruned)["pruned"] as? Int, 16, pruned.stdout)
      for path in paths { XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out/" + path)), path) }
      let after = try run(s, ["run", "--json", "job.yaml"], window: window)
      XCTAssertEqual(try finished(after)["stale"] as? Int, 0, after.stdout)
      manifests.append(
        try String(contentsOfFile: s.path("out/cropjob-manifest.json"), encoding: .utf8)
          .split(separator: "\n").filter { !$0.contains("\"mtime\"") && !$0.contains("\"libvips\"") }
          .joined(separator: "\n"))
    }
    XCTAssertEqual(staleEvents[0], staleEvents[1])
    XCTAssertEqual(manifests[0], manifests[1])
  }
}
