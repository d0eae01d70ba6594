/// A small copy of an output's pixels, which the placeholders are computed from: RGBA with
/// premultiplied alpha (colour 0...255 times alpha, alpha 0...1), made by area averaging
/// (each copy pixel is the mean of the output pixels it covers, fractions of a pixel
/// weighted by their area), in premultiplied form so that transparent pixels add no colour.
struct PlaceholderCopy: Sendable {
  var width: Int
  var height: Int
  /// 4 values a pixel, row-major: premultiplied red, green, blue (0...255) and alpha (0...1).
  var pixels: [Double]

  /// The copy of `raster` (8-bit, straight alpha: grey, grey and alpha, RGB or RGBA) whose
  /// longer side is at most `longSide` (the raster's own size when it is not larger).
  init(_ raster: Raster, longSide: Int) {
    let bands = raster.bands
    precondition((1...4).contains(bands), "PlaceholderCopy: \(bands) bands")
    let hasAlpha = bands == 2 || bands == 4
    let (green, blue) = bands < 3 ? (0, 0) : (1, 2)
    let (width, height) = (raster.width, raster.height)
    let (w, h) = Self.size(width: width, height: height, longSide: longSide)
    let across = Self.weights(from: width, to: w)
    // Rows first, straight from the bytes (width -> w), premultiplied on the way; then
    // columns (height -> h). No full-size copy in floats.
    var rows = [Double](repeating: 0, count: w * height * 4)
    raster.pixels.withUnsafeBufferPointer { bytes in
      for y in 0..<height {
        for (x, taps) in across.enumerated() {
          var sum = (0.0, 0.0, 0.0, 0.0)
          for (i, weight) in taps {
            let p = (y * width + i) * bands
            let alpha = hasAlpha ? Double(bytes[p + bands - 1]) / 255 : 1
            let share = alpha * weight
            sum.0 += Double(bytes[p]) * share
            sum.1 += Double(bytes[p + green]) * share
            sum.2 += Double(bytes[p + blue]) * share
            sum.3 += share
          }
          let o = (y * w + x) * 4
          (rows[o], rows[o + 1], rows[o + 2], rows[o + 3]) = sum
        }
      }
    }
    self.init(width: w, height: height, pixels: rows)
    self = resized(width: w, height: h)
  }

  init(width: Int, height: Int, pixels: [Double]) {
    precondition(pixels.count == width * height * 4)
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The size whose longer side is `min(longSide, the longer side)`, the other side
  /// following the aspect (rounded, at least 1).
  static func size(width: Int, height: Int, longSide: Int) -> (width: Int, height: Int) {
    let long = max(width, height)
    guard long > longSide else { return (width, height) }
    let ratio = Double(longSide) / Double(long)
    let w = width >= height ? longSide : max(1, Int((Double(width) * ratio).rounded()))
    let h = width >= height ? max(1, Int((Double(height) * ratio).rounded())) : longSide
    return (w, h)
  }

  /// This copy area-averaged down to a longer side of at most `longSide`.
  func downscaled(longSide: Int) -> PlaceholderCopy {
    let (w, h) = Self.size(width: width, height: height, longSide: longSide)
    return resized(width: w, height: h)
  }

  /// This copy area-averaged to `w` x `h` (at most its own size).
  func resized(width w: Int, height h: Int) -> PlaceholderCopy {
    guard w != width || h != height else { return self }
    let across = Self.weights(from: width, to: w)
    let down = Self.weights(from: height, to: h)
    // Rows first (width -> w), then columns (height -> h).
    var rows = [Double](repeating: 0, count: w * height * 4)
    for y in 0..<height {
      for (x, taps) in across.enumerated() {
        var sum = (0.0, 0.0, 0.0, 0.0)
        for (i, weight) in taps {
          let p = (y * width + i) * 4
          sum.0 += pixels[p] * weight
          sum.1 += pixels[p + 1] * weight
          sum.2 += pixels[p + 2] * weight
          sum.3 += pixels[p + 3] * weight
        }
        let o = (y * w + x) * 4
        (rows[o], rows[o + 1], rows[o + 2], rows[o + 3]) = sum
      }
    }
    var out = [Double](repeating: 0, count: w * h * 4)
    for (y, taps) in down.enumerated() {
      for (i, weight) in taps {
        let from = i * w * 4
        let to = y * w * 4
        for k in 0..<(w * 4) { out[to + k] += rows[from + k] * weight }
      }
    }
    return PlaceholderCopy(width: w, height: h, pixels: out)
  }

  /// For each of `to` cells over `from` pixels: the pixels it covers and the share of each
  /// (the area covered divided by the cell's width; they sum to 1).
  static func weights(from: Int, to: Int) -> [[(Int, Double)]] {
    let step = Double(from) / Double(to)
    return (0..<to).map { o in
      let start = Double(o) * step
      let end = o == to - 1 ? Double(from) : Double(o + 1) * step
      var taps: [(Int, Double)] = []
      var i = Int(start.rounded(.down))
      while i < from, Double(i) < end {
        let overlap = min(end, Double(i + 1)) - max(start, Double(i))
        if overlap > 0 { taps.append((i, overlap / (end - start))) }
        i += 1
      }
      return taps
    }
  }

  /// The alpha-weighted mean colour (straight, 0...255) and the mean alpha (0...1); black
  /// when every pixel is transparent.
  var mean: (red: Double, green: Double, blue: Double, alpha: Double) {
    var sum = (0.0, 0.0, 0.0, 0.0)
    for p in stride(from: 0, to: pixels.count, by: 4) {
      sum.0 += pixels[p]
      sum.1 += pixels[p + 1]
      sum.2 += pixels[p + 2]
      sum.3 += pixels[p + 3]
    }
    let count = Double(width * height)
    guard sum.3 > 0 else { return (0, 0, 0, 0) }
    return (sum.0 / sum.3, sum.1 / sum.3, sum.2 / sum.3, sum.3 / count)
  }

  /// Whether some pixel is not opaque.
  var hasAlpha: Bool { stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] < 1 } }

  /// Straight RGB (0...255), 3 values a pixel: each pixel composited over the mean colour
  /// (`mean`), so that transparent areas take the picture's own average colour rather
  /// than black or the page's (which the placeholder cannot know).
  func composited() -> [Double] {
    let m = mean
    var out = [Double](repeating: 0, count: width * height * 3)
    for i in 0..<(width * height) {
      let rest = 1 - pixels[i * 4 + 3]
      out[i * 3] = pixels[i * 4] + rest * m.red
      out[i * 3 + 1] = pixels[i * 4 + 1] + rest * m.green
      out[i * 3 + 2] = pixels[i * 4 + 2] + rest * m.blue
    }
    return out
  }
}
