import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Runs over a plan in windows of a few sources (`JobRun.window`, the binary's
/// `CROPJOB_PLAN_WINDOW`), in-process: the same files and manifest as one window, across
/// workers and shards; and the state read a window at a time (`StateReader`, docs/scale.md):
/// over outputs recorded in the main file and in shard files, windows of 3 sources answer what
/// one window answers — the same up-to-date outputs, stale outputs, manifest.
final class WindowedRunTests: XCTestCase {
  static let job = TestJobs.squaresAndDots

  static let samples = ["astronaut.jpg", "bridge.jpg", "cat.png", "forest-path.jpg"]

  func harness(copies: Int, name: String = #function) throws -> RunHarness {
    let h = try RunHarness(samples: [], job: Self.job, name: name)
    if copies > 0 { try h.copySamples(Self.samples, copies: copies) }
    return h
  }

  func path(_ h: RunHarness, _ relative: String) -> String { h.folder.appendingPathComponent(relative).path }

  /// Every file below `relative` but the state (and, with `manifests: false`, the manifests).
  func files(_ h: RunHarness, _ relative: String, manifests: Bool = true) throws -> [String: Data] {
    try treeContents(path(h, relative)).filter {
      !$0.key.hasPrefix(".cropjob/") && (manifests || !$0.key.hasPrefix("cropjob-"))
    }
  }

  func testWindowedRunsWriteWhatOneWindowWrites() throws {
    let h = try harness(copies: 4)
    defer { h.remove() }
    let (whole, _) = try h.run(outputRoot: path(h, "whole"))
    XCTAssertEqual(whole.failed, 0, "\(whole.failures)")
    let expected = try files(h, "whole")
    XCTAssertEqual(expected.keys.filter { $0.hasPrefix("dot/") }.count, 16)
    for (name, workers) in [("w1", 1), ("w2", 2)] {
      let (summary, _) = try h.run(outputRoot: path(h, name), window: 3) { $0.jobs = workers }
      XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
      XCTAssertEqual(try files(h, name), expected, name)
      // A re-run finds everything up to date and leaves the manifest as it is.
      let (again, _) = try h.run(outputRoot: path(h, name), window: 5)
      XCTAssertEqual(again.written, 0, name)
      XCTAssertEqual(try files(h, name), expected, name)
    }
    // Three shards in windows of 2: their outputs together are the whole run's.
    for index in 0..<3 {
      let (summary, _) = try h.run(outputRoot: path(h, "shards"), window: 2) {
        $0.shard = Shard(index: index, count: 3)
      }
      XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    }
    XCTAssertEqual(try files(h, "shards", manifests: false), expected.filter { !$0.key.hasPrefix("cropjob-manifest") })
  }

  /// Half the photos recorded by an unsharded run (main file), the other half by two shards
  /// (their own files, the main file read but not folded).
  func spreadState(_ h: RunHarness) throws {
    try h.copySamples(Self.samples, copies: 2)
    let names = try FileManager.default.contentsOfDirectory(atPath: path(h, "photos")).sorted()
    let later = path(h, "later")
    try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
    for name in names where name.hasPrefix("2-") {
      try FileManager.default.moveItem(atPath: path(h, "photos/\(name)"), toPath: later + "/" + name)
    }
    XCTAssertEqual(try h.run(window: 3).0.failed, 0)
    for name in names where name.hasPrefix("2-") {
      try FileManager.default.moveItem(atPath: later + "/" + name, toPath: path(h, "photos/\(name)"))
    }
    for index in 0..<2 {
      let (shard, _) = try h.run(window: 3) { $0.shard = Shard(index: index, count: 2) }
      XCTAssertEqual(shard.failed, 0, "\(shard.failures)")
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: path(h, "out/.cropjob")).filter { $0.hasSuffix(".sqlite3") }
        .sorted(),
      ["state.shard-0-of-2.sqlite3", "state.shard-1-of-2.sqlite3", "state.sqlite3"])
  }

  /// The plan as `cropjob plan --format json` writes it, in windows of `window` sources.
  func planJSON(_ h: RunHarness, window: Int?) throws -> String {
    var job = JobRun(try h.load())
    if let window { job.window = window }
    let plan = try JobPlan.make(job, for: .print).get()
    var bytes: [UInt8] = []
    PlanRenderer.writeJSON(plan.stream, facts: plan.verdicts.facts(of:)) { bytes += $0 }
    return String(decoding: bytes, as: UTF8.self)
  }

  func testAWindowedReRunOverShardFilesAndTheMainFileFindsEverythingUpToDate() throws {
    let h = try harness(copies: 0)
    defer { h.remove() }
    try spreadState(h)
    // 8 photos: 16 square outputs and 8 dots.
    let whole = try h.planText()
    XCTAssertTrue(whole.contains("16 outputs (16 up to date)"), whole)
    XCTAssertTrue(whole.contains("8 outputs (8 up to date)"), whole)
    XCTAssertEqual(try h.planText(window: 3), whole)
    let json = try planJSON(h, window: nil)
    XCTAssertEqual(json.components(separatedBy: "\"upToDate\" : true").count - 1, 24, json)
    XCTAssertEqual(try planJSON(h, window: 3), json)
    for index in 0..<2 {
      let (again, _) = try h.run(window: 3) { $0.shard = Shard(index: index, count: 2) }
      XCTAssertEqual(again.written, 0)
    }
    let (unsharded, _) = try h.run(window: 3)
    XCTAssertEqual(unsharded.written, 0)
    XCTAssertEqual(unsharded.upToDate, 24)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path(h, "out/.cropjob")), ["state.sqlite3"])
  }

  /// The first pass finds windows all up to date and the second does not plan them again;
  /// a `from:` job's window is not taken as up to date while its upstream job is rebuilt.
  func testAnUpstreamRebuiltRebuildsItsDownstreamWindows() throws {
    let h = try harness(copies: 2)
    defer { h.remove() }
    XCTAssertEqual(try h.run(window: 3).0.failed, 0)
    let (noOp, reporter) = try h.run(window: 3)
    XCTAssertEqual(reporter.skipped.count, 24)
    XCTAssertEqual(noOp.upToDate, 24)
    // The upstream's 48-pixel outputs change (a sharper encoding): the dots read them.
    try h.writeJob(Self.job.replacing("widths: [24, 48]}", with: "widths: [24, 48], encode: {quality: 95}}"))
    let (rebuilt, written) = try h.run(window: 3)
    XCTAssertEqual(rebuilt.failed, 0, "\(rebuilt.failures)")
    XCTAssertEqual(written.written.filter { $0.hasPrefix("dot/") }.count, 8, "\(written.written)")
    // What a fresh run of the changed job writes.
    XCTAssertEqual(try h.run(outputRoot: path(h, "fresh")).0.failed, 0)
    XCTAssertEqual(try files(h, "out", manifests: false), try files(h, "fresh", manifests: false))
  }

  func testStaleOutputsAcrossWindowsAreFoundInPathOrderAndPruned() throws {
    var manifests: [String] = []
    var staleEvents: [[String]] = []
    for window in [nil, 3] {
      let h = try harness(copies: 0, name: "stale-\(window ?? 0)")
      defer { h.remove() }
      try spreadState(h)
      // The 48-pixel outputs are no longer made, nor the dots made from them: 16 stale
      // outputs, over windows and files.
      try h.writeJob(Self.job.replacing("widths: [24, 48]", with: "widths: [24]"))
      let (stale, reporter) = try h.run(window: window)
      XCTAssertEqual(stale.failed, 0, "\(stale.failures)")
      let paths = reporter.stale
      XCTAssertEqual(paths.count, 16, "\(paths)")
      XCTAssertEqual(paths, paths.sorted())
      XCTAssertTrue(paths.allSatisfy { $0.contains("-48.") }, "\(paths)")
      staleEvents.append(paths)
      let manifest = try String(contentsOfFile: path(h, "out/cropjob-manifest.json"), encoding: .utf8)
      for path in paths { XCTAssertTrue(manifest.contains("\"\(path)\""), path) }
      let (pruned, _) = try h.run(window: window) { $0.prune = true }
      XCTAssertEqual(pruned.pruned, 16)
      for stalePath in paths { XCTAssertFalse(FileManager.default.fileExists(atPath: path(h, "out/" + stalePath))) }
      let (after, _) = try h.run(window: window)
      XCTAssertEqual(after.stale, 0)
      manifests.append(
        try String(contentsOfFile: path(h, "out/cropjob-manifest.json"), encoding: .utf8)
          .split(separator: "\n").filter { !$0.contains("\"mtime\"") && !$0.contains("\"libvips\"") }
          .joined(separator: "\n"))
    }
    XCTAssertEqual(staleEvents[0], staleEvents[1])
    XCTAssertEqual(manifests[0], manifests[1])
  }
}
