import CropPlan
import CropSpec
import CropSupport
import Foundation
import TestSupport
import XCTest

/// `PathText.joiningComponents` (output names after their template, source paths after their
/// pattern) skips the split and join when its byte scan `isJoined` finds nothing to change. The
/// scan must agree with the split and join on every path, or a name would differ.
final class PathJoinTests: XCTestCase {
  /// The split and join the scan stands in for (what each caller did before it had a scan).
  static func splitAndJoin(_ path: String, keepingRoot: Bool, droppingDots: Bool) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") where !(droppingDots && part == ".") { parts.append(part) }
    return (keepingRoot && path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }

  /// The same over UTF-8 bytes, where every "/" byte splits (also one a combining mark joins
  /// to a character): the scan reads bytes, so it is exact against this one.
  static func splitAndJoinBytes(_ path: String, keepingRoot: Bool, droppingDots: Bool) -> [UInt8] {
    let slash = UInt8(ascii: "/")
    let parts = path.utf8.split(separator: slash).filter { !(droppingDots && Array($0) == [UInt8(ascii: ".")]) }
    let root: [UInt8] = keepingRoot && path.utf8.first == slash ? [slash] : []
    return root + Array(parts.joined(separator: [slash]))
  }

  /// Every path of up to six pieces of "a", "/", ".", "é" and a combining acute (which joins a
  /// "/" or "." before it into one character), and random paths of many components (empty,
  /// ".", "..", non-ASCII, leading and trailing slashes), under the four settings.
  func testTheByteScanAgreesWithTheSplitAndJoin() {
    let pieces = ["a", "/", ".", "é", "\u{301}"]
    var paths = [""]
    var level = [""]
    for _ in 0..<6 {
      level = level.flatMap { path in pieces.map { path + $0 } }
      paths += level
    }
    XCTAssertEqual(paths.count, 19_531)
    let components = ["", "", ".", "..", "a", "b.jpg", ".hidden", "x.", "日本", "é", "\u{301}", "🙂", "a b"]
    var random = SeededRandom(seed: 0x5EED)
    for _ in 0..<5_000 {
      let count = Int.random(in: 1...12, using: &random)
      var path = (0..<count).map { _ in components.randomElement(using: &random)! }.joined(separator: "/")
      if Bool.random(using: &random) { path = "/" + path }
      if Bool.random(using: &random) { path += "/" }
      paths.append(path)
    }
    var kept = 0
    for path in paths {
      for (keepingRoot, droppingDots) in [(false, false), (false, true), (true, false), (true, true)] {
        let label = "\(path.debugDescription) root \(keepingRoot) dots \(droppingDots)"
        let joined = Self.splitAndJoin(path, keepingRoot: keepingRoot, droppingDots: droppingDots)
        XCTAssertEqual(
          PathText.joiningComponents(path, keepingRoot: keepingRoot, droppingDots: droppingDots), joined, label)
        let isJoined = PathText.isJoined(path, keepingRoot: keepingRoot, droppingDots: droppingDots)
        let bytes = Self.splitAndJoinBytes(path, keepingRoot: keepingRoot, droppingDots: droppingDots)
        XCTAssertEqual(isJoined, bytes == Array(path.utf8), label)
        if isJoined { kept += 1 }
      }
    }
    // Both answers were met many times (the scan is not always yes or always no).
    XCTAssertGreaterThan(kept, 10_000)
    XCTAssertLessThan(kept, paths.count * 4 - 10_000)
  }

  /// What the two callers ask of it.
  func testOutputNamesAndSourcePaths() {
    XCTAssertEqual(PathText.joiningComponents("/x.jpg", keepingRoot: false, droppingDots: false), "x.jpg")
    XCTAssertEqual(PathText.joiningComponents("a//./x.jpg/", keepingRoot: false, droppingDots: false), "a/./x.jpg")
    XCTAssertEqual(PathText.joiningComponents("./a//../b/.", keepingRoot: true, droppingDots: true), "a/../b")
    XCTAssertEqual(PathText.joiningComponents("//a/./b", keepingRoot: true, droppingDots: true), "/a/b")
    XCTAssertEqual(PathText.joiningComponents("/", keepingRoot: true, droppingDots: true), "/")
    XCTAssertEqual(PathText.joiningComponents("/", keepingRoot: false, droppingDots: false), "")
    XCTAssertEqual(PathText.joiningComponents("a//\u{301}b", keepingRoot: false, droppingDots: false), "a//\u{301}b")
  }

  /// `PathText.appending` stands in for `NSString.appendingPathComponent` everywhere: the same
  /// bytes for every pair of strings of up to three pieces of "", "a", "/", ".", "é" and a
  /// combining acute, and for source-like paths.
  /// A sibling folder whose name starts with the root's is outside it: `out2` is not in `out`
  /// (the check compares whole path components, not a string prefix).
  func testASiblingFolderWithTheRootsNameAsPrefixIsOutside() {
    let root = "/tmp/cropjob-escape/out"
    XCTAssertNotNil(OutputPaths.escapeProblem("/tmp/cropjob-escape/out2/x.jpg", root: root))
    XCTAssertNotNil(OutputPaths.escapeProblem("/tmp/cropjob-escape/outside/x.jpg", root: root))
    XCTAssertNotNil(OutputPaths.escapeProblem("/tmp/cropjob-escape/out", root: root), "the root itself is no output")
    XCTAssertNil(OutputPaths.escapeProblem("/tmp/cropjob-escape/out/2/x.jpg", root: root))
  }

  func testAppendingIsNSStringsAppendingPathComponent() {
    let pieces = ["", "a", "/", ".", "é", "\u{301}"]
    var strings: Set<String> = []
    for a in pieces { for b in pieces { for c in pieces { strings.insert(a + b + c) } } }
    strings.formUnion(["/work/out", "/work/out/", "out//", "d000/i0001.jpg", "../x", "/"])
    for path in strings {
      for component in strings {
        XCTAssertEqual(
          Array(PathText.appending(path, component).utf8),
          Array((path as NSString).appendingPathComponent(component).utf8), "[\(path)] + [\(component)]")
      }
    }
  }
}
