import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Image inputs the fuzzer found (Fixtures/fuzz/image, see its README), each with the outcome
/// it must have, and the shapes of image they stand for, through the imaging layer at every
/// shrink-on-load factor.
final class FuzzRegressionTests: XCTestCase {
  static let fixtures = TestPaths.fixtures.appendingPathComponent("fuzz/image")

  /// What an image fixture must do through the imaging layer.
  enum Expected {
    /// The header gives `width` x `height`; the decode at shrink 1 has that size, and at 2, 4
    /// and 8 at least one pixel and at most the size divided by the shrink (rounded up) each way.
    case decodes(width: Int, height: Int)
    /// Refused with a message containing `text`: by the header, or else by every decode.
    case refused(containing: String)
  }

  /// Each fixture's expected outcome (see Fixtures/fuzz/README.md for where each came from).
  static let expected: [String: Expected] = [
    // libvips 8.14 aborted the process when shrinking this 1x1 JPEG on load. Its ICC profile
    // is broken (its seed is jpeg-decoder's icc_missing_chunk.jpeg): libvips warns, so the
    // decode is refused as damaged at every shrink, without an abort.
    "jpeg-1x1-shrink-abort.jpg": .refused(containing: "damaged: corrupt profile")
  ]

  static let shrinks = [1, 2, 4, 8]

  func testImageCrashersHaveTheirExpectedOutcome() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter {
      !$0.hasPrefix("LICENSE")
    }.sorted()
    XCTAssertEqual(
      names, Self.expected.keys.sorted(), "each fixture needs an expected outcome, and only fixtures have one")
    for name in names {
      let path = Self.fixtures.appendingPathComponent(name).path
      switch Self.expected[name] {
      case .decodes(let width, let height):
        checkDecodes(name, path, width: width, height: height)
      case .refused(let text):
        checkRefused(name, path, containing: text)
      case nil:
        continue
      }
    }
  }

  func checkDecodes(_ name: String, _ path: String, width: Int, height: Int) {
    let header: SourceHeader
    do throws(ImagingError) {
      header = try SourceHeader.read(path: path)
    } catch {
      return XCTFail("\(name): header refused: \(error)")
    }
    XCTAssertEqual([header.width, header.height], [width, height], "\(name): header")
    for shrink in Self.shrinks {
      do throws(ImagingError) {
        let decoded = try DecodedSource.decode(path: path, header: header, shrink: shrink)
        let size = [decoded.width, decoded.height]
        if shrink == 1 {
          XCTAssertEqual(size, [width, height], "\(name) at shrink 1")
        } else {
          let most = [(width + shrink - 1) / shrink, (height + shrink - 1) / shrink]
          XCTAssertTrue(
            zip(size, most).allSatisfy { 1...$1 ~= $0 }, "\(name) at shrink \(shrink): \(size), at most \(most)")
        }
      } catch {
        XCTFail("\(name) at shrink \(shrink): \(error)")
      }
    }
  }

  func checkRefused(_ name: String, _ path: String, containing text: String) {
    let header: SourceHeader
    do throws(ImagingError) {
      header = try SourceHeader.read(path: path)
    } catch {
      return XCTAssertTrue(error.message.contains(text), "\(name): refused for another reason: \(error)")
    }
    for shrink in Self.shrinks {
      do throws(ImagingError) {
        let decoded = try DecodedSource.decode(path: path, header: header, shrink: shrink)
        XCTFail("\(name) at shrink \(shrink): decoded (\(decoded.width)x\(decoded.height)), expected refused")
      } catch {
        XCTAssertTrue(error.message.contains(text), "\(name) at shrink \(shrink): refused for another reason: \(error)")
      }
    }
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
