import CropSpec
import Foundation
import TestSupport
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
    let matches = matcher("[-+]?(\\.[0-9]+|(0|[1-9][0-9]*)(\\.[0-9]*)?)([eE][-+]?[0-9]+)?")
    let extra = [
      "12.5e-3", "-0.000001", "1e308", "1e309", "+.5E+2", "3.14159", "1_000", "1.2.3", "--1", "1e+-3", "010", "00.5",
      "-012e3", "0.05", "0e7",
    ]
    for text in strings(upTo: 4) + extra {
      let expected = matches(text) ? Double(text).flatMap { $0.isFinite ? $0 : nil } : nil
      XCTAssertEqual(NodeReader.numberValue(text), expected, text.debugDescription)
    }
  }

  /// Numbers of up to 15 digits are read without `Double(_:)` (an exact shortcut): each
  /// value, to the bit (the sign of zero too), is what glibc's `strtod` reads.
  func testNumbersReadAsStrtodReadsThem() {
    // Seeded (replayable: CROPJOB_TEST_SEED=<seed>), the seed in every failure message.
    let seed = SeededRandom.testSeed(0x5CA1_A125)
    var random = SeededRandom(seed: seed)
    var texts = ["-0", "-0.0", "+0.", ".0", "0.1", "0.30000000000000004", "999999999999999", "9007199254740993"]
    texts += ["123456789012345.6", "0.000000000000001", "-1.5", "5.", "1e23", "8.98846567431158e307"]
    for _ in 0..<200_000 {
      let digits = Int.random(in: 1...18, using: &random)
      var text = Bool.random(using: &random) ? "" : ["-", "+"].randomElement(using: &random)!
      let dot = Int.random(in: -1...digits, using: &random)
      for i in 0..<digits {
        if i == dot { text += "." }
        text += String(Int.random(in: 0...9, using: &random))
      }
      if dot == digits { text += "." }
      if Int.random(in: 0..<8, using: &random) == 0 { text += "e" + String(Int.random(in: -30...30, using: &random)) }
      texts.append(text)
    }
    // A leading zero before more digits is not a number (`010`); strtod reads those too.
    for text in texts where !Self.hasLeadingZero(text) {
      let expected = strtod(text, nil)
      let value = NodeReader.numberValue(text)
      XCTAssertEqual(value?.bitPattern, expected.bitPattern, "\(text), seed \(seed)")
    }
  }

  /// `010`, `-00.5`: a zero followed by another digit at the start.
  static func hasLeadingZero(_ text: String) -> Bool {
    let unsigned = text.drop { $0 == "-" || $0 == "+" }
    return unsigned.first == "0" && unsigned.dropFirst().first?.isNumber == true
  }

  func testIntegersFollowTheStatedGrammar() {
    let matches = matcher("[-+]?(0|[1-9][0-9_]*)")
    let extra = [
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1_000_000", "_1", "1__2", "010", "0_1",
      "-07",
    ]
    for text in strings(upTo: 4) + extra {
      let expected = matches(text) ? Int(text.replacingOccurrences(of: "_", with: "")) : nil
      XCTAssertEqual(NodeReader.integerValue(text), expected, text.debugDescription)
    }
  }
}
