import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 25: the last pass over an output's pixels (cj_finish: unpremultiply, the circle's
/// coverage into alpha, flatten) gives the bytes of the libvips operations it replaced
/// (`Renderer.finishedByLibvips`: vips_unpremultiply, multiply, vips_flatten), and the PNGs
/// libpng writes directly are the bytes of libvips' saver.
final class FinishPassTests: XCTestCase {
  private var state: UInt64 = 0x2545_F491_4F6C_DD1D
  private func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }

  private let styles = [
    RenderStyle(circle: true, alpha: true, background: [255, 255, 255, 0]),
    RenderStyle(circle: true, alpha: false, background: [255, 255, 255, 255]),
    RenderStyle(circle: true, alpha: false, background: [51, 102, 204, 255]),
    RenderStyle(circle: false, alpha: false, background: [0, 0, 0, 255]),
    RenderStyle(circle: false, alpha: true, background: [0, 0, 0, 0]),
  ]

  /// Premultiplied float RGBA as a resample leaves it: alphas below 0 and above 255 (a
  /// kernel's overshoot), 0, tiny and whole; colours likewise beyond the range.
  func testFloatInputEqualsLibvipsChain() throws {
    let alphas: [Float] = [-3.2, -0.4, 0, 1e-6, 0.3, 0.5, 1, 17.25, 127.5, 254.6, 255, 255.3, 270]
    for (width, height) in [(37, 29), (96, 96), (5, 64)] {
      var pixels: [Float] = []
      for _ in 0..<width * height {
        let a = next() % 3 == 0 ? alphas[Int(next() % UInt64(alphas.count))] : Float(next() % 25_600) / 100
        for _ in 0..<3 { pixels.append(Float(Int(next() % 30_000) - 1_000) / 100 * max(a, 0) / 255) }
        pixels.append(a)
      }
      let image = try Renderer.floatImage(width: width, height: height, bands: 4, pixels: pixels)
      try compare(image, width: width, height: height, "float \(width)x\(height)")
    }
  }

  /// 8-bit RGB (an opaque photo's resample).
  func testByteInputEqualsLibvipsChain() throws {
    for bands in [3] {
      for (width, height) in [(41, 23), (96, 96)] {
        let raster = Raster(
          width: width, height: height, bands: bands,
          pixels: (0..<width * height * bands).map { _ in UInt8(truncatingIfNeeded: next()) })
        try compare(try raster.vipsImage(), width: width, height: height, "\(bands) bands \(width)x\(height)")
      }
    }
  }

  private func compare(_ image: VipsImage, width: Int, height: Int, _ what: String) throws {
    let size = PixelSize(width: width, height: height)
    // The circle on the whole output and on a guide the output was trimmed from.
    for frame in [
      Rect(x: 0, y: 0, width: Double(width), height: Double(height)), Rect(x: -6.5, y: 2, width: 40, height: 40),
    ] {
      for style in styles {
        let direct = try Renderer.rasterOf(try Renderer.finish(image, size: size, circleFrame: frame, style: style))
        let vips = try Renderer.rasterOf(
          try Renderer.finishedByLibvips(image, size: size, circleFrame: frame, style: style))
        XCTAssertEqual([direct.width, direct.height, direct.bands], [vips.width, vips.height, vips.bands], what)
        guard direct.pixels.count == vips.pixels.count else { continue }
        let differing = direct.pixels.indices.filter { direct.pixels[$0] != vips.pixels[$0] }
        XCTAssertTrue(
          differing.isEmpty,
          "\(what) \(style) \(frame): \(differing.count) bytes differ, first at \(differing.prefix(4).map { ($0, direct.pixels[$0], vips.pixels[$0]) })"
        )
      }
    }
  }

  /// PNGs of 3 and 4 bands, noise and flat (what zlib compresses best), at compression 0, 6
  /// and 9: libpng directly writes the bytes of libvips' pngsave with `strip`.
  func testDirectPNGEqualsLibvipsSaver() throws {
    for bands in [3, 4] {
      for flat in [false, true] {
        let (width, height) = (150, 97)
        let raster = Raster(
          width: width, height: height, bands: bands,
          pixels: (0..<width * height * bands).map { i in
            flat ? UInt8(i / (width * bands) % 7 * 30) : UInt8(truncatingIfNeeded: next())
          })
        let image = try raster.vipsImage()
        for compression in [0, 6, 9] {
          var options = EncodeOptions(format: .png)
          options.compression = compression
          let direct = try XCTUnwrap(try ImageEncoder.pngDirect(image, compression: compression))
          let vips = try ImageEncoder.encode(image, options: options, quality: 90, jpegEncoder: .libvips)
          XCTAssertEqual(direct, vips, "\(bands) bands, flat \(flat), compression \(compression)")
        }
      }
    }
  }

  /// The default PNG: zlib level 2 with the rows filtered adaptively (issue 25: smaller and
  /// faster to write than level 6 unfiltered). A smooth, noisy picture of 3 and 4 bands,
  /// encoded as an output is, is byte for byte the file the vips CLI writes from the same
  /// raw pixels with `compression=2,filter=all,strip`.
  func testDefaultPNGIsVipsCLIAdaptiveLevel2() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("png-default-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    XCTAssertEqual(EncodeOptions(format: .png).compression, 2)
    for bands in [3, 4] {
      let (width, height) = (131, 77)
      let pixels = (0..<width * height * bands).map { i in
        let (x, y, b) = (i / bands % width, i / (bands * width), i % bands)
        return UInt8(truncatingIfNeeded: (b == 3 ? 255 - x : x * 2 + y + b * 40) + Int(next() % 5))
      }
      let image = try Raster(width: width, height: height, bands: bands, pixels: pixels).vipsImage()
      let ours = try ImageEncoder.encode(image, options: EncodeOptions(format: .png), quality: 85)
      let raw = folder.appendingPathComponent("pixels-\(bands).raw").path
      let png = folder.appendingPathComponent("vips-\(bands).png").path
      try Data(pixels).write(to: URL(fileURLWithPath: raw))
      try tool(
        "/usr/bin/vips",
        ["rawload", raw, png + "[compression=2,filter=all,strip]", "\(width)", "\(height)", "\(bands)"])
      XCTAssertEqual(ours, [UInt8](try Data(contentsOf: URL(fileURLWithPath: png))), "\(bands) bands")
    }
  }
}
