import CropGeometry
import CropKit
import Foundation
import XCTest

/// The manifest journal a killed run leaves behind (docs/reliability.md, "Crash safety").
final class ManifestJournalTests: XCTestCase {
  func entry(_ path: String, sha: String = "ab") -> Manifest.Entry {
    Manifest.Entry(
      path: path, job: "j", key: "k-\(path)", bytes: 10, width: 4, height: 3, sha256: sha, format: "png", quality: 85,
      encodes: 1, source: Manifest.SourceRecord(path: "s.jpg", sha256: "cd", bytes: 99, mtime: 1),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: 0, y: 0, width: 4, height: 3), scale: 1, angle: 0, centre: Point(x: 2, y: 1.5), smartFocus: nil,
        flip: nil, notes: []))
  }

  func testJournalEntriesAreReadBesideTheManifestAndLaterLinesWin() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(Manifest(engineVersion: Vips.version, outputs: [entry("a.png", sha: "old"), entry("b.png")]).encoded())
      .write(to: root.appendingPathComponent("cropjob-manifest.json"))
    let journal = ManifestJournal(root: root.path, shard: nil)
    journal.append(entry("a.png", sha: "new"))
    journal.append(entry("c.png"))
    journal.append(entry("c.png", sha: "newer"))
    journal.finish(manifestWritten: false)
    let all = Manifest.loadAll(root: root.path)
    XCTAssertEqual(all.keys.sorted(), ["a.png", "b.png", "c.png"])
    XCTAssertEqual(all["a.png"]?.sha256, "new")
    XCTAssertEqual(all["c.png"]?.sha256, "newer")
  }

  func testALineCutByAKillIsSkippedAndTheNextAppendStartsAfreshLine() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = ManifestJournal(root: root.path, shard: nil)
    first.append(entry("a.png"))
    first.finish(manifestWritten: false)
    // A kill in the middle of the second line.
    let path = root.appendingPathComponent("cropjob-manifest.journal").path
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"bytes":10,"encodes":1,"form"#.utf8))
    try handle.close()
    XCTAssertEqual(ManifestJournal.loadEntries(root: root.path).map(\.path), ["a.png"])
    // The next run appends to the same journal: its entry is not swallowed by the cut line.
    let second = ManifestJournal(root: root.path, shard: nil)
    second.append(entry("b.png"))
    second.finish(manifestWritten: false)
    XCTAssertEqual(ManifestJournal.loadEntries(root: root.path).map(\.path), ["a.png", "b.png"])
    // Once the manifest is written, the journal goes.
    let third = ManifestJournal(root: root.path, shard: nil)
    third.append(entry("c.png"))
    third.finish(manifestWritten: true)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testShardsHaveTheirOwnJournalsAndAWholeRunRemovesThem() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    XCTAssertEqual(ManifestJournal.fileName(shard: nil), "cropjob-manifest.journal")
    XCTAssertEqual(ManifestJournal.fileName(shard: Shard(index: 1, count: 3)), "cropjob-manifest.shard-1-of-3.journal")
    let shard = ManifestJournal(root: root.path, shard: Shard(index: 1, count: 3))
    shard.append(entry("x.png"))
    shard.finish(manifestWritten: false)
    XCTAssertEqual(Manifest.loadAll(root: root.path).keys.sorted(), ["x.png"])
    Manifest.removeShardManifests(root: root.path)
    XCTAssertTrue(ManifestJournal.loadEntries(root: root.path).isEmpty)
  }
}
