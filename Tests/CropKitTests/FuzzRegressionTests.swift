import CropKit
import Foundation
import XCTest

/// Image inputs the fuzzer found (Fixtures/fuzz/image, see its README), and the shapes of
/// image they stand for, through the imaging layer at every shrink-on-load factor.
final class FuzzRegressionTests: XCTestCase {
  static let fixtures = TestPaths.repoRoot.appendingPathComponent("Tests/CropKitTests/Fixtures/fuzz/image")

  func decodeAllShrinks(_ path: String, file: StaticString = #filePath, line: UInt = #line) {
    let header: SourceHeader
    do {
      header = try SourceHeader.read(path: path)
    } catch {
      XCTAssertFalse(error.message.isEmpty, file: file, line: line)
      return
    }
    for shrink in [1, 2, 4, 8] {
      do {
        let decoded = try DecodedSource.decode(path: path, header: header, shrink: shrink)
        XCTAssertGreaterThan(decoded.width, 0, file: file, line: line)
        XCTAssertGreaterThan(decoded.height, 0, file: file, line: line)
        if shrink == 1 {
          XCTAssertEqual([decoded.width, decoded.height], [header.width, header.height], file: file, line: line)
        }
      } catch {
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
      }
    }
  }

  func testImageCrashers() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter {
      !$0.hasPrefix("LICENSE")
    }
    XCTAssertFalse(names.isEmpty)
    for name in names.sorted() { decodeAllShrinks(Self.fixtures.appendingPathComponent(name).path) }
  }

  /// libvips 8.14 aborted on JPEGs narrower or shorter than the shrink factor: every thin
  /// shape, at every factor, decodes (at least one pixel each way).
  func testThinJPEGsAndWebPsAtEveryShrink() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (width, height) in [(1, 1), (1, 50), (50, 1), (3, 40), (7, 9), (8, 8), (9, 2)] {
      let raster = Raster(width: width, height: height, colour: [200, 100, 50])
      let image = try raster.vipsImage()
      for format in [OutputFormat.jpeg, .webp] {
        let bytes = try ImageEncoder.encode(image, options: EncodeOptions(format: format), quality: 90)
        let path = folder.appendingPathComponent("thin-\(width)x\(height).\(format.fileExtension)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let header = try SourceHeader.read(path: path)
        for shrink in [1, 2, 4, 8] {
          let decoded = try DecodedSource.decode(path: path, header: header, shrink: shrink)
          XCTAssertGreaterThan(decoded.width, 0)
          XCTAssertGreaterThan(decoded.height, 0)
        }
        // The planner never asks for a shrink the image cannot take.
        XCTAssertLessThanOrEqual(
          header.loadShrink(maxOutputScale: 0.01), max(1, min(width, height)))
      }
    }
  }
}
