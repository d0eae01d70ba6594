import CropGeometry
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Crop tables (`overrides_from`): CSV and JSON Lines read into the overrides they stand for,
/// and every bad cell, key and row located at line:column in the table, all at once.
final class CropTableReaderTests: XCTestCase {
  /// A folder with `crops.<ext>` holding `table` and `job.yaml` naming it.
  func load(
    _ table: String, ext: String = "csv", jobs: String = "[a, b]", extra: String = "",
    limits: CropTableLimits = CropTableLimits()
  ) -> (JobFileLoader.Result, folder: URL) {
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    _ = FileManager.default.createFile(
      atPath: folder.appendingPathComponent("crops.\(ext)").path, contents: Data(table.utf8))
    return (Self.loadJob(in: folder, table: "crops.\(ext)", jobs: jobs, extra: extra, limits: limits), folder)
  }

  /// Loads `job.yaml`, written in `folder` with one job per name of `jobs`.
  static func loadJob(
    in folder: URL, table: String, jobs: String = "[a, b]", extra: String = "", limits: CropTableLimits = .init()
  ) -> JobFileLoader.Result {
    let names = jobs.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let text =
      "version: 1\noutput: out\njobs:\n"
      + names.map { "  \($0): {sources: \"*.jpg\", guide: {size: 100}, outputs: [{path: \"\($0)/{stem}.jpg\"}]}\n" }
      .joined() + "overrides_from: \(table)\n" + extra
    let path = folder.appendingPathComponent("job.yaml").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return JobFileLoader.load(path: path, tableLimits: limits)
  }

  /// The diagnostics as `line:column: severity: field: message`, without the file.
  func located(_ result: JobFileLoader.Result) -> [String] {
    result.diagnostics.map { d in
      "\(d.line):\(d.column): \(d.severity.rawValue): \(d.field.isEmpty ? "" : d.field + ": ")\(d.message)"
    }
  }

  // MARK: - CSV

  func testCSVQuotesCRLFByteOrderMarkAndColumnsInAnyOrder() throws {
    let table =
      "\u{FEFF}zoom,source,job,focus_y,focus_x\r\n"
      + "2,\"a, with comma.jpg\",a,0.25,0.75\r\n"
      + "\r\n"
      + "1.5,\"say \"\"cheese\"\".jpg\",,,\r\n"
      + "3,\"two\nlines.jpg\",b,,\r\n"
      + "0.5,plain.jpg,,,"  // no line break at the end
    let (result, _) = load(table)
    let file = try XCTUnwrap(result.jobFile, located(result).joined(separator: "\n"))
    XCTAssertEqual(file.cropTableRows, 4)
    XCTAssertEqual(
      file.overrides.map(\.source), ["a, with comma.jpg", "say \"cheese\".jpg", "two\nlines.jpg", "plain.jpg"])
    XCTAssertEqual(file.overrides.map(\.job), ["a", nil, "b", nil])
    XCTAssertEqual(file.overrides.map(\.place.zoom), [2, 1.5, 3, 0.5])
    XCTAssertEqual(file.overrides[0].place.focus, .point(Point(x: 0.75, y: 0.25)))
    XCTAssertEqual(file.overrides[0].fields, ["zoom", "focus"])
    XCTAssertEqual(file.overrides.map(\.mark.line), [2, 4, 5, 7], "lines count the line break inside quotes")
    XCTAssertTrue(file.cropTable?.hasSuffix("/crops.csv") == true)
  }

  /// A row is the inline override it stands for: same place, same fields.
  func testCSVRowOfACropIsTheInlineOverrideOfThatCrop() throws {
    let (result, _) = load("source,x,y,width,height,angle\nk.jpg,10,20,300,200,-5\n")
    let file = try XCTUnwrap(result.jobFile, located(result).joined(separator: "\n"))
    let yaml = """
      version: 1
      output: out
      jobs: {a: {sources: "*.jpg", guide: {size: 100}, outputs: [{path: "{stem}.jpg"}]}}
      overrides: [{source: k.jpg, crop: {x: 10, y: 20, width: 300, height: 200, angle: -5}}]

      """
    let inline = try XCTUnwrap(JobFileLoader.load(bytes: Array(yaml.utf8), path: "job.yaml").jobFile)
    XCTAssertEqual(file.overrides.count, 1)
    XCTAssertEqual(file.overrides[0].fields, inline.overrides[0].fields)
    XCTAssertEqual(file.overrides[0].place, inline.overrides[0].place)
    XCTAssertEqual(file.overrides[0].place.crop, CropRect(x: 10, y: 20, width: 300, height: 200, angle: -5))
  }

  /// Each kind of bad cell, one per row, reported together, each at its cell.
  func testEveryBadCellIsLocatedAndAllAreReportedAtOnce() {
    let table = """
      source,job,x,y,width,height,angle,zoom,focus_x,focus_y,offset_x,offset_y,rotate
      a.jpg,,10,20,-3,40,,,,,,,
      b.jpg,,10,20,30,40,400,,,,,,
      c.jpg,,,,,,,big,,,,,
      d.jpg,,,,,,,,1.5,0.5,,,
      e.jpg,,,,,,,,,,7,,
      f.jpg,c,,,,,,2,,,,,
      g.jpg,,10,20,30,40,,2,,,,,
      h.jpg,,10,20,,40,,,,,,,
      ,,,,,,,2,,,,,
      i.jpg,,,,,,,,,,,,
      a.jpg,,,,,,,,,,,,90
      j.jpg,,,,,,,true,,,,,
      k.jpg,,,,,,,,,,,,-361
      """
    let (result, _) = load(table)
    XCTAssertNil(result.jobFile)
    XCTAssertEqual(
      located(result),
      [
        "2:14: error: width: expected a number between 1 and 1000000 but received the number -3",
        "3:20: error: angle: expected a number between -360 and 360 but received the number 400",
        "4:13: error: zoom: expected a number between 0.2 and 5 but received the string \"big\"",
        "5:14: error: focus_x: expected a number between 0 and 1 but received the number 1.5",
        "6:16: error: offset_y: expected offset_y with offset_x (the offset is a point [x, y]) but received "
          + "offset_x alone",
        "7:7: error: job: expected the name of a job (a, b) but received \"c\"",
        "8:21: error: zoom: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and "
          + "rotate) but received crop together with zoom",
        "9:8: error: width: expected the crop's width (crop needs x, y, width and height in source pixels) but "
          + "received no \"width\"",
        "10:1: error: source: expected the photo this override applies to but received no \"source\"",
        "11:1: error: expected crop or at least one place field but received an override without any",
        "12:1: error: source: expected one override per source and job but received a second override of "
          + "\"a.jpg\" (the first is line 2)",
        "13:13: error: zoom: expected a number between 0.2 and 5 but received true",
        "14:18: error: rotate: expected a number between -360 and 360 but received the number -361",
      ])
    XCTAssertTrue(result.diagnostics.allSatisfy { $0.file.hasSuffix("crops.csv") })
    XCTAssertTrue(
      result.diagnostics[0].description.hasSuffix(
        "crops.csv:2:14: error: width: expected a number "
          + "between 1 and 1000000 but received the number -3"))
  }

  /// `focus_x` and `focus_y` are numbers, as the schema says: names there are number errors,
  /// not the list of strategies `focus: [faces, attention]` is in YAML.
  func testFocusCellsAreNumbersNotStrategyNames() {
    let csv = "source,focus_x,focus_y\na.jpg,faces,attention\nb.jpg,centre,0.5\n"
    XCTAssertEqual(
      located(load(csv).0),
      [
        "2:7: error: focus_x: expected a number between 0 and 1 but received the string \"faces\"",
        "2:13: error: focus_y: expected a number between 0 and 1 but received the string \"attention\"",
        "3:7: error: focus_x: expected a number between 0 and 1 but received the string \"centre\"",
      ])
    let jsonl = #"{"source": "c.jpg", "focus_x": 0.5, "focus_y": "top"}"#
    XCTAssertEqual(
      located(load(jsonl, ext: "jsonl").0),
      ["1:48: error: focus_y: expected a number between 0 and 1 but received the string \"top\""])
  }

  func testCSVStructureProblemsAreLocated() {
    let table = "source,zoom\na.jpg,2,3\nb\"x.jpg,2\n\"c.jpg\"x,2\nd.jpg,2\n\"e.jpg,2\n"
    let (result, _) = load(table)
    XCTAssertEqual(
      located(result),
      [
        "2:1: error: expected 2 cells (the header's columns) but received 3",
        "3:2: error: a quote inside an unquoted cell; quote the whole cell and double its quotes",
        "4:8: error: expected a comma or the end of the row after a closing quote",
        "6:1: error: a quoted cell is not closed (a quote is missing)",
      ])
  }

  func testCSVHeaderProblems() {
    XCTAssertEqual(
      located(load("source,widht,zoom,zoom\n").0),
      [
        "1:8: error: expected one of the columns source, job, x, y, width, height, angle, zoom, focus_x, focus_y, "
          + "offset_x, offset_y, rotate, flip, scaleX, scaleY but received the unknown column \"widht\"; did you mean \"width\"?",
        "1:19: error: expected each column once but received \"zoom\" again",
      ])
    XCTAssertEqual(
      located(load("zoom,x\n").0),
      ["1:1: error: source: expected a source column (the photo of each row) but received no \"source\""])
    XCTAssertEqual(
      located(load("source,job\na.jpg,a\n").0),
      [
        "1:1: error: expected a column of the crop or of a place field (x, y, width, height, angle, zoom, focus_x, "
          + "focus_y, offset_x, offset_y, rotate, flip, scaleX, scaleY) but received only source, job"
      ])
    XCTAssertEqual(located(load("").0), ["1:1: error: expected a header row naming the columns but received none"])
  }

  // MARK: - JSON Lines

  func testJSONLinesValuesEscapesAndEmptyLines() throws {
    let table =
      #"{"source": "caf\u00e9 \ud83d\ude00.jpg", "zoom": 2e0, "job": "a"}"# + "\r\n\n   \n"
      + #"{ "x" : 0, "y": -0.5, "width": 1E2, "height": 10, "source": "q\"\\\/.jpg" }"# + "\n"
      + #"{"source":"r.jpg","offset_x":-3,"offset_y":4,"rotate":12.5}"#
    let (result, _) = load(table, ext: "jsonl")
    let file = try XCTUnwrap(result.jobFile, located(result).joined(separator: "\n"))
    XCTAssertEqual(file.overrides.map(\.source), ["café 😀.jpg", "q\"\\/.jpg", "r.jpg"])
    XCTAssertEqual(file.overrides[0].place.zoom, 2)
    XCTAssertEqual(file.overrides[1].place.crop, CropRect(x: 0, y: -0.5, width: 100, height: 10))
    XCTAssertEqual(file.overrides[2].place.offset, Point(x: -3, y: 4))
    XCTAssertEqual(file.overrides[2].place.rotate, 12.5)
    XCTAssertEqual(file.overrides.map(\.mark.line), [1, 4, 5])
  }

  func testJSONLinesProblemsAreLocated() {
    let table = [
      #"{"source": "a.jpg", "width": -3, "x": 1, "y": 2, "height": 4}"#,
      #"{"source": "b.jpg", "zoom": "2"}"#,
      #"{"source": 5, "zoom": 2, "zom": 1}"#,
      #"{"source": "c.jpg", "zoom": 2,}"#,
      #"{"source": "é.jpg", "focus_x": [1], "focus_y": null}"#,
      #"["d.jpg"]"#,
      #"{"source": "e.jpg", "zoom": 01}"#,
      #"{"source": "f.jpg", "zoom": 2} x"#,
      #"{"source": "g.jpg", "source": "h.jpg", "zoom": 2}"#,
      #"{"source": "i.jpg, "zoom": 2}"#,
    ].joined(separator: "\n")
    XCTAssertEqual(
      located(load(table, ext: "jsonl").0),
      [
        "1:30: error: width: expected a number between 1 and 1000000 but received the number -3",
        "2:29: error: zoom: expected a number between 0.2 and 5 but received the string \"2\"",
        "3:12: error: source: expected a source path but received the number 5 (quote it: \"5\")",
        "3:26: error: expected one of the columns source, job, x, y, width, height, angle, zoom, focus_x, focus_y, "
          + "offset_x, offset_y, rotate, flip, scaleX, scaleY but received the unknown column \"zom\"; did you mean \"zoom\"?",
        "4:31: error: expected a key in double quotes but received \"}\"",
        "5:32: error: focus_x: expected a number between 0 and 1 but received a list",
        "5:48: error: focus_y: expected a number between 0 and 1 but received null",
        "6:1: error: expected a JSON object ({\"source\": …}) but received \"[\"",
        "7:29: error: expected a JSON value (a string, a number, true or false) but received \"0\"",
        "8:32: error: expected the end of the line after the object but received \"x\"",
        "9:21: error: expected each key once but received \"source\" again",
        "10:21: error: expected a comma or the end of the object but received \"z\"",
      ])
  }

  // MARK: - The job file's side

  func testTheTableIsNamedAndReadRelativeToTheJobFile() {
    let wrong = load("source,zoom\n", ext: "txt").0
    XCTAssertEqual(
      located(wrong),
      [
        "6:17: error: overrides_from: expected a crop table: a .csv or .jsonl file but received the string \"crops.txt\""
      ])
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let absent = Self.loadJob(in: folder, table: "absent.csv")
    XCTAssertEqual(absent.diagnostics.count, 1)
    XCTAssertEqual(absent.diagnostics.first?.field, "overrides_from")
    XCTAssertEqual(absent.diagnostics.first?.line, 6)
    XCTAssertTrue(absent.diagnostics.first?.message.contains("No such file") == true, "\(absent.diagnostics)")
    try? FileManager.default.createDirectory(
      at: folder.appendingPathComponent("dir.csv"), withIntermediateDirectories: true)
    let directory = Self.loadJob(in: folder, table: "dir.csv")
    XCTAssertTrue(
      directory.diagnostics.first?.message.contains("not a regular file") == true, "\(directory.diagnostics)")
  }

  /// Rows apply first and inline overrides after them, so an inline override wins; an
  /// inline override of a source the table has too is no duplicate.
  func testInlineOverridesComeAfterTheRowsAndWin() throws {
    let (result, _) = load(
      "source,zoom,rotate\nk.jpg,2,10\n", extra: "overrides:\n  - {source: k.jpg, zoom: 3}\n")
    let file = try XCTUnwrap(result.jobFile, located(result).joined(separator: "\n"))
    XCTAssertEqual(file.cropTableRows, 1)
    XCTAssertEqual(file.overrides.map(\.place.zoom), [2, 3])
    let place = file.overrides.reduce(PlaceSpec()) { $0.applying($1) }
    XCTAssertEqual(place.zoom, 3)
    XCTAssertEqual(place.rotate, 10)
  }

  // MARK: - Damaged tables

  /// Seeded damage (bytes replaced, inserted, deleted, lines cut) to a valid CSV and JSON
  /// Lines table: every copy gives a job file or diagnostics located in the table, never a
  /// crash, and a job file exactly when there is no error.
  func testDamagedTablesGiveDiagnosticsNotCrashes() throws {
    let csv =
      "source,job,x,y,width,height,angle,zoom,focus_x,focus_y\n\"a, b.jpg\",a,1,2,30,40,5,,,\nc.jpg,,,,,,,2,0.5,0.5\n"
    let jsonl =
      #"{"source": "a.jpg", "job": "a", "x": 1, "y": 2, "width": 30, "height": 40}"# + "\n"
      + #"{"source": "c\u00e9.jpg", "zoom": 2, "focus_x": 0.5, "focus_y": 0.5}"# + "\n"
    var random = SeededRandom(seed: 14)
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let alphabet = Array(",\"\r\n{}[]:\\ab.0-9e\u{FEFF}é".utf8)
    for (ext, text) in [("csv", csv), ("jsonl", jsonl)] {
      for _ in 0..<150 {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          switch Int.random(in: 0..<4, using: &random) {
          case 0: bytes[at] = alphabet.randomElement(using: &random)!
          case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
          case 2: if bytes.count > 1 { bytes.remove(at: at) }
          default: bytes = Array(bytes.prefix(at))
          }
          if bytes.isEmpty { bytes = [0x7B] }
        }
        let table = folder.appendingPathComponent("crops.\(ext)")
        try Data(bytes).write(to: table)
        let result = Self.loadJob(in: folder, table: "crops.\(ext)")
        XCTAssertEqual(result.jobFile == nil, result.diagnostics.hasErrors, String(decoding: bytes, as: UTF8.self))
        for d in result.diagnostics where d.field != "overrides_from" {
          XCTAssertTrue(d.file.hasSuffix("crops.\(ext)") && d.line >= 1 && d.column >= 1, "\(d)")
        }
      }
    }
  }

  // MARK: - Limits

  func testLimitsStopAHostileTable() {
    var limits = CropTableLimits()
    limits.maxRowBytes = 64
    let long = "source,zoom\n" + String(repeating: "x", count: 100) + ".jpg,2\nb.jpg,2\n"
    XCTAssertEqual(
      located(load(long, limits: limits).0), ["2:1: error: the row is longer than 64 bytes (the limit); reading stops"])
    XCTAssertEqual(
      located(load("{\"source\": \"\(String(repeating: "x", count: 100))\"}\n", ext: "jsonl", limits: limits).0),
      ["1:1: error: the line is longer than 64 bytes (the limit); reading stops"])
    limits = CropTableLimits()
    limits.maxRows = 2
    XCTAssertEqual(
      located(load("source,zoom\na.jpg,2\nb.jpg,2\nc.jpg,2\n", limits: limits).0),
      ["4:1: error: the crop table has more than 2 rows (the limit); reading stops"])
    limits = CropTableLimits()
    limits.maxDiagnostics = 3
    let bad = "source,zoom\n" + (1...10).map { "p\($0).jpg,9\n" }.joined()
    let capped = located(load(bad, limits: limits).0)
    XCTAssertEqual(capped.count, 4, "\(capped)")
    XCTAssertTrue(capped.contains("4:1: error: 3 problems in the crop table (the limit); reading stops"), "\(capped)")
    limits = CropTableLimits()
    limits.maxBytes = 10
    let big = load("source,zoom\na.jpg,2\n", limits: limits).0
    XCTAssertEqual(big.diagnostics.map(\.field), ["overrides_from"])
    XCTAssertTrue(big.diagnostics.first?.message.contains("the limit is 10 bytes") == true, "\(big.diagnostics)")
  }

  /// Rows are decoded in batches on all cores; what depends on the order is still decided in
  /// the table's order: a duplicate 30,000 rows after its first, problems counted to the
  /// limit across batches, then reading stops where a single pass stops.
  func testOrderDependentChecksHoldAcrossBatches() {
    var rows = (0..<30_000).map { "p\($0).jpg,2\n" }
    rows.append("p3.jpg,2\n")
    let duplicate = located(load("source,zoom\n" + rows.joined()).0)
    XCTAssertEqual(
      duplicate,
      [
        "30002:1: error: source: expected one override per source and job but received a second override of "
          + "\"p3.jpg\" (the first is line 5)"
      ])
    var limits = CropTableLimits()
    limits.maxDiagnostics = 20_000
    let bad = "source,zoom\n" + (0..<40_000).map { "q\($0).jpg,\($0 % 2 == 0 ? "9" : "2")\n" }.joined()
    let capped = located(load(bad, limits: limits).0)
    XCTAssertEqual(capped.count, 20_001)
    XCTAssertEqual(
      capped.filter { $0.contains("(the limit); reading stops") },
      [
        "40000:1: error: 20000 problems in the crop table (the limit); reading stops"
      ])
    XCTAssertEqual(capped.first, "2:8: error: zoom: expected a number between 0.2 and 5 but received the number 9")
  }
}
