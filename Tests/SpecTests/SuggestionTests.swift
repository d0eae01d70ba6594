import CropSpec
import XCTest

/// "Did you mean": the closest name within a third of the word's length in edits (at least 2;
/// 1 for words of up to 3 letters), a swap of neighbours counting as one edit.
final class SuggestionTests: XCTestCase {
  let names = ["quality", "format", "min_quality", "max_bytes", "placeholders", "fit"]

  func testTypoOfTwoEditsInALongWordIsSuggested() {
    XCTAssertEqual(Suggestion.closest(to: "kwality", in: names), "quality")  // two substitutions
    XCTAssertEqual(Suggestion.closest(to: "plceholdrs", in: names), "placeholders")  // two deletions
    XCTAssertEqual(Suggestion.closest(to: "fromat", in: names), "format")  // one swap
    XCTAssertEqual(Suggestion.closest(to: "max_byets", in: names), "max_bytes")
  }

  func testShortWordsAndFarWordsGetNone() {
    XCTAssertEqual(Suggestion.closest(to: "fot", in: names), "fit")  // one edit in three letters
    XCTAssertNil(Suggestion.closest(to: "fxx", in: names), "two edits in three letters")
    XCTAssertNil(Suggestion.closest(to: "kwalitty", in: ["quality"]), "three edits in eight letters")
  }
}
