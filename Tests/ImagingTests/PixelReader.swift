import CVipsShim
import CropGeometry
import CropKit
import Foundation
import XCTest

/// Decoded 8-bit pixels of an image file or a rendered image, for comparisons in tests.
struct TestPixels {
  var width: Int
  var height: Int
  /// 3 (RGB) or 4 (RGBA).
  var bands: Int
  var bytes: [UInt8]

  /// Decodes `path` at full size (EXIF orientation applied, sRGB).
  init(path: String) throws {
    let header = try SourceHeader.read(path: path)
    let decoded = try DecodedSource.decode(path: path, header: header, shrink: 1)
    try self.init(decoded.image)
  }

  init(_ image: VipsImage) throws {
    var data: UnsafeMutableRawPointer?
    var size = 0
    guard cj_write_to_memory(image.pointer, &data, &size) == 0, let data else {
      throw ImagingError(operation: "write_to_memory", path: image.path, message: Vips.takeError())
    }
    defer { cj_free(data) }
    width = image.width
    height = image.height
    bands = image.bands
    bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
  }

  /// Channel `c` of pixel (x, y); alpha is 255 for images without an alpha band.
  func value(_ x: Int, _ y: Int, _ c: Int) -> Double {
    if c >= bands { return 255 }
    return Double(bytes[(y * width + x) * bands + c])
  }

  /// Mean and max absolute difference per channel (R, G, B, A) over the pixels at least
  /// `border` px inside both images (which must have the same size).
  func difference(to other: TestPixels, border: Int = 2) -> (mean: [Double], max: [Double]) {
    precondition(width == other.width && height == other.height)
    var sum = [Double](repeating: 0, count: 4)
    var top = [Double](repeating: 0, count: 4)
    var count = 0
    for y in border..<max(border, height - border) {
      for x in border..<max(border, width - border) {
        count += 1
        for c in 0..<4 {
          let d = abs(value(x, y, c) - other.value(x, y, c))
          sum[c] += d
          top[c] = Swift.max(top[c], d)
        }
      }
    }
    return (sum.map { $0 / Double(Swift.max(count, 1)) }, top)
  }

  /// Least-squares displacement d (px) with other(x) ≈ self(x − d), from self's gradient
  /// (grey), over the pixels at least `border` px inside; nil when self has no gradient to
  /// measure it by (a flat picture), never a made-up zero.
  func shift(to other: TestPixels, border: Int = 4) -> Point? {
    func grey(_ p: TestPixels, _ x: Int, _ y: Int) -> Double {
      (p.value(x, y, 0) + p.value(x, y, 1) + p.value(x, y, 2)) / 3
    }
    var sxx = 0.0
    var sxy = 0.0
    var syy = 0.0
    var rx = 0.0
    var ry = 0.0
    for y in border..<max(border, height - border) {
      for x in border..<max(border, width - border) {
        let gx = (grey(self, x + 1, y) - grey(self, x - 1, y)) / 2
        let gy = (grey(self, x, y + 1) - grey(self, x, y - 1)) / 2
        let r = grey(self, x, y) - grey(other, x, y)
        sxx += gx * gx
        sxy += gx * gy
        syy += gy * gy
        rx += gx * r
        ry += gy * r
      }
    }
    let det = sxx * syy - sxy * sxy
    guard det > 1e-9 else { return nil }
    return Point(x: (syy * rx - sxy * ry) / det, y: (sxx * ry - sxy * rx) / det)
  }
}
