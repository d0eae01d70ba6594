import CropGeometry
import CropPlan
import CropSpec
import CropStore
import Foundation
import TestSupport
import XCTest

/// The state read a window at a time (`StateReader`): for any set of paths, what the whole
/// state (`StateQuery.all`, every table scanned) says of them (every file, newest row per
/// path, removals applied, claims of any file), looked up by primary key; the walk of the
/// recorded paths finds them all, across its batches.
final class StateReaderTests: XCTestCase {
  func entry(_ path: String, sha: String = "ab", source: String = "s.jpg") -> Manifest.Entry {
    Manifest.Entry(
      path: path, job: "j", key: "k-\(path)-\(sha)", bytes: 10 + sha.count, width: 4, height: 3, sha256: sha,
      format: "png", quality: 85,
      encodes: 1, source: Manifest.SourceRecord(path: source, sha256: "cd", bytes: 99, mtime: 1_700_000_000),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: 0, y: 0, width: 4, height: 3), scale: 1, angle: 0, centre: Point(x: 2, y: 1.5),
        smartFocus: nil, flip: nil, notes: []))
  }

  func facts(_ size: Int64, sha: String) -> SourceFacts {
    SourceFacts(
      identity: FileIdentity(size: size, mtime: 1_700_000_000, inode: UInt64(size), ctime: 1_700_000_000, device: 1),
      sha256: sha,
      header: SourceHeader(
        format: .jpeg, storedWidth: 64, storedHeight: 48, orientation: 1, bands: 3, hasAlpha: false, pages: 1))
  }

  /// Names JSON and SQL must carry as they are.
  let odd = ["q\"uote.png", "back\\slash.png", "tab\there.png", "é-accent.png", "日本.png", "it's.png"]

  /// Main file, two shard files of one count and one of another: rows for one path in
  /// several files, removals in a later file, claims, sources recorded twice.
  func makeState(_ root: String) throws {
    let main = try StateWriter.open(root: root, shard: nil)
    for path in ["a.png", "b.png", "gone.png", "shared.png"] + odd { main.record(entry(path, sha: "main")) }
    main.recordSource(path: "/p/a.jpg", facts: facts(1, sha: "main"))
    main.recordSource(path: "/p/b.jpg", facts: facts(2, sha: "main"))
    try main.claim(["claimed-main.png"])
    XCTAssertNil(main.finish())
    let zero = try StateWriter.open(root: root, shard: Shard(index: 0, count: 2))
    zero.record(entry("shared.png", sha: "zero"))
    zero.record(entry("z.png", sha: "zero"))
    zero.remove(["gone.png"])
    zero.recordSource(path: "/p/a.jpg", facts: facts(3, sha: "zero"))
    try zero.claim(["claimed-zero.png"])
    XCTAssertNil(zero.finish())
    let one = try StateWriter.open(root: root, shard: Shard(index: 1, count: 2))
    one.record(entry("one.png", sha: "one"))
    one.record(entry("shared.png", sha: "one"))
    XCTAssertNil(one.finish())
    let other = try StateWriter.open(root: root, shard: Shard(index: 2, count: 3))
    other.record(entry("three.png", sha: "three"))
    other.remove(["b.png"])
    XCTAssertNil(other.finish())
  }

  func testLookupsAgreeWithTheWholeStateForEveryView() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try makeState(root.path)
    let outputs =
      ["a.png", "b.png", "gone.png", "shared.png", "z.png", "one.png", "three.png", "claimed-main.png"]
      + ["claimed-zero.png", "never.png", "a.png"] + odd
    let sources = ["/p/a.jpg", "/p/b.jpg", "/p/never.jpg"]
    for shard in [nil, Shard(index: 0, count: 2), Shard(index: 1, count: 2), Shard(index: 2, count: 3)] {
      let whole = try StateReader.open(root: root.path, shard: shard).read(.entries, .all)
      let reader = try StateReader.open(root: root.path, shard: shard)
      let part = try reader.read(.entries, StateQuery(outputs: outputs, sources: sources))
      XCTAssertEqual(part.outputs, whole.outputs.filter { outputs.contains($0.key) }, "\(String(describing: shard))")
      XCTAssertEqual(part.sources, whole.sources.filter { sources.contains($0.key) })
      XCTAssertEqual(part.claims, whole.claims.filter { outputs.contains($0) })
      for path in outputs { XCTAssertEqual(part.isOwn(path), whole.isOwn(path), path) }
      XCTAssertTrue(reader.recordsOutputs)
      // The light rows: the same outputs with their keys and byte counts, sources, claims.
      let light = try reader.read(.keys, StateQuery(outputs: outputs, sources: sources))
      XCTAssertEqual(
        light.outputs, part.outputs.mapValues { RecordedOutput(key: $0.key, bytes: $0.bytes) },
        "\(String(describing: shard))")
      XCTAssertEqual(light.sources, part.sources)
      XCTAssertEqual(light.claims, part.claims)
      for path in outputs { XCTAssertEqual(light.isOwn(path), whole.isOwn(path), path) }
      // One path at a time, the same.
      for path in outputs {
        XCTAssertEqual(try reader.read(.entries, StateQuery(outputs: [path])).outputs[path], whole.outputs[path], path)
      }
      var walked = Set<String>()
      try reader.forEachRecordedPath { walked.insert($0) }
      XCTAssertTrue(walked.isSuperset(of: whole.outputs.keys), "\(String(describing: shard))")
    }
    // What the test is about: rows that differ between the files.
    let whole = try StateReader.open(root: root.path).read(.entries, .all)
    XCTAssertEqual(whole.outputs["shared.png"]?.sha256, "one")
    XCTAssertEqual(
      try StateReader.open(root: root.path).read(.keys, StateQuery(outputs: ["shared.png"])).outputs["shared.png"]?.key,
      "k-shared.png-one")
    XCTAssertNil(whole.outputs["gone.png"])
    XCTAssertNil(whole.outputs["b.png"])
    XCTAssertEqual(whole.sources["/p/a.jpg"]?.sha256, "zero")
  }

  func testTheWalkCrossesItsBatches() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let count = StateReader.batch * 2 + 17
    let writer = try StateWriter.open(root: root.path, shard: nil, batchSize: 1024)
    let paths = (0..<count).map { String(format: "d%02d/o%06d.png", $0 % 7, $0) }
    for path in paths { writer.record(entry(path)) }
    XCTAssertNil(writer.finish())
    let reader = try StateReader.open(root: root.path)
    var walked: [String] = []
    try reader.forEachRecordedPath { walked.append($0) }
    XCTAssertEqual(walked, paths.sorted())
    var random = SeededRandom(seed: 115)
    let some = Array(paths.shuffled(using: &random).prefix(StateReader.batch + 5))
    XCTAssertEqual(try reader.read(.entries, StateQuery(outputs: some)).outputs.count, some.count)
    XCTAssertEqual(try reader.read(.keys, StateQuery(outputs: some)).outputs.count, some.count)
  }

  func testARootWithoutStateFilesIsReadFromItsManifestsWhole() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let empty = try StateReader.open(root: root.path)
    XCTAssertFalse(empty.recordsOutputs)
    XCTAssertTrue(try empty.read(.entries, StateQuery(outputs: ["a.png"])).outputs.isEmpty)
    try Data(Manifest(engineVersion: "8.14.1", outputs: [entry("a.png"), entry("b.png")]).encoded())
      .write(to: root.appendingPathComponent("cropjob-manifest.json"))
    let reader = try StateReader.open(root: root.path)
    XCTAssertTrue(reader.recordsOutputs)
    XCTAssertEqual(try reader.read(.entries, StateQuery(outputs: ["b.png", "c.png"])).outputs.keys.sorted(), ["b.png"])
    XCTAssertEqual(try reader.read(.keys, StateQuery(outputs: ["b.png", "c.png"])).outputs.keys.sorted(), ["b.png"])
  }

  func testADamagedFileIsFoundWhenOpened() throws {
    let root = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    XCTAssertNil(try StateWriter.open(root: root.path, shard: nil).finish())
    let path = root.path + "/.cropjob/state.sqlite3"
    try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
    XCTAssertThrowsError(try StateReader.open(root: root.path)) { error in
      XCTAssertEqual((error as? StateError)?.kind, .damaged, "\(error)")
    }
  }

  /// The paths a lookup sends SQLite as a JSON array (`json_each`) read back, through
  /// Foundation's JSON parser, as the very strings: plain paths, quotes, backslashes, control
  /// characters, non-ASCII names.
  func testLookupPathsAreAJSONArrayOfThePaths() throws {
    let paths = [
      "/work/out/d000/i0001.png", "", "a\"b", "back\\slash", "tab\tnew\nline\u{1}", "café/ü.jpg", "\u{301}x",
    ]
    let text = StateReader.jsonArray(paths[...])
    let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String])
    XCTAssertEqual(parsed.map { Array($0.utf8) }, paths.map { Array($0.utf8) })
  }
}
