import CropGeometry
import CropPlan
import CropSpec
import XCTest

/// `OutputPaths.render`: an output's name from its template, worked out by hand. ASCII
/// templates are scanned by byte, the others character by character; both must give these.
final class OutputNameTests: XCTestCase {
  private func name(_ template: String, source: String = "photos/cat.jpeg", dir: String = "pets", scale: Double = 1)
    -> String
  {
    OutputPaths.render(
      template, job: "avatar", sourcePath: source, subdirectory: dir, size: PixelSize(width: 96, height: 64),
      scale: scale, format: .png)
  }

  func testPlaceholdersAndLiteralBraces() {
    XCTAssertEqual(name("{dir}/{stem}_{width}x{height}.{format}"), "pets/cat_96x64.png")
    XCTAssertEqual(name("{name}-{ext}-{job}@{scale}x", scale: 1.5), "cat.jpeg-jpeg-avatar@1.5x")
    XCTAssertEqual(name("{unknown}/{stem}"), "{unknown}/cat")
    XCTAssertEqual(name("a{b"), "a{b")
    XCTAssertEqual(name("}{stem}{"), "}cat{")
    XCTAssertEqual(name("{{stem}}"), "{{stem}}")
    XCTAssertEqual(name("{}x"), "{}x")
    XCTAssertEqual(name("{dir}/{stem}.png", dir: ""), "cat.png")
    XCTAssertEqual(name("{stem}.png", source: "a/noext"), "noext.png")
  }

  /// Templates that are not plain ASCII keep the character-by-character reading: a brace
  /// with a combining mark after it is another character, not a brace; "\r\n" is one.
  func testTemplatesBeyondASCII() {
    XCTAssertEqual(name("é/{stem}.png"), "é/cat.png")
    XCTAssertEqual(name("{stem}\u{301}x"), "{stem}\u{301}x")
    XCTAssertEqual(name("\r\n{stem}"), "\r\ncat")
    XCTAssertEqual(name("{dir}/{stem}.png", source: "fotos/café.jpg"), "pets/café.png")
  }
}
