import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The header cache (`CachingHeaderReader`) and the source hashes in the state: a re-run over
/// unchanged photos only stats them, reading no header and no content; a change of size, of
/// mtime, or of inode (a file replaced by rename with the same size and mtime) makes that
/// one photo be read and hashed again (docs/reliability.md, "State database").
final class HeaderCacheTests: XCTestCase {
  var folder: URL!
  var root: String { folder.appendingPathComponent("out").path }
  func photo(_ name: String) -> String { folder.appendingPathComponent("photos/\(name)").path }

  override func setUpWithError() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no python3 with PIL") }
    folder = TestPaths.scratch()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
    // Uncompressed PNGs of one size have one byte count, whatever their colour.
    let script = """
      import sys
      from PIL import Image
      folder = sys.argv[1]
      for name, size, colour in [("a", 48, (200, 10, 10)), ("b", 48, (10, 200, 10)), ("c", 48, (10, 10, 200)),
                                 ("spare", 48, (90, 90, 90)), ("bigger", 56, (200, 10, 10))]:
          Image.new("RGB", (size, 40), colour).save(f"{folder}/{name}.png", compress_level=0)
      """
    let made = try Subprocess.run(python, ["-c", script, folder.appendingPathComponent("photos").path])
    XCTAssertEqual(made.status, 0, made.stderr)
    for name in ["spare.png", "bigger.png"] {
      try FileManager.default.moveItem(
        atPath: photo(name), toPath: folder.appendingPathComponent(name).path)
    }
    try """
    version: 1
    output: out
    jobs:
      t:
        sources: ["photos/*"]
        guide: {shape: square, size: 32}
        outputs:
          - path: "{stem}.png"
            encode: {format: png}
    """.write(to: folder.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
  }

  override func tearDown() {
    if let folder { try? FileManager.default.removeItem(at: folder) }
  }

  struct Pass {
    var headersRead: Int
    /// Sources whose content was hashed (not taken from the state).
    var hashed: [String]
    var summary: RunSummary
  }

  /// Plans through the header cache over the state, asks which sources need hashing, runs.
  func pass() throws -> Pass {
    let state = try StateReader.open(root: root).read(.entries, .all)
    let reader = CachingHeaderReader(wrapping: VipsHeaderReader(), sources: state.sources)
    let loaded = JobFileLoader.load(path: folder.appendingPathComponent("job.yaml").path)
    let file = try XCTUnwrap(loaded.jobFile)
    // The run's plan reads headers through `reader` (counted); this one asks what needs hashing.
    let planned = try JobPlan.planned(file, planner: Planner(headers: reader), state: StateReader(whole: state))
    XCTAssertTrue(planned.stream.isRunnable, "\(Array(planned.stream.issues))")
    let plan = Planner(headers: CachingHeaderReader(wrapping: VipsHeaderReader(), sources: state.sources)).plan(file)
    let check = UpToDateCheck(plan: plan, state: try StateReader.open(root: root).read(.keys, .all))
    var hashed: [String] = []
    for (index, source) in plan.sources.enumerated() {
      let outputs = plan.outputs.indices.filter { plan.outputs[$0].sourceIndex == index }
      if try check.sourceState(source, outputs: outputs).hashed { hashed.append(source.path) }
    }
    let summary = JobRun(file).execute(planned, reporter: JobRunner.Silent())
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    return Pass(headersRead: reader.headersRead, hashed: hashed.sorted(), summary: summary)
  }

  func identity(_ path: String) throws -> FileIdentity { try XCTUnwrap(FileIdentity.of(path: path)) }

  func testAnUnchangedSourceIsOnlyStatedAndAChangedOneIsReadAgain() throws {
    let first = try pass()
    XCTAssertEqual(first.headersRead, 3)
    XCTAssertEqual(first.summary.written, 3)

    let noOp = try pass()
    XCTAssertEqual(noOp.headersRead, 0, "a header was read for an unchanged source")
    XCTAssertEqual(noOp.hashed, [], "an unchanged source was hashed")
    XCTAssertEqual(noOp.summary.upToDate, 3)
    XCTAssertEqual(noOp.summary.decodes, 0)

    // Size: a.png rewritten in place (same inode) with a larger picture.
    let inode = try identity(photo("a.png")).inode
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: photo("a.png")))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(contentsOf: folder.appendingPathComponent("bigger.png")))
    try handle.close()
    XCTAssertEqual(try identity(photo("a.png")).inode, inode)
    let resized = try pass()
    XCTAssertEqual(resized.headersRead, 1)
    XCTAssertEqual(resized.hashed, ["photos/a.png"])
    XCTAssertEqual(resized.summary.written, 1)

    // Mtime: b.png touched, its content the same: read and hashed, its output up to date.
    let later = Date().addingTimeInterval(30)
    try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: photo("b.png"))
    let touched = try pass()
    XCTAssertEqual(touched.headersRead, 1)
    XCTAssertEqual(touched.hashed, ["photos/b.png"])
    XCTAssertEqual(touched.summary.written, 0)
    XCTAssertEqual(touched.summary.upToDate, 3)

    // Inode: c.png replaced by rename with a file of the same size and mtime (another
    // picture): only the inode tells, and its output is made again.
    let before = try identity(photo("c.png"))
    let spare = folder.appendingPathComponent("spare.png").path
    var info = stat()
    XCTAssertEqual(stat(photo("c.png"), &info), 0)
    var times = [info.st_atim, info.st_mtim]
    XCTAssertEqual(utimensat(AT_FDCWD, spare, &times, 0), 0)
    XCTAssertEqual(rename(spare, photo("c.png")), 0)
    let after = try identity(photo("c.png"))
    XCTAssertEqual(after.size, before.size)
    XCTAssertEqual(after.mtime, before.mtime)
    XCTAssertNotEqual(after.inode, before.inode)
    let replaced = try pass()
    XCTAssertEqual(replaced.headersRead, 1)
    XCTAssertEqual(replaced.hashed, ["photos/c.png"])
    XCTAssertEqual(replaced.summary.written, 1)

    // And the state has caught up: stat only again.
    let settled = try pass()
    XCTAssertEqual(settled.headersRead, 0)
    XCTAssertEqual(settled.hashed, [])
    XCTAssertEqual(settled.summary.upToDate, 3)
  }

  /// A source replaced between plan and run (another picture, another size): the run fails its
  /// outputs, and the state records the header of the file as it is now, not the plan's, so
  /// that the next plan, served from the state, sees the new picture.
  func testASourceChangedAfterPlanningIsRecordedWithItsOwnHeader() throws {
    let state = try StateReader.open(root: root).read(.entries, .all)
    let loaded = JobFileLoader.load(path: folder.appendingPathComponent("job.yaml").path)
    let file = try XCTUnwrap(loaded.jobFile)
    let planned = try JobPlan.planned(
      file, planner: Planner(headers: CachingHeaderReader(wrapping: VipsHeaderReader(), sources: state.sources)),
      state: StateReader(whole: state))
    let replacement = folder.appendingPathComponent("bigger.png").path
    XCTAssertEqual(rename(replacement, photo("a.png")), 0)
    let summary = JobRun(file).execute(planned, reporter: JobRunner.Silent())
    XCTAssertEqual(summary.failed, 1, "\(summary.failures)")
    let recorded = try XCTUnwrap(StateReader.open(root: root).read(.entries, .all).sources[photo("a.png")])
    XCTAssertEqual(recorded.identity, try identity(photo("a.png")))
    XCTAssertEqual(recorded.header.storedWidth, 56, "the plan's header (48 px wide) was recorded for the new file")
    let next = try pass()
    XCTAssertEqual(next.headersRead, 0)
    XCTAssertEqual(next.summary.written, 1)
  }

  /// `run`'s first pass takes each source's content hash from the state's record its header
  /// came with (the sources are looked up once, for their headers): a window is up to date
  /// only where that hash is the one its outputs were keyed with, and a source recorded
  /// without a hash leaves its window to the second pass (which hashes it).
  func testTheFirstPassTakesTheHashTheHeaderCameWith() throws {
    _ = try pass()
    let recorded = try StateReader.open(root: root).read(.entries, .all)
    func upToDateWindows(_ state: StateView<Manifest.Entry>) throws -> Int {
      let file = try XCTUnwrap(JobFileLoader.load(path: folder.appendingPathComponent("job.yaml").path).jobFile)
      let reader = CachingHeaderReader(wrapping: VipsHeaderReader(), sources: state.sources)
      let planned = try JobPlan.planned(
        file, planner: Planner(headers: reader), state: StateReader(whole: state), window: 1)
      XCTAssertEqual(reader.headersRead, 0)
      return planned.verdicts.upToDateWindows
    }
    XCTAssertEqual(try upToDateWindows(recorded), 3, "one window a photo, each up to date")
    var changed = recorded
    let a = try XCTUnwrap(changed.sources.keys.first { $0.hasSuffix("/photos/a.png") })
    let b = try XCTUnwrap(changed.sources.keys.first { $0.hasSuffix("/photos/b.png") })
    changed.sources[a]?.sha256 = String(repeating: "0", count: 63) + "1"
    changed.sources[b]?.sha256 = nil
    XCTAssertEqual(try upToDateWindows(changed), 1, "c's alone")
  }
}
