/// Decoded 8-bit pixels of an image file or a rendered image, for comparisons in tests. The
/// decoders are extensions in the targets that have the imaging stage (ImagingTests,
/// ExecuteTests).
public struct TestPixels {
  public var width: Int
  public var height: Int
  /// 3 (RGB) or 4 (RGBA).
  public var bands: Int
  public var bytes: [UInt8]

  public init(width: Int, height: Int, bands: Int, bytes: [UInt8]) {
    self.width = width
    self.height = height
    self.bands = bands
    self.bytes = bytes
  }

  /// Channel `c` of pixel (x, y); alpha is 255 for images without an alpha band.
  public func value(_ x: Int, _ y: Int, _ c: Int) -> Double {
    if c >= bands { return 255 }
    return Double(bytes[(y * width + x) * bands + c])
  }

  /// Mean and max absolute difference per channel (R, G, B, A) over the pixels at least
  /// `border` px inside both images (which must have the same size).
  public func difference(to other: TestPixels, border: Int = 2) -> (mean: [Double], max: [Double]) {
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
  public func shift(to other: TestPixels, border: Int = 4) -> (x: Double, y: Double)? {
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
    return (x: (syy * rx - sxy * ry) / det, y: (sxx * ry - sxy * rx) / det)
  }
}
