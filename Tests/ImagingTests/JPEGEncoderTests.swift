import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 15: stripped JPEG outputs are written by libjpeg directly (docs/decoding.md,
/// "Encoding JPEG outputs"), with libvips' saver's settings: the same bytes as that saver.
final class JPEGEncoderTests: XCTestCase {
  /// Decoded samples (sRGB, 8-bit, three bands; the JPEGs at 1/8): the direct encoder takes every one,
  /// at qualities 1 to 100, with automatic, forced 4:2:0 and forced 4:4:4 chroma, baseline
  /// and progressive, and writes exactly libvips' bytes (the reference: `vips_jpegsave_buffer`
  /// with `strip`).
  func testDirectEncodeWritesLibvipsBytes() throws {
    let samples = try FileManager.default.contentsOfDirectory(atPath: TestPaths.samples.path).filter {
      $0.hasSuffix(".jpg") || $0.hasSuffix(".png")
    }.sorted().map(TestPaths.sample)
    XCTAssertGreaterThanOrEqual(samples.count, 12)
    var compared = 0
    for (index, path) in samples.enumerated() {
      let header = try SourceHeader.read(path: path)
      let decoded = try DecodedSource.decode(path: path, header: header, shrink: path.hasSuffix(".png") ? 1 : 8)
      guard !decoded.hasAlpha else {
        // Four bands: not the direct encoder's (libvips' saver flattens them).
        XCTAssertNil(try ImageEncoder.jpegDirect(decoded.image, options: EncodeOptions(format: .jpeg), quality: 80))
        continue
      }
      // Every setting on the first photo; a rotating subset on the others (the run is short).
      let qualities = index == 0 ? [1, 10, 50, 75, 80, 85, 89, 90, 91, 95, 100] : [[50, 80, 90, 97][index % 4]]
      for quality in qualities {
        for subsample in [nil, true, false] as [Bool?] {
          for progressive in [false, true] {
            var options = EncodeOptions(format: .jpeg)
            options.chromaSubsampling = subsample
            options.progressive = progressive
            let label = "\(path) q\(quality) subsample \(String(describing: subsample)) progressive \(progressive)"
            let direct = try ImageEncoder.jpegDirect(decoded.image, options: options, quality: quality)
            XCTAssertNotNil(direct, label)
            let vips = try ImageEncoder.encode(
              decoded.image, options: options, quality: quality, strip: true, jpegEncoder: .libvips)
            XCTAssertEqual(direct, vips, label)
            compared += 1
          }
        }
      }
    }
    XCTAssertGreaterThanOrEqual(compared, 60)
  }

  /// Images of every small shape (partial MCUs both ways, 1 pixel) and of noise (long Huffman
  /// codes, a buffer that must grow): the same bytes as libvips' saver.
  func testDirectEncodeOfSmallAndNoisyImages() throws {
    var state: UInt64 = 0x1234_5678
    func next() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    for (width, height) in [(1, 1), (1, 17), (17, 1), (7, 9), (8, 8), (15, 16), (33, 31), (300, 200)] {
      let noise = Raster(width: width, height: height, bands: 3, pixels: (0..<width * height * 3).map { _ in next() })
      let image = try noise.vipsImage()
      for quality in [20, 85, 100] {
        let options = EncodeOptions(format: .jpeg)
        let vips = try ImageEncoder.encode(image, options: options, quality: quality, jpegEncoder: .libvips)
        let direct = try ImageEncoder.jpegDirect(image, options: options, quality: quality)
        XCTAssertNotNil(direct, "\(width)x\(height)")
        XCTAssertEqual(direct, vips, "\(width)x\(height) q\(quality)")
      }
    }
  }
}
