import CropGeometry
import CropSpec
import Foundation
import TestSupport
import XCTest

/// How a crop table's cells are read where exporters differ: spaces around CSV cells,
/// digits grouped with `_`, and paths in messages as the table writes them.
final class CropTableCellTests: XCTestCase {
  /// Loads `job.yaml` (jobs a and b) naming `crops.csv`, which holds `table`.
  func load(_ table: String) -> JobFileLoader.Result {
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    _ = FileManager.default.createFile(
      atPath: folder.appendingPathComponent("crops.csv").path, contents: Data(table.utf8))
    return CropTableReaderTests.loadJob(in: folder, table: "crops.csv")
  }

  func located(_ result: JobFileLoader.Result) -> [String] {
    result.diagnostics.map { d in
      "\(d.line):\(d.column): \(d.severity.rawValue): \(d.field.isEmpty ? "" : d.field + ": ")\(d.message)"
    }
  }

  /// ` 10` (a space after the comma, as some exporters write) is 10; spaces around a quoted
  /// cell are not its own, spaces inside the quotes are; a problem is located where the value
  /// starts.
  func testSpacesAroundCSVCellsAreTrimmed() throws {
    let result = load(
      """
      source, job , x, y,\twidth ,height
       a.jpg , a, 10, 20 ,30,40
      "b, c.jpg" ,  ,1, 2, 3 , 4
        " d .jpg"\t, b,1,2,3,4

      """)
    XCTAssertEqual(located(result), [])
    let table = try XCTUnwrap(result.jobFile?.overrides.table)
    XCTAssertEqual((0..<table.count).map { table.source(at: $0) }, ["a.jpg", "b, c.jpg", " d .jpg"])
    XCTAssertEqual((0..<table.count).map { table.job(at: $0) }, ["a", nil, "b"])
    XCTAssertEqual(table[0].place.crop, CropRect(x: 10, y: 20, width: 30, height: 40))
    XCTAssertEqual(table[1].place.crop, CropRect(x: 1, y: 2, width: 3, height: 4))
    let bad = load("source,x,y,width,height\na.jpg,1,2,   -3  ,4\n\"b.jpg\"  x,1,2,3,4\n")
    XCTAssertEqual(
      located(bad),
      [
        "2:14: error: width: expected a number between 1 and 1000000 but received the number -3",
        "3:10: error: expected a comma or the end of the row after a closing quote",
      ])
  }

  /// A number column reads `1_000` as 1000, as integer fields do and as the JSON Schema
  /// reads it (it said "expected a number but received the number 1_000"); a fraction does
  /// not group digits. The job file reads the same.
  func testDigitsGroupedWithUnderscoreAreNumbers() throws {
    let result = load("source,x,y,width,height\na.jpg,1_000,0,2_000,10\nb.jpg,1_000.5,0,10,10\n")
    XCTAssertEqual(
      located(result),
      ["3:7: error: x: expected a number between -1000000 and 1000000 but received the string \"1_000.5\""])
    let good = load("source,x,y,width,height\na.jpg,1_000,0,2_000,10\n")
    XCTAssertEqual(located(good), [])
    XCTAssertEqual(
      try XCTUnwrap(good.jobFile?.overrides.table)[0].place.crop, CropRect(x: 1000, y: 0, width: 2000, height: 10))
    let yaml = JobFileLoader.load(
      bytes: Array(
        """
        version: 1
        output: out
        jobs:
          a: {sources: a.jpg, guide: {size: 100}, outputs: [{path: "{stem}.jpg", encode: {max_bytes: 30_000}}]}
        overrides: [{source: a.jpg, crop: {x: 1_000, y: 0, width: 10, height: 10}}]

        """.utf8), path: "job.yaml")
    XCTAssertEqual(yaml.diagnostics.map(\.description), [])
    XCTAssertEqual(yaml.jobFile?.overrides.first?.place.crop?.x, 1000)
  }

  /// A second row of a source names it as the table writes it (an absolute path keeps its
  /// `/`), and an absolute path is not the relative path of the same letters.
  func testDuplicateRowsNameThePathAsGiven() {
    XCTAssertEqual(
      located(
        load("source,zoom\n/srv/photos/a.jpg,2\nsrv/photos/a.jpg,2\n/srv/./photos/a.jpg,3\n./b.jpg,2\nb.jpg,2\n")),
      [
        "4:1: error: source: expected one override per source and job but received a second override of "
          + "\"/srv/./photos/a.jpg\" (the first is line 2)",
        "6:1: error: source: expected one override per source and job but received a second override of "
          + "\"b.jpg\" (the first is line 5)",
      ])
  }
}
