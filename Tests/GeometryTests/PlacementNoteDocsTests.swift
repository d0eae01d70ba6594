import Foundation
import TestSupport
import XCTest

/// docs/geometry.md §2.10 lists every `PlacementNote` case in its table (issue 28's audit found
/// `downsizedToBudget` missing): the cases are read from the enum's source, the rows from the
/// page, so a new case without a row fails here.
final class PlacementNoteDocsTests: XCTestCase {
  func testEveryPlacementNoteCaseHasARowInGeometryDocs() throws {
    let enumFile = TestPaths.repoRoot.appendingPathComponent("Sources/CropGeometry/PlacementNote.swift")
    let source = try String(contentsOf: enumFile, encoding: .utf8)
    let declarations = source.components(separatedBy: "var description")[0]
    let cases = declarations.split(separator: "\n").compactMap { line -> String? in
      let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
      guard words.count == 2, words[0] == "case" else { return nil }
      return String(words[1].prefix { $0.isLetter || $0.isNumber })
    }
    XCTAssertGreaterThanOrEqual(cases.count, 10, "cases read from PlacementNote.swift: \(cases)")
    let docs = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/geometry.md"), encoding: .utf8)
    let notes = try XCTUnwrap(docs.components(separatedBy: "### 2.10 Notes").last)
      .components(separatedBy: "### 2.11")[0]
    let rows = notes.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for name in cases {
      XCTAssertTrue(
        rows.contains { $0.hasPrefix("| `\(name)`") || $0.hasPrefix("| `\(name)(") },
        "docs/geometry.md §2.10 has no row for PlacementNote.\(name)")
    }
  }
}
