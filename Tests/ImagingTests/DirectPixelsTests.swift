import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 15: the box shrink and the EXIF orientation of 8-bit images in memory are computed
/// without libvips operations (cj_box.c), to the pixels libvips' own operations give.
final class DirectPixelsTests: XCTestCase {
  /// Noise of 1, 3 and 4 bands, windows at odd offsets and of sizes that leave partial blocks
  /// (libvips rounds the size and repeats the edge pixel into them),
  /// every factor from 2 to 13: the direct box shrink equals `vips_shrink` of the extracted
  /// window, byte for byte (the reference is libvips' operation).
  func testBoxShrinkEqualsLibvipsShrink() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    var compared = 0
    for bands in [1, 3, 4] {
      let (width, height) = (97, 83)
      let noise = Raster(
        width: width, height: height, bands: bands, pixels: (0..<width * height * bands).map { _ in next() })
      let image = try noise.vipsImage()
      for factor in 2...13 {
        for window in [(0, 0, width, height), (3, 5, 61, 70), (13, 1, factor, factor + 3), (1, 2, 2 * factor + 1, 40)] {
          let direct = try XCTUnwrap(
            try Renderer.boxShrunk(image, window: window, factor: factor), "\(bands) \(factor)")
          let vips = try Renderer.boxShrunkByLibvips(image, window: window, factor: factor)
          let a = try Renderer.rasterOf(direct)
          let b = try Renderer.rasterOf(vips)
          // libvips' size: round(size / factor), half up.
          let rounded = { (n: Int) in (2 * n + factor) / (2 * factor) }
          XCTAssertEqual([a.width, a.height], [rounded(window.2), rounded(window.3)])
          XCTAssertEqual(a, b, "bands \(bands) factor \(factor) window \(window)")
          compared += 1
        }
      }
    }
    XCTAssertEqual(compared, 3 * 12 * 4)
  }

  /// Noise with alpha (2 and 4 bands; alphas 0 and 255 included): the direct premultiply and
  /// box shrink give libvips' `premultiply` and `shrink` floats bit for bit, factors 1 to 9.
  func testPremultiplyShrinkEqualsLibvips() throws {
    var state: UInt64 = 0x0123_4567_89AB_CDEF
    func next() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let v = UInt8(truncatingIfNeeded: state >> 56)
      return v < 16 ? 0 : v > 240 ? 255 : v
    }
    for bands in [2, 4] {
      let (width, height) = (71, 59)
      let noise = Raster(
        width: width, height: height, bands: bands, pixels: (0..<width * height * bands).map { _ in next() })
      let image = try noise.vipsImage()
      for factor in 1...9 {
        for window in [(0, 0, width, height), (5, 3, 40, 33), (2, 7, factor, factor + 2)] {
          let direct = try XCTUnwrap(try Renderer.premultipliedShrunk(image, window: window, factor: factor))
          let vips = try Renderer.premultipliedShrunkByLibvips(image, window: window, factor: factor)
          let a = try Renderer.pixelBytes(direct)
          let b = try Renderer.pixelBytes(vips)
          XCTAssertEqual([a.width, a.height], [b.width, b.height], "bands \(bands) factor \(factor) \(window)")
          XCTAssertTrue(a.bytes == b.bytes, "bands \(bands) factor \(factor) window \(window)")
        }
      }
    }
  }

  /// Every file of the EXIF orientation corpus (orientations 1 to 8, landscape and portrait),
  /// decoded directly (turned upright by cj_orient_owned) and by libvips (vips_autorot), at
  /// every shrink: the same size and pixels (both run libjpeg-turbo's decode; stated tolerance
  /// max 1 per channel, measured 0).
  func testDirectOrientationEqualsLibvipsAutorot() throws {
    let files = Corpora.imageFiles().filter { $0.folder == "exif-orientation" && !$0.name.hasSuffix("_0.jpg") }
    XCTAssertEqual(files.count, 16)
    for file in files {
      let header = try SourceHeader.read(path: file.path, jpegDecoder: .libvips)
      XCTAssertNotEqual(header.orientation, 0)
      for shrink in [1, 2, 4, 8] {
        let direct = try DecodedSource.decode(path: file.path, header: header, shrink: shrink, jpegDecoder: .auto)
        let vips = try DecodedSource.decode(path: file.path, header: header, shrink: shrink, jpegDecoder: .libvips)
        XCTAssertEqual(direct.decodedBy, .auto, file.name)
        let a = try direct.raster()
        let b = try vips.raster()
        XCTAssertEqual([a.width, a.height, a.bands], [b.width, b.height, b.bands], "\(file.name) 1/\(shrink)")
        guard a.pixels.count == b.pixels.count else { continue }
        let same = a.pixels.withUnsafeBytes { x in
          b.pixels.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
        if !same {
          var worst = 0
          for i in a.pixels.indices { worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
          XCTAssertLessThanOrEqual(worst, 1, "\(file.name) 1/\(shrink)")
        }
      }
    }
  }
}
