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

/// Crop tables in the plan: a table plans exactly as the same crops written inline, overrides
/// that match no source are one warning, and a large table is read with flat memory.
final class CropTablePlanTests: XCTestCase {
  /// Every file is a 1600x1000 JPEG (no image is opened).
  struct FixedHeaders: SourceHeaderReading {
    var engineVersion: String { "fixed-headers 1" }
    func start() {}
    func header(path: String) throws -> SourceHeader {
      SourceHeader(
        format: .jpeg, storedWidth: 1600, storedHeight: 1000, orientation: 1, bands: 3, hasAlpha: false, pages: 1)
    }
  }

  static let jobs = """
    version: 1
    output: out
    jobs:
      a: {sources: "photos/*.jpg", guide: {shape: square, size: 100}, outputs: [{path: "a/{stem}.jpg"}]}
      b: {sources: "photos/*.jpg", guide: {aspect: "16:9", width: 160}, outputs: [{path: "b/{stem}.jpg"}]}

    """

  /// One override per photo, of three kinds in turn: an exact crop (turned), a zoom about a
  /// focus point, and an offset with a rotation for job b only. As CSV cells and as YAML.
  static func crop(_ i: Int) -> (csv: String, yaml: String) {
    let source = String(format: "photos/p%05d.jpg", i)
    switch i % 3 {
    case 0:
      let (x, y, w, h, angle) = (i * 37 % 900, i * 53 % 400, 200 + i % 400, 150 + i % 350, Double(i % 21) - 10)
      return (
        "\(source),,\(x),\(y),\(w),\(h),\(angle),,,,,,",
        "{source: \(source), crop: {x: \(x), y: \(y), width: \(w), height: \(h), angle: \(angle)}}"
      )
    case 1:
      let (zoom, fx, fy) = (1 + Double(i % 30) / 10, Double(i % 100) / 100, Double(i % 77) / 77)
      return ("\(source),,,,,,,\(zoom),\(fx),\(fy),,,", "{source: \(source), zoom: \(zoom), focus: [\(fx), \(fy)]}")
    default:
      let (dx, dy, rotate) = (i % 41 - 20, i % 29 - 14, Double(i % 90) / 4)
      return (
        "\(source),b,,,,,,,,,\(dx),\(dy),\(rotate)",
        "{job: b, source: \(source), offset: [\(dx), \(dy)], rotate: \(rotate)}"
      )
    }
  }

  static let header = "source,job,x,y,width,height,angle,zoom,focus_x,focus_y,offset_x,offset_y,rotate\n"

  func testTenThousandRowTableGivesThePlanOfTheSameCropsInline() throws {
    let count = 10_000
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for i in 0..<count {
      _ = FileManager.default.createFile(
        atPath: photos.appendingPathComponent(String(format: "p%05d.jpg", i)).path, contents: nil)
    }
    let crops = (0..<count).map(Self.crop)
    try (Self.header + crops.map(\.csv).joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("crops.csv"), atomically: true, encoding: .utf8)
    let tableJob = folder.appendingPathComponent("table.yaml").path
    try (Self.jobs + "overrides_from: crops.csv\n").write(toFile: tableJob, atomically: true, encoding: .utf8)
    let inlineJob = folder.appendingPathComponent("inline.yaml").path
    try (Self.jobs + "overrides:\n" + crops.map { "  - \($0.yaml)\n" }.joined()).write(
      toFile: inlineJob, atomically: true, encoding: .utf8)
    var yamlLimits = YAMLLimits()
    (yamlLimits.maxBytes, yamlLimits.maxNodes) = (16 << 20, 1_000_000)  // inline, 10,000 need more than the defaults

    let table = JobFileLoader.load(path: tableJob)
    let inline = JobFileLoader.load(path: inlineJob, limits: yamlLimits)
    let tableFile = try XCTUnwrap(table.jobFile, "\(table.diagnostics.prefix(5))")
    let inlineFile = try XCTUnwrap(inline.jobFile, "\(inline.diagnostics.prefix(5))")
    XCTAssertEqual(tableFile.overrides.count, count)
    XCTAssertEqual(tableFile.cropTableRows, count)

    let planner = Planner(headers: FixedHeaders())
    let fromTable = planner.plan(tableFile)
    let fromInline = planner.plan(inlineFile)
    XCTAssertEqual(fromTable.outputs.count, 2 * count)
    XCTAssertEqual(fromTable.outputs.count, fromInline.outputs.count)
    XCTAssertEqual(fromTable.issues, fromInline.issues)
    var differing = 0
    for (t, i) in zip(fromTable.outputs, fromInline.outputs) {
      if t.path != i.path || t.place != i.place || t.geometry != i.geometry || t.recipe != i.recipe { differing += 1 }
    }
    XCTAssertEqual(differing, 0, "outputs whose placement differs between the table and inline overrides")
    // The overrides were applied: a job-less row changes both jobs' placement, a row for b only b's.
    let jobs = Dictionary(uniqueKeysWithValues: tableFile.jobs.map { ($0.name, $0.place) })
    let changed = fromTable.outputs.filter { $0.place != jobs[$0.job] }
    XCTAssertEqual(changed.filter { $0.job == "b" }.count, count, "every photo's output of b")
    XCTAssertEqual(changed.filter { $0.job == "a" }.count, count - count / 3, "a's outputs but those of b's rows")
  }

  func testOverridesOfNoSourceAreOneWarningWithTheirCount() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
    for name in ["p1.jpg", "p2.jpg"] {
      _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("photos/\(name)").path, contents: nil)
    }
    let rows =
      ["photos/p1.jpg,,2", "./photos/../photos/p2.jpg,a,2", "photos/p2.jpg,c,2"]
      + (0..<8).map { "photos/ghost\($0).jpg,,2" }
    try ("source,job,zoom\n" + rows.joined(separator: "\n")).write(
      to: folder.appendingPathComponent("crops.csv"), atomically: true, encoding: .utf8)
    let text =
      Self.jobs.replacingOccurrences(of: "  b: {sources: \"photos/*.jpg\"", with: "  b: {sources: \"photos/p1.jpg\"")
      .replacingOccurrences(
        of: "jobs:\n",
        with: "jobs:\n  c: {sources: \"photos/p1.jpg\", guide: {size: 50}, outputs: [{path: \"c/{stem}.jpg\"}]}\n")
      + "overrides_from: crops.csv\noverrides:\n  - {source: photos/ghost-inline.jpg, zoom: 3}\n"
    let path = folder.appendingPathComponent("job.yaml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let loaded = JobFileLoader.load(path: path)
    let file = try XCTUnwrap(loaded.jobFile, "\(loaded.diagnostics)")
    let plan = Planner(headers: FixedHeaders()).plan(file)
    let warnings = plan.issues.filter { $0.message.contains("match no source") }
    XCTAssertEqual(warnings.count, 1, "\(plan.issues)")
    let message = try XCTUnwrap(warnings.first?.message)
    XCTAssertTrue(message.hasPrefix("10 overrides match no source of the jobs they apply to"), message)
    XCTAssertTrue(
      message.contains("photos/p2.jpg for job c (\(folder.path)/crops.csv:4), photos/ghost0.jpg ("), message)
    XCTAssertTrue(message.hasSuffix(" and 5 more"), message)
    XCTAssertEqual(plan.issues.filter { $0.severity == .error }, [])
    // The row spelt ./photos/../photos/p2.jpg is p2.jpg's: applied, not warned about.
    let p2 = try XCTUnwrap(plan.outputs.first { $0.job == "a" && $0.path == "a/p2.jpg" })
    XCTAssertEqual(p2.place.zoom, 2)
  }

  /// A large generated table, validated: rows kept as overrides, no per-cell copies. Time and
  /// peak memory are printed, not asserted (the machine is shared); CROPJOB_TABLE_ROWS sets the
  /// size (a million is measured with a release build: see the CHANGELOG).
  func testALargeTableIsValidated() throws {
    let count = Int(ProcessInfo.processInfo.environment["CROPJOB_TABLE_ROWS"] ?? "") ?? 50_000
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = folder.appendingPathComponent("crops.csv")
    _ = FileManager.default.createFile(atPath: table.path, contents: Data(Self.header.utf8))
    let handle = try FileHandle(forWritingTo: table)
    try handle.seekToEnd()
    var chunk = ""
    for i in 0..<count {
      chunk += Self.crop(i).csv + "\n"
      if chunk.utf8.count > 1 << 20 {
        try handle.write(contentsOf: Data(chunk.utf8))
        chunk = ""
      }
    }
    try handle.write(contentsOf: Data(chunk.utf8))
    try handle.close()
    let path = folder.appendingPathComponent("job.yaml").path
    try (Self.jobs + "overrides_from: crops.csv\n").write(toFile: path, atomically: true, encoding: .utf8)
    let start = Date()
    let loaded = JobFileLoader.load(path: path)
    let seconds = Date().timeIntervalSince(start)
    XCTAssertEqual(loaded.diagnostics.count, 0, "\(loaded.diagnostics.prefix(3))")
    XCTAssertEqual(loaded.jobFile?.overrides.count, count)
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: table.path)[.size] as? Int) ?? 0
    print(
      "crop table: \(count) rows, \(bytes) bytes validated in \(String(format: "%.2f", seconds)) s; "
        + "peak RSS of the test process \(usage.ru_maxrss / 1024) MiB")
  }

  /// The index table under the override index and the duplicate check: found after growing,
  /// with colliding hashes, and not found when absent.
  func testIndexTableFindsEveryIndexAfterGrowing() {
    let keys = (0..<5000).map { "photos/\($0).jpg" }
    func hash(_ i: Int) -> Int { i % 7 == 0 ? 42 : keys[i].hashValue }  // every seventh collides
    var table = IndexTable()
    for i in keys.indices { table.insert(hash: hash(i), index: i, hashOf: hash) }
    for i in keys.indices {
      XCTAssertEqual(table.find(hash: hash(i)) { keys[$0] == keys[i] }, i)
    }
    XCTAssertNil(table.find(hash: "absent".hashValue) { _ in false })
  }

  /// docs/job-file.md lists the table's columns, and nothing else, in a `| column |` table.
  func testReferenceDocumentsEveryColumn() throws {
    let doc = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/job-file.md"), encoding: .utf8)
    var columns: [String] = []
    var inTable = false
    for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("| column |") {
        inTable = true
      } else if !line.hasPrefix("|") {
        inTable = false
      } else if inTable, let first = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces),
        first.hasPrefix("`")
      {
        columns.append(String(first.dropFirst().dropLast()))
      }
    }
    XCTAssertEqual(columns, JobSchema.cropTable.keys)
  }
}
