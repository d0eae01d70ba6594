import CropGeometry
import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The state database (docs/reliability.md, "State database"): what is recorded reads back
/// the same, shard files fold into the main file, and a damaged, locked or newer file is an
/// error naming the file and the way out, never a crash.
final class StateDatabaseTests: XCTestCase {
  func entry(_ path: String, sha: String = "ab", notes: [String] = []) -> Manifest.Entry {
    Manifest.Entry(
      path: path, job: "j", key: "k-\(path)", bytes: 10, width: 4, height: 3, sha256: sha, format: "png", quality: 85,
      encodes: 1,
      source: Manifest.SourceRecord(path: "s.jpg", sha256: "cd", bytes: 99, mtime: 1_700_000_000_123_456_789),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: 0.1, y: 1.0 / 3.0, width: 4, height: 3), scale: 0.123456789012345, angle: -12.5,
        centre: Point(x: 2, y: 1.5), smartFocus: notes.isEmpty ? nil : "attention",
        flip: notes.isEmpty ? nil : "horizontal",
        notes: notes))
  }

  let header = SourceHeader(
    format: .jpeg, storedWidth: 640, storedHeight: 480, orientation: 6, bands: 3, hasAlpha: false, pages: 1)

  func testWhatIsRecordedReadsBackTheSame() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let writer = try StateWriter.open(root: root.path, shard: nil, batchSize: 2)
    try writer.claim(["a.png", "b.png", "c.png"])
    var scored = entry("c.png")
    scored.ssim = 0.987_654_321_012_345  // encode.target's score (schema version 3)
    let entries = [entry("a.png"), entry("b.png", notes: ["clamped", "a \"quoted\" note"]), scored]
    for e in entries { writer.record(e) }
    let facts = SourceFacts(
      identity: FileIdentity(
        size: 99, mtime: 1_700_000_000_123_456_789, inode: UInt64.max - 1, ctime: 1_700_000_001_000_000_007,
        device: UInt64.max - 3), sha256: "cd",
      header: header)
    writer.recordSource(path: "/photos/s.jpg", facts: facts)
    XCTAssertNil(writer.finish())
    let state = try StateReader.open(root: root.path).read(.entries, .all)
    XCTAssertEqual(state.outputs.count, 3)
    for e in entries { XCTAssertEqual(state.outputs[e.path], e) }
    XCTAssertEqual(state.sources["/photos/s.jpg"], facts)
    XCTAssertTrue(state.claims.isEmpty, "recording an output settles its claim")
    // The readable manifest is kept; the WAL is checkpointed away on close.
    XCTAssertTrue(FileManager.default.fileExists(atPath: root.path + "/.cropjob/state.sqlite3"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: root.path + "/.cropjob/state.sqlite3-wal"))
  }

  func testClaimsAreCropjobsOwnUntilRecorded() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let writer = try StateWriter.open(root: root.path, shard: nil)
    try writer.claim(["x.png"])
    XCTAssertNil(writer.finish())
    let state = try StateReader.open(root: root.path).read(.entries, .all)
    XCTAssertTrue(state.isOwn("x.png"))
    XCTAssertNil(state.outputs["x.png"])
    XCTAssertFalse(state.isOwn("y.png"))
  }

  func testShardFilesFoldIntoTheMainFileNewestRowWinning() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let main = try StateWriter.open(root: root.path, shard: nil)
    main.record(entry("a.png", sha: "old"))
    main.record(entry("gone.png"))
    XCTAssertNil(main.finish())
    let zero = try StateWriter.open(root: root.path, shard: Shard(index: 0, count: 2))
    zero.record(entry("a.png", sha: "new"))
    zero.remove(["gone.png"])
    XCTAssertNil(zero.finish())
    let one = try StateWriter.open(root: root.path, shard: Shard(index: 1, count: 2))
    one.record(entry("b.png"))
    XCTAssertNil(one.finish())
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: root.path + "/.cropjob").sorted(),
      ["state.shard-0-of-2.sqlite3", "state.shard-1-of-2.sqlite3", "state.sqlite3"])
    // Shard 0 does not read shard 1's file (another machine may be writing it).
    XCTAssertEqual(
      try StateReader.open(root: root.path, shard: Shard(index: 0, count: 2)).read(.entries, .all).outputs.keys
        .sorted(), ["a.png"])
    let merged = try StateReader.open(root: root.path).read(.entries, .all)
    XCTAssertEqual(merged.outputs.keys.sorted(), ["a.png", "b.png"])
    XCTAssertEqual(merged.outputs["a.png"]?.sha256, "new")
    // An unsharded run folds them into the main file and removes them.
    XCTAssertNil(try StateWriter.open(root: root.path, shard: nil).finish())
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path + "/.cropjob"), ["state.sqlite3"])
    XCTAssertEqual(try StateReader.open(root: root.path).read(.entries, .all).outputs, merged.outputs)
  }

  func testARootWithOnlyJSONManifestsIsImported() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(Manifest(engineVersion: Vips.version, outputs: [entry("a.png"), entry("b.png")]).encoded())
      .write(to: root.appendingPathComponent("cropjob-manifest.json"))
    XCTAssertEqual(
      try StateReader.open(root: root.path).read(.entries, .all).outputs.keys.sorted(), ["a.png", "b.png"])
    let writer = try StateWriter.open(root: root.path, shard: nil)
    writer.record(entry("b.png", sha: "newer"))
    XCTAssertNil(writer.finish())
    try FileManager.default.removeItem(at: root.appendingPathComponent("cropjob-manifest.json"))
    let state = try StateReader.open(root: root.path).read(.entries, .all)
    XCTAssertEqual(state.outputs.keys.sorted(), ["a.png", "b.png"])
    XCTAssertEqual(state.outputs["b.png"]?.sha256, "newer")
  }

  func testADamagedFileIsAnErrorNamingItAndTheWayOut() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    XCTAssertNil(try StateWriter.open(root: root.path, shard: nil).finish())
    let path = root.path + "/.cropjob/state.sqlite3"
    // Garbage over the whole file, and a file cut short in its pages.
    for damage in [Data(repeating: 0x5A, count: 8192), Data("SQLite format 3\0".utf8) + Data(repeating: 7, count: 300)]
    {
      try damage.write(to: URL(fileURLWithPath: path))
      for attempt in [
        { _ = try StateReader.open(root: root.path).read(.entries, .all) },
        { _ = try StateWriter.open(root: root.path, shard: nil) },
      ] {
        XCTAssertThrowsError(try attempt()) { error in
          let error = error as? StateError
          XCTAssertEqual(error?.kind, .damaged, "\(String(describing: error))")
          XCTAssertTrue(error?.description.contains(path) ?? false)
          XCTAssertTrue(error?.description.contains("--rebuild-state") ?? false)
        }
      }
    }
    // The way out: remove it; the JSON manifests are what is left.
    StateFiles.removeAll(root: root.path)
    XCTAssertNoThrow(try StateReader.open(root: root.path).read(.entries, .all))
  }

  func testANewerSchemaIsRefusedNamingTheVersion() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    XCTAssertNil(try StateWriter.open(root: root.path, shard: nil).finish())
    let path = root.path + "/.cropjob/state.sqlite3"
    XCTAssertTrue(ToolRun.sqlite(path, "PRAGMA user_version = 7"), "sqlite3 CLI missing")
    XCTAssertThrowsError(try StateReader.open(root: root.path).read(.entries, .all)) { error in
      XCTAssertEqual((error as? StateError)?.kind, .newer(version: 7))
      XCTAssertTrue(
        "\(error)".contains(path) && "\(error)".contains("version 7") && "\(error)".contains("--rebuild-state"))
    }
    XCTAssertThrowsError(try StateWriter.open(root: root.path, shard: nil)) { error in
      XCTAssertEqual((error as? StateError)?.kind, .newer(version: 7))
    }
  }

  /// docs/reliability.md quotes the refusal of a newer file word for word, with the version
  /// this cropjob reads (issue 28's audit found it still saying 2 after version 3).
  func testTheNewerSchemaMessageIsTheOneReliabilityDocsQuote() throws {
    let docs = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/reliability.md"), encoding: .utf8)
    let row = try XCTUnwrap(docs.split(separator: "\n").first { $0.hasPrefix("| written by a newer cropjob |") })
    let quoted = try XCTUnwrap(row.split(separator: "`").dropFirst().first.map(String.init))
    let prefix = "… has schema version 9, "
    XCTAssertTrue(quoted.hasPrefix(prefix), quoted)
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    XCTAssertNil(try StateWriter.open(root: root.path, shard: nil).finish())
    XCTAssertTrue(
      ToolRun.sqlite(root.path + "/.cropjob/state.sqlite3", "PRAGMA user_version = 9"), "sqlite3 CLI missing")
    XCTAssertThrowsError(try StateReader.open(root: root.path).read(.entries, .all)) { error in
      XCTAssertTrue("\(error)".hasSuffix("schema version 9, " + quoted.dropFirst(prefix.count)), "\(error)")
    }
  }

  func testAFileHeldByAnotherRunIsLocked() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let holder = try StateWriter.open(root: root.path, shard: nil)
    defer { _ = holder.finish() }
    XCTAssertThrowsError(try StateWriter.open(root: root.path, shard: nil)) { error in
      XCTAssertEqual((error as? StateError)?.kind, .locked, "\(error)")
      XCTAssertTrue("\(error)".contains(root.path + "/.cropjob/state.sqlite3"))
      XCTAssertTrue("\(error)".contains("another cropjob run"))
    }
    XCTAssertThrowsError(try StateReader.open(root: root.path).read(.entries, .all)) { error in
      XCTAssertEqual((error as? StateError)?.kind, .locked, "\(error)")
    }
  }

  func testAnEmptyFileIsMigratedToTheCurrentVersion() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(atPath: root.path + "/.cropjob", withIntermediateDirectories: true)
    XCTAssertTrue(FileManager.default.createFile(atPath: root.path + "/.cropjob/state.sqlite3", contents: Data()))
    XCTAssertTrue(try StateReader.open(root: root.path).read(.entries, .all).outputs.isEmpty)
    let writer = try StateWriter.open(root: root.path, shard: nil)
    writer.record(entry("a.png"))
    XCTAssertNil(writer.finish())
    XCTAssertEqual(try StateReader.open(root: root.path).read(.entries, .all).outputs.keys.sorted(), ["a.png"])
  }

  /// A run that changes nothing leaves the manifest file as it is; a changed output, an edited
  /// manifest or a killed run's commit makes the next run write it again.
  func testAManifestIsRewrittenOnlyWhenTheOutputsChanged() throws {
    let h = try RunHarness(samples: ["kite.jpg", "cat.png"], job: TestJobs.thumbsAndTiny())
    defer { h.remove() }
    let path = h.outputRoot + "/cropjob-manifest.json"
    try h.run()
    let first = try XCTUnwrap(FileIdentity.of(path: path))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let (noOp, _) = try h.run()
    XCTAssertEqual(noOp.written, 0)
    XCTAssertEqual(FileIdentity.of(path: path), first, "a no-op run rewrote the manifest")
    // Edited by hand: written again, as it was.
    try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
    try h.run()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    // An output changes: written again, with it.
    try h.writeJob(TestJobs.thumbsAndTiny(thumbQuality: 60))
    let (changed, _) = try h.run()
    XCTAssertGreaterThan(changed.written, 0)
    XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    // A commit without a manifest (a killed run) forgets the manifest's identity.
    var entry = try XCTUnwrap(Manifest.loadAll(root: h.outputRoot).values.first)
    let writer = try StateWriter.open(root: h.outputRoot, shard: nil)
    entry.sha256 = "0000"
    writer.record(entry)
    XCTAssertNil(writer.finish())
    let before = try XCTUnwrap(FileIdentity.of(path: path))
    try h.run()
    XCTAssertNotEqual(FileIdentity.of(path: path), before, "the manifest was not rewritten after a commit")
  }
}

/// The sqlite3 command-line tool, to change a database behind cropjob's back.
enum ToolRun {
  static func sqlite(_ path: String, _ sql: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}

/// Commits (a `syncfs` of the whole file system, then a transaction) run on the writer's own
/// queue: a worker that records an output does not wait for them, nor for the connection.
extension StateDatabaseTests {
  func testRecordingDoesNotWaitForTheConnection() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let writer = try StateWriter.open(root: root.path, shard: nil, batchSize: 1)
    try writer.claim(["a.png", "b.png"])
    let recorded = expectation(description: "record returned while the connection was busy")
    let release = DispatchSemaphore(value: 0)
    let holding = DispatchSemaphore(value: 0)
    // Another user of the connection (a commit, a fold) holds it until told to stop.
    DispatchQueue.global().async {
      writer.holdingConnection {
        holding.signal()
        release.wait()
      }
    }
    holding.wait()
    let entries = [entry("a.png"), entry("b.png")]
    DispatchQueue.global().async {
      for e in entries { writer.record(e) }
      recorded.fulfill()
    }
    let result = XCTWaiter.wait(for: [recorded], timeout: 10)
    release.signal()
    XCTAssertEqual(result, .completed, "record waited for the connection")
    XCTAssertNil(writer.finish())
    let state = try StateReader.open(root: root.path).read(.entries, .all)
    XCTAssertEqual(Set(state.outputs.keys), ["a.png", "b.png"])
  }
}
