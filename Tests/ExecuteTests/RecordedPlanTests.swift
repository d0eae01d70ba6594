import CropKit
import Foundation
import TestSupport
import XCTest

/// The no-op re-run (docs/scale.md, "The no-op re-run"): a run records each source's plan,
/// and the next run's first pass takes the record instead of planning a source whose
/// fingerprint (job, path, header, placement after overrides, content hash) is unchanged,
/// whose outputs the state records with the plan's keys and whose files have the recorded
/// sizes. Anything else about a source plans it in full, as before. Windows of one source,
/// so that the recorded plans are taken (a batch of one window is planned once, whole).
final class RecordedPlanTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]

  override func setUp() { Cancellation.reset() }

  static func job(size: Int = 48, overrides: String = "") -> String {
    """
    version: 1
    output: out
    jobs:
      t:
        sources: ["photos/*"]
        guide: {shape: circle, size: \(size)}
        outputs: [{path: "{stem}.png"}, {path: "{stem}.jpg"}]
    \(overrides)
    """
  }

  struct Outcome {
    var recorded: Int
    var planned: Int
    var summary: RunSummary
    var reporter: CollectingReporter
    var issues: [PlanIssue]
  }

  /// One run as `cropjob run` does it, windows of one source.
  func run(_ h: RunHarness, _ configure: (inout JobRun) -> Void = { _ in }) throws -> Outcome {
    var job = JobRun(try h.load())
    job.window = 1
    job.options.jobs = 2
    configure(&job)
    let workload = try job.plan().get()
    let reporter = CollectingReporter()
    let summary = job.execute(workload, reporter: reporter)
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    return Outcome(
      recorded: workload.stream.recordedSources, planned: workload.stream.plannedSources, summary: summary,
      reporter: reporter, issues: workload.stream.issues)
  }

  func harness(_ name: String = #function, job: String = job()) throws -> RunHarness {
    try RunHarness(samples: Self.photos, job: job, name: name)
  }

  func testNoOpRerunPlansNoSourceAgain() throws {
    let h = try harness()
    defer { h.remove() }
    let first = try run(h)
    XCTAssertEqual(first.summary.written, 6)
    XCTAssertEqual(first.recorded, 0)
    let second = try run(h)
    XCTAssertEqual(second.recorded, 3, "every source's recorded plan stands for it")
    XCTAssertEqual(second.planned, 0)
    XCTAssertEqual(second.summary.written, 0)
    XCTAssertEqual(second.summary.upToDate, 6)
    XCTAssertEqual(second.summary.decodes, 0)
    XCTAssertEqual(Set(second.reporter.skipped), Set(first.reporter.written))
    // The manifest lists the same outputs (it is not written again: nothing changed).
    let manifest = try Manifest.decodeFile(h.outputRoot + "/cropjob-manifest.json")
    XCTAssertEqual(Set(manifest.outputs.map(\.path)), Set(first.reporter.written))
  }

  /// Sources planned in full and found up to date (a state without plans: an earlier
  /// cropjob's) have their plans recorded by that run.
  func testUpToDateSourcesFoundByPlanningAreRecorded() throws {
    let h = try harness()
    defer { h.remove() }
    _ = try run(h)
    let state = h.outputRoot + "/.cropjob/state.sqlite3"
    XCTAssertEqual(try Subprocess.run("/usr/bin/sqlite3", [state, "DELETE FROM plans"]).status, 0)
    let planned = try run(h)
    XCTAssertEqual(planned.recorded, 0)
    XCTAssertEqual(planned.summary.upToDate, 6)
    let third = try run(h)
    XCTAssertEqual(third.recorded, 3)
    XCTAssertEqual(third.summary.upToDate, 6)
  }

  func testChangedJobRebuildsEverySourceWhoseStatMatches() throws {
    let h = try harness()
    defer { h.remove() }
    _ = try run(h)
    XCTAssertEqual(try run(h).recorded, 3)
    try h.writeJob(Self.job(size: 40))
    let changed = try run(h)
    XCTAssertEqual(changed.recorded, 0, "another guide: another fingerprint")
    XCTAssertEqual(changed.summary.written, 6)
    XCTAssertEqual(try run(h).recorded, 3)
  }

  func testDeletedOrEditedOutputIsRebuilt() throws {
    let h = try harness()
    defer { h.remove() }
    _ = try run(h)
    XCTAssertEqual(try run(h).recorded, 3)
    try FileManager.default.removeItem(atPath: h.outputRoot + "/kite.png")
    let edited = try FileHandle(forWritingTo: URL(fileURLWithPath: h.outputRoot + "/bridge.jpg"))
    try edited.seekToEnd()
    try edited.write(contentsOf: Data("x".utf8))
    try edited.close()
    let again = try run(h)
    XCTAssertEqual(again.recorded, 1, "only cat's outputs are as recorded")
    XCTAssertEqual(Set(again.reporter.written), ["kite.png", "bridge.jpg"])
    XCTAssertEqual(again.summary.upToDate, 4)
  }

  func testOverrideChangedForOneSourceRebuildsJustThatSource() throws {
    let override = { (zoom: Double) in "overrides:\n  - {source: photos/kite.jpg, zoom: \(zoom)}" }
    let h = try harness(job: Self.job(overrides: override(1.5)))
    defer { h.remove() }
    _ = try run(h)
    XCTAssertEqual(try run(h).recorded, 3)
    try h.writeJob(Self.job(overrides: override(2)))
    let changed = try run(h)
    XCTAssertEqual(changed.recorded, 2)
    XCTAssertEqual(changed.planned, 1)
    XCTAssertEqual(Set(changed.reporter.written), ["kite.png", "kite.jpg"])
  }

  /// A recorded source's warnings are the ones planning raises, in the same order.
  func testRecordedWarningsAreThePlannersInOrder() throws {
    // 48 px from a photo narrower than 400 px upscales: one warning per output.
    let h = try harness(job: Self.job(size: 400))
    defer { h.remove() }
    let first = try run(h)
    XCTAssertFalse(first.issues.isEmpty, "the job raises warnings")
    let second = try run(h)
    XCTAssertEqual(second.recorded, 3)
    XCTAssertEqual(second.issues, first.issues)
  }

  func testSourceRemovedFromTheJobIsPrunedWithRecordedPlans() throws {
    let h = try harness()
    defer { h.remove() }
    _ = try run(h)
    XCTAssertEqual(try run(h).recorded, 3)
    try FileManager.default.removeItem(atPath: h.folder.appendingPathComponent("photos/cat.png").path)
    let pruned = try run(h) { $0.options.prune = true }
    XCTAssertEqual(pruned.recorded, 2)
    XCTAssertEqual(Set(pruned.reporter.pruned), ["cat.png", "cat.jpg"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.outputRoot + "/cat.png"))
  }

  /// Shards record and take their own sources' plans; the outputs are those of one run.
  func testShardsRecordAndTakeTheirSourcesPlans() throws {
    let h = try harness()
    defer { h.remove() }
    for index in 0..<2 { _ = try run(h) { $0.options.shard = Shard(index: index, count: 2) } }
    var recorded = 0
    for index in 0..<2 {
      let again = try run(h) { $0.options.shard = Shard(index: index, count: 2) }
      XCTAssertEqual(again.summary.written, 0)
      recorded += again.recorded
    }
    XCTAssertGreaterThanOrEqual(recorded, 3, "each shard takes the recorded plans of its sources")
    let whole = try run(h)
    XCTAssertEqual(whole.recorded, 3, "the shard files' plans are folded")
    XCTAssertEqual(whole.summary.upToDate, 6)
  }

  func testRebuildStateAndForcePlanEverySource() throws {
    let h = try harness()
    defer { h.remove() }
    _ = try run(h)
    XCTAssertEqual(try run(h).recorded, 3)
    XCTAssertEqual(try run(h) { $0.options.force = true }.recorded, 0)
    let rebuilt = try run(h) { $0.rebuildState = true }
    XCTAssertEqual(rebuilt.recorded, 0)
    XCTAssertEqual(rebuilt.summary.written, 0, "hashed again: the outputs are up to date")
  }
}
