import CropKit
import Foundation
import XCTest

/// The number grammar of plain YAML scalars, checked against the regular expressions the
/// docs state (an independent reading), over every string of up to four characters from an
/// alphabet of the characters that matter, plus hand-picked longer ones.
final class ScalarGrammarTests: XCTestCase {
  private let alphabet = ["0", "7", "-", "+", ".", "e", "E", "_", "x"]

  private func strings(upTo length: Int) -> [String] {
    var all = [""]
    var level = [""]
    for _ in 0..<length {
      level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
      all += level
    }
    return all
  }

  private func matcher(_ pattern: String) -> (String) -> Bool {
    let regex = try! NSRegularExpression(pattern: "^(" + pattern + ")$")
    return { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
  }

  func testNumbersFollowTheStatedGrammar() {
    let matches = matcher("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?")
    let extra = ["12.5e-3", "-0.000001", "1e308", "1e309", "+.5E+2", "3.14159", "1_000", "1.2.3", "--1", "1e+-3"]
    for text in strings(upTo: 4) + extra {
      let expected = matches(text) ? Double(text).flatMap { $0.isFinite ? $0 : nil } : nil
      XCTAssertEqual(NodeReader.numberValue(text), expected, text.debugDescription)
    }
  }

  func testIntegersFollowTheStatedGrammar() {
    let matches = matcher("[-+]?[0-9][0-9_]*")
    let extra = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "1_000_000", "_1", "1__2"]
    for text in strings(upTo: 4) + extra {
      let expected = matches(text) ? Int(text.replacingOccurrences(of: "_", with: "")) : nil
      XCTAssertEqual(NodeReader.integerValue(text), expected, text.debugDescription)
    }
  }
}
