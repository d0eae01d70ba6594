import CropSupport
import XCTest

/// The compact string lists the plan holds its sources in (`StringTable`, `StringRuns`),
/// against plain arrays of `String`: the shared prefix `shrink` keeps once, and runs of
/// equal subfolders kept once.
final class StringTableTests: XCTestCase {
  static let listed = [
    "s3://bucket/in/d0000/p0000000.jpg", "s3://bucket/in/d0000/p0000001.jpg", "s3://bucket/in/d0001/p0001000.jpg",
    "s3://bucket/in/d0001/p0001001.jpg", "s3://bucket/in/dé/ü.jpg", "s3://bucket/in/d0001/p0001001.jpg",
  ]

  func table(_ strings: [String]) -> StringTable {
    var table = StringTable()
    for text in strings { table.append(text) }
    return table
  }

  /// Every string, hash, order and equality is the same before and after `shrink` takes the
  /// shared prefix out, and the bytes held shrink by it.
  func testTheSharedPrefixIsKeptOnce() {
    var table = table(Self.listed)
    let before = table.byteCount
    table.shrink()
    XCTAssertEqual(table.byteCount, before)
    XCTAssertEqual((0..<table.count).map { table[$0] }, Self.listed)
    for (i, text) in Self.listed.enumerated() {
      XCTAssertEqual(table.hash(i), HashSet64.hash(text), text)
      for (j, other) in Self.listed.enumerated() {
        XCTAssertEqual(table.less(i, j), text < other, "\(text) < \(other)")
        XCTAssertEqual(table.equal(i, j), text == other, "\(text) == \(other)")
      }
    }
    XCTAssertTrue(table.last(equals: Self.listed.last!))
    XCTAssertFalse(table.last(equals: "s3://bucket/in/d0001/p0001000.jpg"))
    XCTAssertFalse(table.last(equals: "d0001/p0001001.jpg"))
    XCTAssertFalse(table.isASCII)
    // A string without the prefix: every string gets it back.
    table.append("local/a.jpg")
    table.append("s3://bucket/in/d0002/p0002000.jpg")
    let all = Self.listed + ["local/a.jpg", "s3://bucket/in/d0002/p0002000.jpg"]
    XCTAssertEqual((0..<table.count).map { table[$0] }, all)
    XCTAssertEqual((0..<table.count).map { table.hash($0) }, all.map(HashSet64.hash))
  }

  /// `shrink` finds the prefix in the bytes: the memory a listing's paths take falls by it.
  func testShrinkDropsThePrefixBytes() {
    let paths = (0..<1000).map { "s3://bucket/photos/2026/p\($0).jpg" }
    var table = table(paths)
    table.shrink()
    // The strings' own bytes minus 999 copies of the 25-byte prefix.
    XCTAssertEqual(table.storedBytes, paths.reduce(0) { $0 + $1.utf8.count } - 999 * 25)
    XCTAssertEqual((0..<table.count).map { table[$0] }, paths)
  }

  /// `StringRuns` gives back each string, runs of equal ones kept once.
  func testRunsOfEqualStrings() {
    let strings = ["", "", "a", "a", "a", "b", "a", "dé", "dé", ""] + Array(repeating: "z", count: 50)
    var runs = StringRuns()
    for text in strings { runs.append(text) }
    runs.shrink()
    XCTAssertEqual(runs.count, strings.count)
    XCTAssertEqual((0..<runs.count).map { runs[$0] }, strings)
    XCTAssertEqual(runs.runCount, 7)
  }

  /// `partitionPoint` and `containsSorted` against a linear scan, at every cut of sorted
  /// arrays with repeats (the searches behind the plan's sorted hash lists).
  func testSortedSearchAgreesWithALinearScan() {
    for values in [[], [5], [1, 1, 1], [1, 2, 2, 3, 7, 7, 7, 9], Array(0..<37).map { $0 / 3 * 2 }] as [[UInt64]] {
      for probe in UInt64(0)...UInt64(30) {
        XCTAssertEqual(
          values.partitionPoint { $0 >= probe }, values.firstIndex { $0 >= probe } ?? values.count, "\(values) \(probe)"
        )
        XCTAssertEqual(values.containsSorted(probe), values.contains(probe), "\(values) \(probe)")
      }
      let slice = values.dropFirst(values.count / 2)
      XCTAssertEqual(slice.partitionPoint { $0 > 3 }, slice.firstIndex { $0 > 3 } ?? slice.endIndex, "\(values)")
    }
  }
}
