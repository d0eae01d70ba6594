import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The executor, in-process: one decode per source, incremental re-runs, failures that stay
/// with their source, cancellation, determinism across thread counts and shards.
final class ExecutorTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png", "portrait-sideways-8.jpg"]

  func harness(_ name: String = #function, job: String = TestJobs.thumbsAndTiny()) throws -> RunHarness {
    try RunHarness(samples: Self.photos, job: job, name: name)
  }

  func testOneDecodePerSourceWithSeveralOutputsEach() throws {
    let h = try harness()
    defer { h.remove() }
    let (summary, reporter) = try h.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    // 4 photos x 3 outputs, then 4 tiny avatars from the thumbnails.
    XCTAssertEqual(summary.planned, 16)
    XCTAssertEqual(summary.written, 16)
    // Each photo once, and each upstream thumbnail once for the `from:` job.
    XCTAssertEqual(summary.decodes, 8)
    XCTAssertEqual(reporter.decoded.count, 8)
    XCTAssertEqual(Set(reporter.decoded).count, 8, "no source decoded twice")
    XCTAssertEqual(summary.encodes, 16)
    let manifest = try Manifest.decodeFile(h.outputRoot + "/cropjob-manifest.json")
    XCTAssertEqual(manifest.outputs.count, 16)
  }

  func testSecondRunDecodesNothingAndReportsAllUpToDate() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    let before = try treeContents(h.outputRoot)
    let (summary, reporter) = try h.run()
    XCTAssertEqual(summary.decodes, 0)
    XCTAssertEqual(summary.written, 0)
    XCTAssertEqual(summary.upToDate, 16)
    XCTAssertEqual(reporter.skipped.count, 16)
    assertSameTree(before, try treeContents(h.outputRoot))
  }

  func testChangingOneOutputsQualityRebuildsThatOutputOnly() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    try h.writeJob(TestJobs.thumbsAndTiny(webpQuality: 60))
    let (summary, reporter) = try h.run()
    XCTAssertEqual(
      Set(reporter.written), Set(Self.photos.map { "webp/\(($0 as NSString).deletingPathExtension).webp" }))
    XCTAssertEqual(summary.upToDate, 12)
    XCTAssertEqual(summary.decodes, 4, "the photos whose WebP changed, and nothing for the from: job")
    // The thumbnails' quality feeds the from: job: both are rebuilt.
    try h.writeJob(TestJobs.thumbsAndTiny(thumbQuality: 75, webpQuality: 60))
    let (again, reporter2) = try h.run()
    XCTAssertEqual(again.written, 12, "\(reporter2.written)")
    XCTAssertTrue(reporter2.written.allSatisfy { $0.hasPrefix("thumbs/") || $0.hasPrefix("tiny/") })
  }

  func testForceRebuildsEverything() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    let (summary, _) = try h.run { $0.force = true }
    XCTAssertEqual(summary.written, 16)
    XCTAssertEqual(summary.upToDate, 0)
    XCTAssertEqual(summary.decodes, 8)
  }

  /// An output someone else truncated or replaced with a file of another size is made again
  /// (README: an output is up to date when its key matches and the file still has the
  /// recorded size), the same bytes as before; the others stay.
  func testAnOutputOfAnotherSizeOnDiskIsMadeAgain() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    let path = h.folder.appendingPathComponent("out/thumbs/kite-96.jpg").path
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    try Data(original.prefix(original.count / 2)).write(to: URL(fileURLWithPath: path))
    let (summary, reporter) = try h.run()
    XCTAssertEqual(reporter.written, ["thumbs/kite-96.jpg"])
    XCTAssertEqual(summary.upToDate, 15)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
  }

  /// A photo rewritten between the plan and the run, its size and mtime restored to the
  /// nanosecond, is seen by its ctime (the recorded identity's stamp covers size, mtime, inode,
  /// ctime and device): its outputs, up to date when planned, are not skipped (in a window
  /// that runs).
  func testAPhotoRewrittenAfterPlanningWithItsMtimeRestoredIsNotSkipped() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    // Another photo's output to make again, so that the window runs (a window whose outputs
    // were all up to date when planned is skipped whole, photos unlooked-at).
    try FileManager.default.removeItem(at: h.folder.appendingPathComponent("out/thumbs/bridge-96.jpg"))
    var options = RunOptions()
    options.jobs = 2
    let job = JobRun(try h.load(), options: options)
    guard case .success(let plan) = JobPlan.make(job) else { return XCTFail("the second run was refused") }
    // Rewritten in place (same inode) with other bytes of the same size, mtime put back.
    let kite = h.folder.appendingPathComponent("photos/kite.jpg").path
    var before = stat()
    XCTAssertEqual(stat(kite, &before), 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sample("ladybird.jpg")))
    bytes = bytes.prefix(Int(before.st_size)) + Data(count: max(0, Int(before.st_size) - bytes.count))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: kite))
    try handle.write(contentsOf: bytes)
    try handle.close()
    var times = [before.st_atim, before.st_mtim]
    XCTAssertEqual(utimensat(AT_FDCWD, kite, &times, 0), 0)
    var after = stat()
    XCTAssertEqual(stat(kite, &after), 0)
    XCTAssertEqual(
      [after.st_size, after.st_mtim.tv_sec, after.st_mtim.tv_nsec],
      [before.st_size, before.st_mtim.tv_sec, before.st_mtim.tv_nsec])
    XCTAssertEqual(after.st_ino, before.st_ino)
    let reporter = CollectingReporter()
    _ = job.execute(plan, reporter: reporter)
    let kiteOutputs = ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp"]
    XCTAssertEqual(
      Set(reporter.skipped).intersection(kiteOutputs), [], "outputs of the rewritten photo reported up to date")
  }

  func testTouchedSourceIsHashedAndStaysUpToDateWhenItsContentIsTheSame() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    let kite = h.folder.appendingPathComponent("photos/kite.jpg").path
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: kite)
    let (summary, _) = try h.run()
    XCTAssertEqual(summary.written, 0)
    XCTAssertEqual(summary.upToDate, 16)
  }

  func testChangedSourceRebuildsItsOutputsAndWhatTheyFeed() throws {
    let h = try harness()
    defer { h.remove() }
    try h.run()
    let kite = h.folder.appendingPathComponent("photos/kite.jpg").path
    try FileManager.default.removeItem(atPath: kite)
    try FileManager.default.copyItem(atPath: TestPaths.sample("ladybird.jpg"), toPath: kite)
    let (summary, reporter) = try h.run()
    XCTAssertEqual(
      Set(reporter.written), ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png"])
    XCTAssertEqual(summary.upToDate, 12)
  }

  func testStaleOutputsAreReportedThenPruned() throws {
    let h = try harness(job: TestJobs.thumbsAndTiny(extraEntry: true))
    defer { h.remove() }
    let (first, _) = try h.run()
    XCTAssertEqual(first.written, 20)
    try h.writeJob(TestJobs.thumbsAndTiny())
    let (second, reporter) = try h.run()
    XCTAssertEqual(second.stale, 4)
    XCTAssertEqual(Set(reporter.stale), Set(Self.photos.map { "extra/\(($0 as NSString).deletingPathExtension).png" }))
    XCTAssertTrue(FileManager.default.fileExists(atPath: h.outputRoot + "/extra/kite.png"), "reported, not deleted")
    // Still reported on the next run: the manifest keeps them until they are pruned.
    let (third, _) = try h.run()
    XCTAssertEqual(third.stale, 4)
    let (pruned, reporter2) = try h.run { $0.prune = true }
    XCTAssertEqual(pruned.pruned, 4)
    XCTAssertEqual(Set(reporter2.pruned), Set(reporter.stale))
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.outputRoot + "/extra/kite.png"))
    let manifest = try Manifest.decodeFile(h.outputRoot + "/cropjob-manifest.json")
    XCTAssertFalse(manifest.outputs.contains { $0.path.hasPrefix("extra/") })
    let (after, _) = try h.run()
    XCTAssertEqual(after.stale + after.pruned, 0)
  }

  func testBadSourcesFailOnlyTheirOwnOutputs() throws {
    let h = try harness()
    defer { h.remove() }
    let photos = h.folder.appendingPathComponent("photos")
    // A truncated JPEG: the header reads, the pixels do not.
    let kite = try Data(contentsOf: photos.appendingPathComponent("kite.jpg"))
    try kite.prefix(kite.count / 3).write(to: photos.appendingPathComponent("broken-truncated.jpg"))
    // Not an image at all: found by the planner, failed by the run.
    try Data("this is not a photo".utf8).write(to: photos.appendingPathComponent("broken-text.jpg"))
    let (summary, _) = try h.run()
    XCTAssertEqual(summary.written, 16, "the good photos are all done")
    let sources = Set(summary.failures.map(\.source))
    XCTAssertEqual(
      sources, ["photos/broken-truncated.jpg", "photos/broken-text.jpg", "thumbs/broken-truncated-192.jpg"],
      "\(summary.failures)")
    // The truncated photo fails its 3 outputs, and the tiny avatar made from one of them;
    // the text file, unreadable at planning, fails the 3 files it would have written, each
    // named (issue 40.6), not its job as a whole.
    XCTAssertEqual(summary.failures.filter { $0.source == "photos/broken-truncated.jpg" }.count, 3)
    let downstream = try XCTUnwrap(summary.failures.first { $0.source == "thumbs/broken-truncated-192.jpg" })
    XCTAssertEqual(downstream.output, "tiny/broken-truncated-192.png")
    XCTAssertTrue(downstream.reason.contains("job thumbs"), downstream.reason)
    let text = summary.failures.filter { $0.source == "photos/broken-text.jpg" }
    XCTAssertEqual(
      text.map(\.output).sorted(),
      summary.failures.filter { $0.source == "photos/broken-truncated.jpg" }.map {
        $0.output.replacingOccurrences(of: "broken-truncated", with: "broken-text")
      }.sorted())
    XCTAssertEqual(summary.failed, summary.failures.count)
    XCTAssertTrue(summary.failures.allSatisfy { !$0.reason.isEmpty })
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.outputRoot + "/thumbs/broken-truncated-96.jpg"))
    // The other photos are all done; the next run retries only the bad ones.
    let (again, _) = try h.run()
    XCTAssertEqual(again.upToDate, 16)
    XCTAssertEqual(again.written, 0)
    XCTAssertEqual(Set(again.failures.map(\.source)), sources)
  }

  func testFailFastStopsSchedulingAfterTheFirstFailure() throws {
    let h = try harness()
    defer { h.remove() }
    // Sorted first, so that with one worker it is the first task; it fails when decoded.
    let kite = try Data(contentsOf: h.folder.appendingPathComponent("photos/kite.jpg"))
    try kite.prefix(kite.count / 3).write(to: h.folder.appendingPathComponent("photos/aab-truncated.jpg"))
    let (summary, _) = try h.run {
      $0.failFast = true
      $0.jobs = 1
    }
    XCTAssertGreaterThan(summary.failed, 0)
    XCTAssertEqual(summary.written, 0, "nothing is scheduled after the first failure")
    XCTAssertFalse(summary.interrupted)
  }

  func testOneAndTwoWorkersWriteIdenticalBytesAndManifests() throws {
    let h = try harness()
    defer { h.remove() }
    let one = h.folder.appendingPathComponent("j1").path
    let two = h.folder.appendingPathComponent("j2").path
    try h.run(outputRoot: one) { $0.jobs = 1 }
    try h.run(outputRoot: two) { $0.jobs = 2 }
    let a = try treeContents(one)
    XCTAssertEqual(a.count, 17)
    assertSameTree(a, try treeContents(two))
  }

  func testTwoRunsWriteIdenticalBytesAndManifests() throws {
    let h = try harness()
    defer { h.remove() }
    let first = h.folder.appendingPathComponent("first").path
    let second = h.folder.appendingPathComponent("second").path
    try h.run(outputRoot: first)
    try h.run(outputRoot: second)
    assertSameTree(try treeContents(first), try treeContents(second))
    XCTAssertNotNil(try treeContents(first)["cropjob-manifest.json"])
  }

  func testShardsTogetherEqualTheUnshardedRunAndOverlapNowhere() throws {
    let h = try harness()
    defer { h.remove() }
    let whole = h.folder.appendingPathComponent("whole").path
    let sharded = h.folder.appendingPathComponent("sharded").path
    try h.run(outputRoot: whole)
    var written: [String: Int] = [:]
    var decodes = 0
    for index in 0..<4 {
      let (summary, reporter) = try h.run(outputRoot: sharded) { $0.shard = Shard(index: index, count: 4) }
      XCTAssertEqual(summary.failed, 0)
      XCTAssertEqual(summary.upToDate, 0, "a shard never touches another's outputs")
      decodes += summary.decodes
      for path in reporter.written { written[path, default: 0] += 1 }
    }
    XCTAssertEqual(written.count, 16)
    XCTAssertTrue(written.values.allSatisfy { $0 == 1 })
    XCTAssertEqual(decodes, 8, "each source is decoded by one shard only")
    let isManifest: (String) -> Bool = { $0.hasPrefix("cropjob-manifest") }
    assertSameTree(try treeContents(whole), try treeContents(sharded), ignoring: isManifest)
    // The shard manifests together list exactly the unsharded manifest's entries.
    let wholeManifest = try Manifest.decodeFile(whole + "/cropjob-manifest.json")
    var union: [Manifest.Entry] = []
    for index in 0..<4 {
      union += try Manifest.decodeFile(sharded + "/" + Manifest.fileName(shard: Shard(index: index, count: 4))).outputs
    }
    XCTAssertEqual(union.sorted { $0.path < $1.path }, wholeManifest.outputs)
    // An unsharded run over the sharded outputs finds everything up to date, and its
    // manifest, complete, replaces the shards'.
    let (summary, _) = try h.run(outputRoot: sharded)
    XCTAssertEqual(summary.upToDate, 16)
    XCTAssertEqual(summary.decodes, 0)
    XCTAssertEqual(try treeContents(sharded).keys.filter(isManifest), ["cropjob-manifest.json"])
    XCTAssertEqual(try Manifest.decodeFile(sharded + "/cropjob-manifest.json"), wholeManifest)
  }

  func testNewestManifestWinsWhenShardCountsChange() throws {
    let h = try harness()
    defer { h.remove() }
    for index in 0..<2 { try h.run { $0.shard = Shard(index: index, count: 2) } }
    try h.writeJob(TestJobs.thumbsAndTiny(thumbQuality: 70))
    var rebuilt = 0
    for index in 0..<3 { rebuilt += try h.run { $0.shard = Shard(index: index, count: 3) }.0.written }
    XCTAssertEqual(rebuilt, 12)
    // The 2-shard manifests still list the old keys: the newer 3-shard ones must win,
    // whatever their names' order.
    var written = 0
    var upToDate = 0
    for index in 0..<3 {
      let (summary, _) = try h.run { $0.shard = Shard(index: index, count: 3) }
      written += summary.written
      upToDate += summary.upToDate
    }
    XCTAssertEqual(written, 0)
    XCTAssertEqual(upToDate, 16)
  }

  func testCancellationStopsAndTheNextRunCompletesTheSameOutputs() throws {
    let h = try harness()
    defer { h.remove() }
    let reference = h.folder.appendingPathComponent("reference").path
    try h.run(outputRoot: reference)
    // Cancel after the third file is written, as SIGINT would (from a worker thread while
    // the other reads the flag: under TSan this caught the old non-atomic flag).
    let token = CancellationToken()
    let reporter = CollectingReporter { event, _ in
      if case .wrote = event { Self.wroteCount.withLock { $0 += 1 } }
      if Self.wroteCount.withLock({ $0 }) == 3 { token.cancel() }
    }
    Self.wroteCount.withLock { $0 = 0 }
    let (interrupted, _) = try h.run(reporter: reporter) {
      $0.jobs = 2
      $0.cancellation = token
    }
    XCTAssertTrue(interrupted.interrupted)
    XCTAssertLessThan(interrupted.written, 16)
    XCTAssertGreaterThanOrEqual(interrupted.written, 3)
    // What finished is in the manifest, whole; nothing partial is left behind.
    let manifest = try Manifest.decodeFile(h.outputRoot + "/cropjob-manifest.json")
    XCTAssertEqual(manifest.outputs.count, interrupted.written)
    let files = try treeContents(h.outputRoot)
    XCTAssertFalse(files.keys.contains { $0.contains(AtomicWriter.temporaryPrefix) })
    XCTAssertEqual(files.count, interrupted.written + 1)
    let (resumed, _) = try h.run()
    XCTAssertEqual(resumed.upToDate, interrupted.written)
    XCTAssertEqual(resumed.written, 16 - interrupted.written)
    assertSameTree(try treeContents(reference), try treeContents(h.outputRoot))
  }

  static let wroteCount = LockedBox(0)

  func testWorkersRunAtOnceEvenBeyondTheCores() {
    // `--jobs 4` on 2 cores must run 4 at once (concurrentPerform ran only as many as the
    // cores). Each worker waits until every worker has started: run fewer at a time, the
    // first ones wait for workers that cannot start before they end. Counted, not timed:
    // the wait gives up after 20 s only so that a failure cannot hang the run.
    let count = ProcessInfo.processInfo.activeProcessorCount * 2
    let started = LockedBox(0)
    let gaveUp = LockedBox(0)
    let everyoneStarted = DispatchSemaphore(value: 0)
    WorkerPool.runWorkers(count) {
      let last = started.withLock {
        $0 += 1
        return $0 == count
      }
      if last { for _ in 0..<count { everyoneStarted.signal() } }
      if everyoneStarted.wait(timeout: .now() + 20) == .timedOut { gaveUp.withLock { $0 += 1 } }
    }
    XCTAssertEqual(started.withLock { $0 }, count)
    XCTAssertEqual(gaveUp.withLock { $0 }, 0, "workers that waited in vain for the others to start")
  }

  /// A budget smaller than any photo: every output is still written, one photo at a time on
  /// 4 workers: in the run's events no photo is decoded between another's decode and its last
  /// output (the budget is held until a decode's outputs are written).
  func testATinyPixelBudgetStillRunsEverythingOnePhotoAtATime() throws {
    let h = try harness(
      job: """
        version: 1
        output: out
        jobs:
          t:
            sources: ["photos"]
            guide: {width: 160, height: 120}
            outputs:
              - {path: "{stem}_a.jpg"}
              - {path: "{stem}_b.png"}
              - {path: "{stem}_{width}.webp", widths: [80, 120]}
        """)
    defer { h.remove() }
    let (summary, reporter) = try h.run {
      $0.maxPixelsInFlight = 1
      $0.jobs = 4
    }
    XCTAssertEqual(summary.written, 16)
    XCTAssertEqual(summary.failed, 0)
    var open: [String: Int] = [:]  // photo stem → outputs still to write
    for event in reporter.events {
      switch event {
      case .decoded(let source):
        XCTAssertTrue(open.isEmpty, "\(source) decoded while \(open) had outputs to write")
        open[((source as NSString).lastPathComponent as NSString).deletingPathExtension] = 4
      case .wrote(let path, _, _, _):
        let stem = String(path.prefix { $0 != "_" })
        open[stem, default: 0] -= 1
        if open[stem] == 0 { open[stem] = nil }
      default: break
      }
    }
  }

  /// `plan`'s first pass (`VerdictPass`, exact) counts as up to date what the run then skips.
  func testPlanTimeUpToDateMatchesTheRun() throws {
    let h = try harness()
    defer { h.remove() }
    func upToDate() throws -> Int {
      let file = try h.load()
      let pass = VerdictPass(state: try StateReader.open(root: h.outputRoot), jobs: file.jobs, exact: true)
      _ = PlanStream.make(file, planner: Planner(), inspect: pass.inspect)
      return pass.upToDateCounts.values.reduce(0, +)
    }
    XCTAssertEqual(try upToDate(), 0)
    try h.run()
    XCTAssertEqual(try upToDate(), 16)
    let (again, _) = try h.run()
    XCTAssertEqual(again.upToDate, 16)
    XCTAssertEqual(again.written, 0)
  }
}

extension Manifest {
  static func decodeFile(_ path: String) throws -> Manifest {
    try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
