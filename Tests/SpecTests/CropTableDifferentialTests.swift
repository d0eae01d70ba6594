import CropGeometry
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The crop table's fast decoder (cells straight into values) against the general one (each
/// row as the YAML node of the inline override it stands for): the same rows, the same
/// overrides, the same diagnostics in the same order, text and positions, for valid and
/// invalid rows of every kind, in CSV and JSON Lines. So the two cannot drift apart.
final class CropTableDifferentialTests: XCTestCase {
  static let header = "source,job,x,y,width,height,angle,zoom,focus_x,focus_y,offset_x,offset_y,rotate\n"

  struct Decoded {
    var diagnostics: [Diagnostic]
    var rows: CropTableRows
  }

  /// Decodes a job file (jobs `a` and `b`) in `folder` naming `table` with `decoding`: every
  /// diagnostic in the order found, and the table's rows, also when some rows have problems.
  func decode(
    _ table: [UInt8], ext: String, settings: String = "", in folder: URL, decoding: CropTableDecoding
  ) throws -> Decoded {
    try Data(table).write(to: folder.appendingPathComponent("crops.\(ext)"))
    let path = folder.appendingPathComponent("job.yaml").path
    let yaml = """
      version: 1
      output: out
      jobs:
        a: {sources: "*.jpg", guide: {size: 100}, outputs: [{path: "a/{stem}.jpg"}]}
        b: {sources: "*.jpg", guide: {size: 100}, outputs: [{path: "b/{stem}.jpg"}]}
      overrides_from: {path: crops.\(ext)\(settings)}

      """
    var limits = CropTableLimits()
    limits.maxDiagnostics = 1_000_000
    var decoder = SpecDecoder(file: path, formats: .unchecked, tableLimits: limits)
    decoder.tableDecoding = decoding
    let file = try XCTUnwrap(decoder.decode(root: try YAMLParser.parse(yaml), path: path))
    return Decoded(diagnostics: decoder.reader.diagnostics, rows: file.overrides.table)
  }

  /// Decodes `table` both ways and holds the results equal; returns the fast decoder's.
  @discardableResult
  func assertSame(
    _ table: [UInt8], ext: String = "csv", settings: String = "", file: StaticString = #filePath, line: UInt = #line
  ) throws -> Decoded {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fast = try decode(table, ext: ext, settings: settings, in: folder, decoding: .fast)
    let general = try decode(table, ext: ext, settings: settings, in: folder, decoding: .general)
    XCTAssertEqual(fast.diagnostics.count, general.diagnostics.count, "diagnostics", file: file, line: line)
    for (f, g) in zip(fast.diagnostics, general.diagnostics) where f != g {
      XCTFail("first differing diagnostic:\n  fast:    \(f)\n  general: \(g)", file: file, line: line)
      break
    }
    XCTAssertEqual(fast.rows.count, general.rows.count, "rows", file: file, line: line)
    XCTAssertEqual(general.rows.generalRowCount, general.rows.count, file: file, line: line)
    for i in 0..<min(fast.rows.count, general.rows.count) {
      let (f, g) = (fast.rows[i], general.rows[i])
      // The printed placement tells -0 from 0, which == does not.
      if f.source != g.source || f.job != g.job || f.place != g.place || "\(f.place)" != "\(g.place)"
        || f.fields != g.fields || f.mark != g.mark || f.framedCrop != g.framedCrop
      {
        XCTFail("row \(i) differs:\n  fast:    \(f)\n  general: \(g)", file: file, line: line)
        break
      }
      XCTAssertEqual(fast.rows.source(at: i), g.source, file: file, line: line)
      XCTAssertEqual(fast.rows.job(at: i), g.job, file: file, line: line)
    }
    return fast
  }

  // MARK: - Rows of every kind

  func testValidCSVRowsGiveTheSameOverridesAndTheFastDecoderTakesThemAll() throws {
    let rows = [
      "a.jpg,,10,20,300,200,,,,,,,",  // a crop without angle
      "b.jpg,a,10.5,-20,300,200,-5,,,,,,",  // with angle and a job
      "c.jpg,,,,,,,2,,,,,",
      "d.jpg,b,,,,,,0.2,0.5,0.25,,,",
      "e.jpg,,,,,,,,,,-3,4,12.5",
      "\"f, g.jpg\",,,,,,,,0,1,,,",  // a quoted cell, the ends of focus
      "\"h \"\"q\"\".jpg\",,,,,,,5,,,,,",
      "./i.jpg,,,,,,,+1.5,,,,,",
      "j.jpg,,-0,0,1,1,-0.0,,,,,,",  // negative zeros
      "k.jpg,,1e3,.5,5.,1E2,,,,,,,",
      "l.jpg,,,,,,,\"2\",,,,,",  // CSV has no types: a quoted 2 is the number 2
      "m.jpg,,,,,,,1.23456789012345678,,,,,",  // more digits than the exact shortcut takes
      "n.jpg,,0.1,0.2,1.5,1000000,360,,,,,,",
      "2024,,,,,,,1,,,,,",  // a source is a string
      "o.jpg,a,,,,,,1,,,,,",
      "o.jpg,b,,,,,,1,,,,,",
      "o.jpg,,,,,,,1,,,,,",  // one source, three jobs
      "café.jpg,,,,,,,1,,,,,",
      "p.jpg,,,,,,,,,,100000,-100000,-360",
      "q.jpg,,-1000000,1000000,1,1,,,,,,,",
      "r.jpg,,,,,,,0.30000000000000004,,,,,",
    ]
    let decoded = try assertSame(Array((Self.header + rows.joined(separator: "\r\n") + "\n").utf8))
    XCTAssertEqual(decoded.diagnostics, [])
    XCTAssertEqual(decoded.rows.count, rows.count)
    XCTAssertEqual(decoded.rows.generalRowCount, 0, "the fast decoder takes every valid row")
    XCTAssertEqual(decoded.rows[1].place.crop, CropRect(x: 10.5, y: -20, width: 300, height: 200, angle: -5))
    XCTAssertEqual(decoded.rows[9].place.crop, CropRect(x: 1000, y: 0.5, width: 5, height: 100))
    XCTAssertEqual(decoded.rows[20].place.zoom, 0.30000000000000004)
  }

  func testInvalidCSVRowsGiveTheSameDiagnostics() throws {
    let rows = [
      "a.jpg,,,,,,,2,,,,,",
      "o.jpg,,10,20,-3,40,,,,,,,",  // negative width
      "p.jpg,,,,,,,nan,,,,,", "p2.jpg,,,,,,,NaN,,,,,", "p3.jpg,,,,,,,.nan,,,,,",
      "q.jpg,,,,,,,inf,,,,,", "q2.jpg,,,,,,,-.inf,,,,,", "q3.jpg,,,,,,,Infinity,,,,,",
      "r.jpg,,,,,,,1e400,,,,,", "r2.jpg,,,,,,,1e-400,,,,,",
      "s.jpg,,,,,,,0x10,,,,,", "t.jpg,,,,,,,1_0,,,,,", "u.jpg,,,,,,,true,,,,,", "v.jpg,,,,,,,~,,,,,",
      "v2.jpg,,,,,,,null,,,,,", "v3.jpg,,,,,,, 2,,,,,", "v4.jpg,,,,,,,2 ,,,,,", "v5.jpg,,,,,,,1e,,,,,",
      "v6.jpg,,,,,,,.,,,,,", "v7.jpg,,,,,,,-,,,,,", "v8.jpg,,,,,,,1.2.3,,,,,",
      "w.jpg,,,,,,,\"\",,,,,",  // an empty quoted cell is not set: nothing is set
      "x.jpg,,,,,,,,,,,,",
      ",,,,,,,2,,,,,",  // no source
      "y.jpg,c,,,,,,2,,,,,",  // a job the file does not declare
      "y2.jpg,A,,,,,,2,,,,,",
      "z.jpg,,10,20,30,40,,2,,,,,",  // crop with zoom
      "z2.jpg,,10,20,30,40,5,,0.5,0.5,1,1,3",
      "aa.jpg,,10,20,,40,,,,,,,", "ab.jpg,,,,,,5,,,,,,", "ac.jpg,,1,,,,,,,,,,",
      "ad.jpg,,,,,,,,0.5,,,,", "ae.jpg,,,,,,,,,0.5,,,", "af.jpg,,,,,,,,,,,1,",
      "ag.jpg,,,,,,,,faces,attention,,,", "ah.jpg,,,,,,,,centre,0.5,,,", "ai.jpg,,,,,,,,,,top,1,",
      "aj.jpg,,,,,,,0.1999,1.5,-0.1,,,361",
      "ak.jpg,,1000001,-1000001,0.5,1000001,-361,,,,,,",
      "al.jpg,,,,,,,,,,100001,-100001,",
      "a.jpg,,,,,,,3,,,,,",  // a duplicate
      "./a.jpg,,,,,,,3,,,,,",  // the same path
      "a.jpg,a,,,,,,3,,,,,",  // another job: no duplicate
      "a.jpg,a,,,,,,3,,,,,",  // but twice for it is
      "o.jpg,,,,,,,2,,,,,",  // a duplicate of a row with a problem
      "café.jpg,,,,,,,1,,,,,", "cafe\u{301}.jpg,,,,,,,1,,,,,",  // one text, two spellings
      "am.jpg,,,,,,,2,,,,",  // a cell short
      "an.jpg,,,,,,,2,,,,,,",  // a cell too many
      "a\"o.jpg,,,,,,,2,,,,,",  // a quote inside an unquoted cell
      "\"ap.jpg\"x,,,,,,,2,,,,,",
    ]
    var bytes = Array((Self.header + rows.joined(separator: "\n") + "\n").utf8)
    bytes += Array("bad".utf8) + [0xFF] + Array(".jpg,,,,,,,2,,,,,\n".utf8)  // not UTF-8
    let decoded = try assertSame(bytes)
    XCTAssertGreaterThan(decoded.diagnostics.count, rows.count - 5)
    XCTAssertEqual(decoded.rows.generalRowCount, 0)
  }

  func testHeaderProblemsAreTheReaderAndTheSameForBoth() throws {
    try assertSame(Array("source,widht,zoom,zoom\na.jpg,1,2,3\n".utf8))
    try assertSame(Array("zoom,x\n2,3\n".utf8))
    try assertSame(Array("source,job\na.jpg,a\n".utf8))
  }

  func testJSONLinesRowsGiveTheSameOverridesAndDiagnostics() throws {
    let valid = [
      #"{"source": "a.jpg", "x": 1, "y": 2, "width": 3, "height": 4}"#,
      #"{"source":"b.jpg","job":"a","zoom":2,"focus_x":0.5,"focus_y":0.5}"#,
      #"{"source": "c\u00e9.jpg", "offset_x": -1e2, "offset_y": 0, "rotate": -0}"#,
      #"{"rotate": 1.5E1, "source": "d\"q\".jpg", "job": "b"}"#,
      #"{"source": "2024", "angle": -0.0, "height": 1e0, "width": 1, "y": 0, "x": 0}"#,
    ]
    let decoded = try assertSame(Array(valid.joined(separator: "\n").utf8), ext: "jsonl")
    XCTAssertEqual(decoded.diagnostics, [])
    XCTAssertEqual(decoded.rows.count, valid.count)
    XCTAssertEqual(decoded.rows.generalRowCount, 0)
    let invalid = [
      #"{"source": "e.jpg", "zoom": "2"}"#, #"{"source": "f.jpg", "zoom": true}"#,
      #"{"source": "g.jpg", "zoom": null}"#, #"{"source": "h.jpg", "zoom": [1]}"#,
      #"{"source": "i.jpg", "zoom": {"a": 1}}"#, #"{"source": 5, "zoom": 2}"#, #"{"source": "", "zoom": 2}"#,
      #"{"source": true, "zoom": 2}"#, #"{"source": ["j.jpg"], "zoom": 2}"#,
      #"{"source": "k.jpg", "job": 3, "zoom": 2}"#,
      #"{"source": "l.jpg", "job": "c", "zoom": 2}"#, #"{"source": "m.jpg", "zoom": 1e400}"#,
      #"{"source": "n.jpg", "zom": 2}"#, #"{"source": "o.jpg", "zoom": 2, "zoom": 3}"#,
      #"{"source": "p.jpg", "focus_x": "faces", "focus_y": 0.5}"#, #"{"source": "q.jpg", "x": 1, "zoom": 2}"#,
      #"{"source": "a.jpg", "zoom": 2}"#, #"{"source": "r.jpg"}"#, #"{}"#, #"[1]"#,
      #"{"source": "s.jpg", "zoom": 01}"#, #"{"source": "t.jpg", "zoom": 2,}"#,
    ]
    try assertSame(Array((valid + invalid).joined(separator: "\n").utf8), ext: "jsonl")
  }

  // MARK: - Seeded random rows

  /// Numbers of every kind, valid or not, for any number column.
  static let numbers = [
    "0", "1", "-1", "2.5", "-0", "1e3", "0.2", "5", "5.0001", "0.19999", "1000000", "1000001", "-1000000", "360",
    "-360.5", "nan", "inf", "abc", "true", "~", "0x1F", "1_000", ".5", "5.", "+3", "1e-5", "0.5", "1", "2", "0.75",
    "12345678901234567", "-99999.5", "100000", "3.14159", "1E+2", "0.000001",
  ]

  /// Numbers valid in every number column but width and height (0…1, or 1 there).
  static let valid = [
    "0", "0.5", "0.25", "1", "0.2", "0.75", "0.999", "-0", "1e-1", ".5", "1.", "0.123456789012345678",
  ]

  /// A random row of cells: mostly one of the valid shapes, with a random number (mostly a
  /// valid one), empty cells and, now and then, a cell of another shape or a bad source.
  static func randomRow(_ i: Int, using random: inout SeededRandom) -> [String] {
    var cells = Array(repeating: "", count: 13)
    let sources = [
      "p\(i).jpg", "p\(i).jpg", "p\(i / 2).jpg", "./p\(i).jpg", "dir//p\(i).jpg", "\"p, \(i).jpg\"", "",
      "q\(i % 7).jpg",
    ]
    cells[0] = sources[Int.random(in: 0..<12, using: &random) % sources.count]
    cells[1] = ["", "", "", "a", "b", "c"].randomElement(using: &random)!
    func number() -> String {
      Int.random(in: 0..<5, using: &random) == 0
        ? numbers.randomElement(using: &random)! : valid.randomElement(using: &random)!
    }
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      for c in 2...5 { cells[c] = number() }
      if cells[4].hasPrefix("0") || cells[4].hasPrefix(".") || cells[4].hasPrefix("-") { cells[4] = "1" }
    case 1: for c in 7...9 { cells[c] = number() }
    case 2: for c in 10...12 { cells[c] = number() }
    default: for c in 2...12 where Bool.random(using: &random) && Bool.random(using: &random) { cells[c] = number() }
    }
    if Int.random(in: 0..<5, using: &random) == 0 { cells[Int.random(in: 2...12, using: &random)] = number() }
    return cells
  }

  /// The frames and units of croppers, and the mirror columns: valid rows are the fast
  /// decoder's, and both decoders give the same overrides and diagnostics for every row.
  func testRowsInEveryFrameAndUnit() throws {
    let header = "source,job,x,y,width,height,angle,zoom,rotate,flip,scaleX,scaleY\n"
    let valid = [
      "a.jpg,,1,2,30,40,,,90,,-1,1", "b.jpg,a,0.5,0,3,4,,,-45,horizontal,,", "c.jpg,,1,2,30,40,,,,both,,",
      "d.jpg,b,1,2,30,40,,,,,1,-1.0", "e.jpg,,1000,2,30,40,,,20.5,,,",
    ]
    let invalid = [
      "f.jpg,,1,2,30,40,5,,,,,", "g.jpg,,1,2,30,40,,2,,,,", "h.jpg,,1,2,30,40,,,,left,,", "i.jpg,,1,2,30,40,,,,,2,",
      "j.jpg,,1,2,30,40,,,,none,-1,", "k.jpg,,,,,,,,,horizontal,,", "l.jpg,,1,2,0.00001,40,,,,,,",
      "m.jpg,,1,2,30,,,,,,,", "a.jpg,,1,2,30,40,,,,,,", "n.jpg,,1,2,30,40,,,,,true,", "o.jpg,,1,2,30,40,,,,,,0",
      "p.jpg,,1_000,2,30,40,,,,,,",
    ]
    let relative = [
      "a.jpg,,0.1,0.2,0.3,0.4,,,90,,-1,1", "b.jpg,a,-0.5,0,3,4,,,-45,horizontal,,", "c.jpg,,1,2,0.0001,10,,,,both,,",
    ]
    for (settings, valid) in [
      (", frame: cropperjs", valid), (", frame: cropperjs, check_orientation: false, units: relative", relative),
      (", frame: react-easy-crop, units: percent", valid),
    ] {
      let decoded = try assertSame(Array((header + valid.joined(separator: "\n")).utf8), settings: settings)
      XCTAssertEqual(decoded.diagnostics, [], settings)
      XCTAssertEqual(decoded.rows.generalRowCount, 0, "the fast decoder takes every valid row: \(settings)")
      XCTAssertNotNil(decoded.rows[0].framedCrop, settings)
      try assertSame(Array((header + (valid + invalid).joined(separator: "\n")).utf8), settings: settings)
    }
    // Frame upright: flip is place.flip, scaleX is not a column; relative units.
    let upright = ["a.jpg,,1,2,30,40,3,,,horizontal,,", "b.jpg,,,,,,,2,,none,,", "c.jpg,,,,,,,,,both,,"]
    let decoded = try assertSame(Array((header + upright.joined(separator: "\n")).utf8))
    XCTAssertEqual(decoded.rows.generalRowCount, 0)
    XCTAssertEqual(decoded.rows[0].fields, ["crop", "flip"])
    try assertSame(Array((header + (upright + invalid).joined(separator: "\n")).utf8))
    try assertSame(
      Array((header + (upright + valid + invalid).joined(separator: "\n")).utf8), settings: ", units: relative")
  }

  func testSeededRandomCSVRows() throws {
    var random = SeededRandom(seed: 1414)
    let rows = (0..<3000).map { Self.randomRow($0, using: &random).joined(separator: ",") }
    let decoded = try assertSame(Array((Self.header + rows.joined(separator: "\n")).utf8))
    XCTAssertGreaterThan(decoded.rows.count, 200, "some rows are valid")
    XCTAssertGreaterThan(decoded.diagnostics.count, 200, "some are not")
  }

  func testSeededRandomJSONLinesRows() throws {
    var random = SeededRandom(seed: 1415)
    let names = Self.header.dropLast().split(separator: ",").map(String.init)
    let rows = (0..<3000).map { i -> String in
      let cells = Self.randomRow(i, using: &random)
      let members = zip(names, cells).filter { !$0.1.isEmpty }.map { name, cell -> String in
        let text = cell.hasPrefix("\"") ? String(cell.dropFirst().dropLast()) : cell
        let isNumber =
          (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) is NSNumber
        // Text columns are strings; a number column's cell is a JSON number when it is one,
        // else now and then the number as a string, a literal or an array.
        if name == "source" || name == "job" || !isNumber {
          return "\"\(name)\": " + (Int.random(in: 0..<30, using: &random) == 0 ? "[\"\(text)\"]" : "\"\(text)\"")
        }
        let forms = ["\"\(text)\"", "true", "null", "[\(text)]"]
        return "\"\(name)\": "
          + (Int.random(in: 0..<12, using: &random) == 0 ? forms.randomElement(using: &random)! : text)
      }
      return "{" + members.joined(separator: ", ") + "}"
    }
    let decoded = try assertSame(Array(rows.joined(separator: "\n").utf8), ext: "jsonl")
    XCTAssertGreaterThan(decoded.rows.count, 200, "some rows are valid")
    XCTAssertGreaterThan(decoded.diagnostics.count, 200, "some are not")
  }
}
