import XCTest

@testable import CropStorage

/// Answer header lines as libcurl hands them to the header callback, read on their bytes:
/// names in lower case, values without the blanks and line end around them.
final class HeaderLineTests: XCTestCase {
  func parse(_ text: String) -> (name: String, value: String)? {
    Array(text.utf8).withUnsafeBytes { HeaderLine.parse($0) }
  }

  func testNamesAreLowerCasedAndValuesTrimmed() throws {
    let etag = try XCTUnwrap(parse("ETag: \"9b2cf535f27731c974343645a3985328\"\r\n"))
    XCTAssertEqual(etag.name, "etag")
    XCTAssertEqual(etag.value, "\"9b2cf535f27731c974343645a3985328\"")
    let length = try XCTUnwrap(parse("Content-Length:\t 1234 \t\r\n"))
    XCTAssertEqual(length.name, "content-length")
    XCTAssertEqual(length.value, "1234")
    // A value may hold colons; only the first one ends the name.
    let date = try XCTUnwrap(parse("Last-Modified: Mon, 07 Dec 2026 04:10:00 GMT\r\n"))
    XCTAssertEqual(date.name, "last-modified")
    XCTAssertEqual(date.value, "Mon, 07 Dec 2026 04:10:00 GMT")
    let empty = try XCTUnwrap(parse("X-Amz-Version-Id:\r\n"))
    XCTAssertEqual(empty.name, "x-amz-version-id")
    XCTAssertEqual(empty.value, "")
    // UTF-8 in a value stays as it is.
    XCTAssertEqual(parse("x-amz-meta-name: café\r\n")?.value, "café")
  }

  func testTheBlankLineIsNoHeader() {
    XCTAssertNil(parse("\r\n"))
    XCTAssertNil(parse(""))
  }
}
