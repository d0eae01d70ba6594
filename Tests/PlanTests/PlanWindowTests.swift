import CropImaging
import CropPlan
import CropSpec
import CropSupport
import Foundation
import TestSupport
import XCTest

/// A batch planned in windows of a few sources (`PlanStream`) is the batch planned whole:
/// the same sources, outputs, issues and bytes of `plan --format json`; a collision between
/// sources in different windows stops the plan before anything is written; shards pick the
/// same outputs.
final class PlanWindowTests: XCTestCase {
  /// Headers that vary with the file's name (no image is opened): sizes from 150 to 1,650
  /// pixels, a few photos sideways, every 97th over the pixel limit of the job below.
  final class VariedHeaders: SourceHeaderReading, @unchecked Sendable {
    var engineVersion: String { "varied-headers 1" }
    func start() {}
    func header(path: String) throws -> SourceHeader {
      let n = Int(PathText.lastComponent(path).filter(\.isNumber)) ?? 0
      let huge = n % 97 == 5
      return SourceHeader(
        format: n % 5 == 0 ? .png : .jpeg, storedWidth: huge ? 4000 : 150 + (n * 37) % 1500,
        storedHeight: huge ? 4000 : 150 + (n * 53) % 1100, orientation: n % 11 == 3 ? 6 : 1, bands: 3,
        hasAlpha: false, pages: 1)
    }
  }

  /// `count` empty files in three folders (`photos/a/a0.jpg`, `photos/b/b1.jpg`, ...), and a
  /// job file with two jobs that read overlapping files, a `from:` job, overrides and
  /// outputs of several sizes.
  func makeBatch(count: Int, extraJob: String = "") throws -> (folder: URL, file: JobFile) {
    let folder = TestPaths.scratch()
    let photos = folder.appendingPathComponent("photos")
    for (i, sub) in ["a", "b", "c"].enumerated() {
      let dir = photos.appendingPathComponent(sub)
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      for n in stride(from: i, to: count, by: 3) {
        _ = FileManager.default.createFile(
          atPath: dir.appendingPathComponent("\(sub)\(n).jpg").path, contents: Data([1]))
      }
    }
    let job = folder.appendingPathComponent("job.yaml")
    try """
    version: 1
    output: out
    limits: {max_pixels: 10000000}
    overrides:
      - {source: photos/a/a3.jpg, zoom: 1.5}
      - {job: banner, source: photos/b/b4.jpg, focus: [0.2, 0.3]}
      - {source: photos/none.jpg, zoom: 2}
    jobs:
      square:
        sources: [photos]
        guide: {shape: square, size: 200}
        place: {fit: cover}
        outputs:
          - {path: "sq/{dir}/{stem}-{width}.jpg", widths: [100, 300]}
          - {path: "sq/{dir}/{stem}.png"}
      banner:
        sources: ["photos/c", "photos/b/*.jpg", "photos/missing/*.jpg"]
        exclude: ["*7.jpg"]
        guide: {shape: rect, aspect: "16:9", width: 320}
        place: {fit: contain}
        outputs:
          - {path: "banner/{stem}.webp"}
      small:
        from: square
        guide: {shape: circle, size: 40}
        outputs:
          - {path: "small/{stem}.png"}
    \(extraJob)
    """.write(to: job, atomically: true, encoding: .utf8)
    let loaded = JobFileLoader.load(path: job.path)
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    return (folder, file)
  }

  func stream(_ file: JobFile, window: Int, shard: Shard? = nil, collect: Bool = false) -> PlanStream {
    PlanStream.make(
      file, planner: Planner(limits: file.limits, headers: VariedHeaders()), shard: shard, window: window,
      collect: collect)
  }

  func json(_ stream: PlanStream) -> [UInt8] {
    var bytes: [UInt8] = []
    PlanRenderer.writeJSON(stream) { bytes += $0 }
    return bytes
  }

  func testWindowedPlanIsTheWholePlan() throws {
    let (folder, file) = try makeBatch(count: 1_200)
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try XCTUnwrap(stream(file, window: .max, collect: true).plan)
    // The files, then one produced source for each file square could read.
    XCTAssertEqual(whole.sources.count, 1_200 + whole.sources.prefix(1_200).filter { $0.header != nil }.count)
    XCTAssertTrue(whole.issues.contains { $0.message.contains("limits.max_pixels") })
    XCTAssertTrue(whole.issues.contains { $0.message.contains("matches no file") })
    XCTAssertTrue(whole.issues.contains { $0.message.contains("1 override matches no source") })
    XCTAssertTrue(whole.isRunnable)
    let wholeJSON = Array((PlanRenderer.render(whole, format: .json) + "\n").utf8)
    // One window: the first pass's windows are kept and printed as they are.
    XCTAssertEqual(json(stream(file, window: .max)), wholeJSON)
    for window in [7, 64, 1_000] {
      let windowed = stream(file, window: window, collect: true)
      let plan = try XCTUnwrap(windowed.plan)
      XCTAssertEqual(plan.issues, whole.issues, "window \(window)")
      XCTAssertEqual(plan.sources.map(\.path), whole.sources.map(\.path))
      XCTAssertEqual(plan.sources.map(\.loadShrink), whole.sources.map(\.loadShrink))
      XCTAssertEqual(plan.sources.map(\.header), whole.sources.map(\.header))
      XCTAssertEqual(plan.outputs.map(\.path), whole.outputs.map(\.path))
      XCTAssertEqual(plan.outputs.map(\.recipe), whole.outputs.map(\.recipe))
      XCTAssertEqual(plan.outputs.map(\.sourceIndex), whole.outputs.map(\.sourceIndex))
      // The second pass, window by window, prints the whole plan's bytes.
      XCTAssertEqual(json(stream(file, window: window)), wholeJSON, "window \(window)")
      XCTAssertEqual(windowed.decodeCount, Set(whole.outputs.map(\.decodeKey)).count)
      XCTAssertEqual(
        PlanRenderer.text(windowed, upToDate: nil),
        PlanRenderer.render(whole, format: .text, selected: Array(whole.outputs.indices)))
    }
    // The windows of the second pass hold at most `window` sources each, in plan order.
    var seen: [Int] = []
    stream(file, window: 7).forEachWindow { window in
      XCTAssertLessThanOrEqual(window.plan.sources.count, 7)
      seen += window.plan.outputs.map { window.sourceNumbers[$0.sourceIndex] }
    }
    XCTAssertEqual(seen, whole.outputs.map(\.sourceIndex))
  }

  /// Two sources 1,000 photos apart (hundreds of windows) that write one path: the first
  /// pass stops the plan, naming the first writer, as the whole plan's check does
  /// (StreamedRunTests: `run` then writes nothing).
  func testCollisionAcrossWindowsStopsThePlanBeforeAnythingIsWritten() throws {
    let (folder, file) = try makeBatch(count: 3_000)
    // photos/b/c2984.jpg: banner writes banner/c2984.webp from it, ~1,000 sources before
    // photos/c/c2984.jpg writes it again.
    _ = FileManager.default.createFile(
      atPath: folder.appendingPathComponent("photos/b/c2984.jpg").path, contents: Data([1]))
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try XCTUnwrap(stream(file, window: .max, collect: true).plan)
    for window in [7, 100] {
      let windowed = stream(file, window: window)
      XCTAssertFalse(windowed.isRunnable)
      XCTAssertEqual(Array(windowed.issues), whole.issues)
      let collisions = windowed.issues.filter(\.blocksRun)
      // banner's, and small's from square's outputs of the two (sq/b/c2984-300.jpg, sq/c/...).
      XCTAssertEqual(collisions.count, 2)
      XCTAssertEqual(collisions.first?.source, "photos/c/c2984.jpg")
      XCTAssertEqual(collisions.first?.output, "banner/c2984.webp")
      XCTAssertEqual(collisions.first?.message, "path collision: also written by job banner from photos/b/c2984.jpg")
      XCTAssertEqual(collisions.last?.message, "path collision: also written by job small from sq/b/c2984-300.jpg")
    }
  }

  /// Shards chosen window by window pick the outputs the whole plan's shards pick, and
  /// together all of them once.
  func testShardsOverWindowsPickTheSameOutputs() throws {
    let (folder, file) = try makeBatch(count: 600)
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try XCTUnwrap(stream(file, window: .max, collect: true).plan)
    var union: [String] = []
    for index in 0..<3 {
      let shard = Shard(index: index, count: 3)
      let expected = whole.selectedOutputs(shard: shard).map { whole.outputs[$0].path }
      var picked: [String] = []
      let windowed = stream(file, window: 7, shard: shard)
      windowed.forEachWindow { window in picked += window.selected.map { window.plan.outputs[$0].path } }
      XCTAssertEqual(picked, expected, "shard \(index)")
      XCTAssertEqual(windowed.selectedCount, expected.count)
      union += picked
    }
    XCTAssertEqual(union.sorted(), whole.outputs.map(\.path).sorted())
  }

  /// The run's windows (`forEachRunWindow`) are ranges of the plan's sources: each source of a
  /// stage is in one run window, with the outputs of every job of the stage that reads it —
  /// also for `square` and `banner`, which read different lists — so the run makes the
  /// decodes `plan` counts; a run window holds at most `window` sources; together they hold
  /// the shard's outputs once. Windows the first pass found up to date are told in the plan's
  /// order and their outputs left out.
  func testRunWindowsHoldEachSourceOnceWithEveryJobsOutputs() throws {
    let (folder, file) = try makeBatch(count: 600)
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try XCTUnwrap(stream(file, window: .max, collect: true).plan)
    for (window, shard) in [(7, nil), (64, nil), (7, Shard(index: 1, count: 3)), (1_000, nil), (2_000, nil)]
      as [(Int, Shard?)]
    {
      let windowed = stream(file, window: window, shard: shard)
      var seen: [Int: Int] = [:]  // source number → its run window
      var decodes = Set<[Int]>()
      var paths: [String] = []
      var count = 0
      windowed.forEachRunWindow { run in
        XCTAssertLessThanOrEqual(run.plan.sources.count, window)
        for k in run.selected {
          let output = run.plan.outputs[k]
          let number = run.sourceNumbers[output.sourceIndex]
          XCTAssertEqual(seen[number, default: count], count, "source \(number) in two run windows (window \(window))")
          seen[number] = count
          let key = output.decodeKey
          decodes.insert([
            number, ColourPolicy.allCases.firstIndex(of: key.colour)!,
            FramesPolicy.allCases.firstIndex(of: key.frames)!,
          ])
          paths.append(output.path)
        }
        count += 1
      }
      let expected = shard.map { whole.selectedOutputs(shard: $0) } ?? Array(whole.outputs.indices)
      XCTAssertEqual(paths.sorted(), expected.map { whole.outputs[$0].path }.sorted(), "window \(window)")
      XCTAssertEqual(decodes.count, windowed.decodeCount, "window \(window)")
      XCTAssertLessThan(windowed.decodeCount, expected.count)
      // At most one window's sources in all (kept from the first pass): a run window a stage.
      if window == 2_000 { XCTAssertEqual(count, 2) }
    }
    // The plan's windows 2 and 5 up to date: told in order, their outputs in no run window.
    let windowed = stream(file, window: 64)
    var upToDate: [String] = []
    windowed.forEachWindow { if [2, 5].contains($0.number) { upToDate += $0.plan.outputs.map(\.path) } }
    var told: [Int] = []
    var paths: [String] = []
    let collect = { (run: PlanWindow) in paths += run.selected.map { run.plan.outputs[$0].path } }
    windowed.forEachRunWindow(skipping: { [2, 5].contains($0) }, skipped: { told.append($0) }, collect)
    XCTAssertEqual(told, [2, 5])
    XCTAssertFalse(upToDate.isEmpty)
    XCTAssertEqual((paths + upToDate).sorted(), whole.outputs.map(\.path).sorted())
  }
}
