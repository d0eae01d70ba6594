import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import CropSupport
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// What scale asks of the plan: `plan --format json` written as it goes and equal to the
/// encoding of the whole document, the folder walk, the header cache answering from one
/// `stat`, collisions found however far apart their sources are, and files written piece
/// by piece.
final class PlanStreamTests: XCTestCase {
  /// Every file is a 1600x1000 JPEG (no image is opened); counts the headers read.
  final class FixedHeaders: SourceHeaderReading, @unchecked Sendable {
    let known: Bool
    private let lock = NSLock()
    private var reads = 0
    init(known: Bool = false) { self.known = known }
    var engineVersion: String { "fixed-headers 1" }
    var headersRead: Int { lock.withLock { reads } }
    func start() {}
    static let header = SourceHeader(
      format: .jpeg, storedWidth: 1600, storedHeight: 1000, orientation: 1, bands: 3, hasAlpha: false, pages: 1)
    func header(path: String) throws -> SourceHeader {
      lock.withLock { reads += 1 }
      return Self.header
    }
    func knownHeader(path: String, status: SourceFileStatus) -> KnownHeader? {
      known ? KnownHeader(header: Self.header, sha256: nil) : nil
    }
  }

  /// The document `plan --format json` prints, decoded, so that it can be encoded whole again.
  struct PlanDocument: Codable {
    var jobFile: String
    var outputRoot: String
    var runnable: Bool
    var sources: Int
    var decodes: Int
    var outputs: [OutputDocument]
    var issues: [PlanIssue]
    var indexes: [IndexDocument]?
  }

  struct IndexDocument: Codable {
    var path, json, job: String
    var sources: Int
  }

  struct OutputDocument: Codable {
    var job, source, path, key: String
    var width, height: Int
    var format: String
    var quality: Int
    var maxBytes: Int?
    var overBudget: String?
    var target: [String: Double]?
    var colour: String?
    var frames: Int?
    /// Absent when the crop is found at run time (`cropFoundAtRunTime`).
    var crop: Rect?
    var cropRequested: CropRect?
    var scale, angle: Double
    var flip: String?
    var centre: Point?
    var focus: String
    var cropFoundAtRunTime: Bool?
    var loadShrink, stage: Int
    var upToDate: Bool
    var notes: [String]
    var placeholders: [String: String]?
  }

  func streamed(_ plan: Plan, selected: [Int]? = nil) -> (bytes: [UInt8], pieces: Int) {
    var bytes: [UInt8] = []
    var pieces = 0
    PlanRenderer.writeJSON(plan, selected: selected) {
      bytes += $0
      pieces += 1
    }
    return (bytes, pieces)
  }

  func wholeEncoding(of bytes: [UInt8]) throws -> [UInt8] {
    let document = try JSONDecoder().decode(PlanDocument.self, from: Data(bytes))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(document)) + [0x0a]
  }

  func testStreamedPlanJSONIsTheEncodingOfTheWholeDocument() throws {
    let jobs = try FileManager.default.contentsOfDirectory(atPath: TestPaths.jobs.path).filter { $0.hasSuffix(".yaml") }
      .sorted()
    XCTAssertFalse(jobs.isEmpty)
    for job in jobs {
      let loaded = JobFileLoader.load(path: TestPaths.jobs.appendingPathComponent(job).path)
      guard let file = loaded.jobFile else { continue }
      let plan = Planner().plan(file)
      let (bytes, _) = streamed(plan)
      XCTAssertEqual(bytes, try wholeEncoding(of: bytes), job)
      XCTAssertEqual(bytes, Array((PlanRenderer.render(plan, format: .json) + "\n").utf8), job)
      // No output selected: the document with an empty array, as the encoder writes it.
      let (none, _) = streamed(plan, selected: [])
      XCTAssertEqual(none, try wholeEncoding(of: none), job)
      XCTAssertEqual(try JSONDecoder().decode(PlanDocument.self, from: Data(none)).outputs.count, 0)
    }
  }

  /// 3,000 sources: the outputs are written in pieces (not one document), still equal to the
  /// whole encoding; and two sources 1,000 photos apart in the walk that write one path are a
  /// collision that stops the plan.
  func testLargePlanStreamsInPiecesAndFindsFarApartCollisions() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let photos = folder.appendingPathComponent("photos")
    for sub in ["a", "m", "z"] {
      try FileManager.default.createDirectory(
        at: photos.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    for i in 0..<3_000 {
      _ = FileManager.default.createFile(atPath: photos.appendingPathComponent("m/p\(i).jpg").path, contents: Data([1]))
    }
    for sub in ["a", "z"] {
      _ = FileManager.default.createFile(
        atPath: photos.appendingPathComponent("\(sub)/dup.jpg").path, contents: Data([1]))
    }
    let job = folder.appendingPathComponent("job.yaml")
    try """
    version: 1
    output: out
    jobs:
      thumbs: {sources: photos, guide: {shape: square, size: 64}, outputs: [{path: "{stem}.jpg"}]}

    """.write(to: job, atomically: true, encoding: .utf8)
    let loaded = JobFileLoader.load(path: job.path)
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    let plan = Planner(headers: FixedHeaders()).plan(file)
    XCTAssertEqual(plan.outputs.count, 3_002)
    XCTAssertFalse(plan.isRunnable)
    let collisions = plan.issues.filter { $0.blocksRun }
    XCTAssertEqual(collisions.count, 1)
    XCTAssertEqual(collisions.first?.source, "photos/z/dup.jpg")
    XCTAssertEqual(collisions.first?.message, "path collision: also written by job thumbs from photos/a/dup.jpg")
    let (bytes, pieces) = streamed(plan)
    XCTAssertGreaterThan(pieces, 3)
    XCTAssertEqual(bytes, try wholeEncoding(of: bytes))
  }

  /// A folder source: regular files below it, sorted as whole relative paths (`a-b` before
  /// `a/c`), names starting with `.` skipped, symlinks (to files or folders) not followed.
  func testFolderWalkSkipsHiddenNamesAndSymlinksAndSortsWholePaths() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fm = FileManager.default
    let photos = folder.appendingPathComponent("photos").path
    for sub in ["a", "a/deep", ".hidden", "b"] {
      try fm.createDirectory(atPath: photos + "/" + sub, withIntermediateDirectories: true)
    }
    for name in ["a-b.jpg", "a/c.jpg", "a/deep/d.png", ".hidden/x.jpg", ".y.jpg", "b/e.JPG", "b/notes.txt"] {
      _ = fm.createFile(atPath: photos + "/" + name, contents: Data([1]))
    }
    try fm.createSymbolicLink(atPath: photos + "/link.jpg", withDestinationPath: photos + "/a-b.jpg")
    try fm.createSymbolicLink(atPath: photos + "/linked", withDestinationPath: photos + "/a")
    let (matches, unmatched) = SourceExpansion.expand(include: ["photos"], exclude: [], base: folder.path)
    XCTAssertEqual(unmatched, [])
    XCTAssertEqual(matches.map(\.path), ["photos/a-b.jpg", "photos/a/c.jpg", "photos/a/deep/d.png", "photos/b/e.JPG"])
    XCTAssertEqual(matches.map(\.subdirectory), ["", "a", "a/deep", "b"])
    let (globbed, _) = SourceExpansion.expand(include: ["photos/**/*.jpg"], exclude: [], base: folder.path)
    XCTAssertEqual(globbed.map(\.path), ["photos/a-b.jpg", "photos/a/c.jpg"])
  }

  /// A header the reader knows from the file's `stat` is taken without reading the file; a
  /// source without one is read (and its limits checked either way).
  /// The stream's issues held compactly (`PlanIssueList`: paths in one buffer, repeated
  /// messages once) read back as the very issues appended, in order: every kind, both
  /// severities, absent fields, and more distinct messages than it keeps once each.
  func testIssueListGivesBackEveryIssueAsAppended() {
    var issues: [PlanIssue] = []
    for i in 0..<10_000 {
      let kind = PlanIssue.Kind.allCases[i % PlanIssue.Kind.allCases.count]
      issues.append(
        PlanIssue(
          severity: i % 7 == 0 ? .error : .warning, job: i % 5 == 0 ? nil : "job\(i % 3)",
          source: i % 11 == 0 ? nil : "photos/p\(i).jpg", output: i % 13 == 0 ? nil : "out/p\(i).png",
          message: i % 2 == 0 ? "upscaling: \(i % 9) output pixels per source pixel" : "message \(i)",
          blocksRun: i % 17 == 0, kind: kind))
    }
    issues.append(PlanIssue(severity: .warning, job: "", source: "", output: "", message: "", blocksRun: false))
    var list = PlanIssueList()
    list += issues.prefix(5000)
    for issue in issues.dropFirst(5000) { list.append(issue) }
    XCTAssertEqual(list.count, issues.count)
    XCTAssertEqual(Array(list), issues)
    XCTAssertEqual(Array(PlanIssueList(issues)), issues)
  }

  /// Names of ASCII paths are taken byte by byte (`PathText.lastComponent`, `pathExtension`):
  /// the same answers as character by character, for every path of up to six pieces of
  /// "a", "/", "." and "\r\n" (one character of two bytes), and for non-ASCII paths.
  func testASCIIPathNamesAreTheCharacterAnswers() {
    let pieces = ["a", "/", ".", "\r\n"]
    var paths = [""]
    var level = [""]
    for _ in 0..<6 {
      level = level.flatMap { path in pieces.map { path + $0 } }
      paths += level
    }
    paths += ["photos/é.jpg", "é/b.jpg", "a/\u{301}.x", "/\u{301}", "x///p//", "d000/p00001.jpg"]
    for path in paths {
      let name = PathText.lastComponentByCharacters(path)
      XCTAssertEqual(PathText.lastComponent(path), name, path.debugDescription)
      let dot = name.lastIndex(of: ".")
      let ext = dot.map { $0 == name.startIndex ? "" : String(name[name.index(after: $0)...]) } ?? ""
      XCTAssertEqual(PathText.pathExtension(path), ext, path.debugDescription)
    }
    XCTAssertEqual(paths.count, 5_461 + 6)
  }

  func testKnownHeadersAreNotRead() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
    for i in 0..<20 {
      _ = FileManager.default.createFile(
        atPath: folder.appendingPathComponent("photos/p\(i).jpg").path, contents: Data([1]))
    }
    let job = folder.appendingPathComponent("job.yaml")
    try """
    version: 1
    output: out
    limits: {max_pixels: 1000000}
    jobs:
      thumbs: {sources: photos, guide: {shape: square, size: 64}, outputs: [{path: "{stem}.jpg"}]}

    """.write(to: job, atomically: true, encoding: .utf8)
    let file = try XCTUnwrap(JobFileLoader.load(path: job.path).jobFile)
    for known in [false, true] {
      let reader = FixedHeaders(known: known)
      let plan = Planner(limits: file.limits, headers: reader).plan(file)
      XCTAssertEqual(reader.headersRead, known ? 0 : 20)
      XCTAssertEqual(plan.outputs.count, 0)
      XCTAssertEqual(plan.sources.compactMap(\.error).count, 20)
      XCTAssertTrue(plan.sources[0].error?.contains("limits.max_pixels") ?? false)
    }
  }

  /// `AtomicWriter.write(to:)`: the pieces in order, or nothing at all (no temporary file
  /// left) when the producer fails part way.
  func testFileWrittenInPiecesAppearsWholeOrNotAtAll() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("doc.json").path
    try AtomicWriter.write(to: path) { (emit) throws(AtomicWriter.WriteError) in
      for i in 0..<100 { try emit(Array("piece \(i)\n".utf8)) }
    }
    let expected = (0..<100).map { "piece \($0)\n" }.joined()
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), expected)
    XCTAssertThrowsError(
      try AtomicWriter.write(to: path) { (emit) throws(AtomicWriter.WriteError) in
        try emit(Array("new".utf8))
        throw AtomicWriter.WriteError(path: path, message: "the producer failed")
      })
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), expected)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["doc.json"])
  }
}
