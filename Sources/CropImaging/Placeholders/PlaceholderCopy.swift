internal import CVipsShim

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
    let (w, h) = Self.size(width: raster.width, height: raster.height, longSide: longSide)
    self.init(raster, width: w, height: h)
  }

  /// The copy of `raster` (as above) area-averaged to `w` × `h` (at most its own size), by
  /// `cj_area_average` (in C: one pass over the rows, integer sums for whole blocks).
  init(_ raster: Raster, width w: Int, height h: Int) {
    precondition((1...4).contains(raster.bands), "PlaceholderCopy: \(raster.bands) bands")
    var pixels = [Double](repeating: 0, count: w * h * 4)
    let status = raster.pixels.withUnsafeBufferPointer { bytes in
      pixels.withUnsafeMutableBufferPointer { out in
        cj_area_average(
          bytes.baseAddress, raster.width * raster.bands, Int32(raster.width), Int32(raster.height),
          Int32(raster.bands), Int32(w), Int32(h), out.baseAddress)
      }
    }
    precondition(status == 0, "PlaceholderCopy: cj_area_average failed (\(status))")
    self.init(width: w, height: h, pixels: pixels)
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
    let across = Taps(from: width, to: w)
    let down = Taps(from: height, to: h)
    // Rows first (width -> w; nothing to do at the same width), then columns (height -> h).
    var rows = w == width ? pixels : [Double](repeating: 0, count: w * height * 4)
    if w != width {
      pixels.withUnsafeBufferPointer { input in
        rows.withUnsafeMutableBufferPointer { out in
          across.withBuffers { start, index, weight in
            for y in 0..<height {
              for x in 0..<w {
                var sum = (0.0, 0.0, 0.0, 0.0)
                for k in start[x]..<start[x + 1] {
                  let p = (y &* width &+ index[k]) &* 4
                  let share = weight[k]
                  sum.0 += input[p] * share
                  sum.1 += input[p &+ 1] * share
                  sum.2 += input[p &+ 2] * share
                  sum.3 += input[p &+ 3] * share
                }
                let o = (y * w + x) * 4
                (out[o], out[o + 1], out[o + 2], out[o + 3]) = sum
              }
            }
          }
        }
      }
    }
    var result = [Double](repeating: 0, count: w * h * 4)
    rows.withUnsafeBufferPointer { input in
      result.withUnsafeMutableBufferPointer { out in
        down.withBuffers { start, index, weight in
          let stride = w * 4
          for y in 0..<h {
            for k in start[y]..<start[y + 1] {
              let from = index[k] &* stride
              let to = y &* stride
              let share = weight[k]
              for i in 0..<stride { out[to &+ i] += input[from &+ i] * share }
            }
          }
        }
      }
    }
    return PlaceholderCopy(width: w, height: h, pixels: result)
  }

  /// For each of `to` cells over `from` pixels: the pixels it covers and the share of each
  /// (the area covered divided by the cell's width; they sum to 1), in flat arrays.
  struct Taps {
    /// Where each cell's taps start in `index` and `weight`, and (last) their count.
    var start: [Int] = [0]
    var index: [Int] = []
    var weight: [Double] = []

    init(from: Int, to: Int) {
      let step = Double(from) / Double(to)
      for o in 0..<to {
        let begin = Double(o) * step
        let end = o == to - 1 ? Double(from) : Double(o + 1) * step
        var i = Int(begin.rounded(.down))
        while i < from, Double(i) < end {
          let overlap = min(end, Double(i + 1)) - max(begin, Double(i))
          if overlap > 0 {
            index.append(i)
            weight.append(overlap / (end - begin))
          }
          i += 1
        }
        start.append(index.count)
      }
    }

    /// `body` with the three arrays' buffers (the inner loops read them without checks).
    func withBuffers<R>(
      _ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<Double>) -> R
    ) -> R {
      start.withUnsafeBufferPointer { s in
        index.withUnsafeBufferPointer { i in weight.withUnsafeBufferPointer { w in body(s, i, w) } }
      }
    }
  }

  /// The alpha-weighted mean colour (straight, 0...255) and the mean alpha (0...1); black
  /// when every pixel is transparent.
  var mean: (red: Double, green: Double, blue: Double, alpha: Double) {
    var sum = (0.0, 0.0, 0.0, 0.0)
    pixels.withUnsafeBufferPointer { pixels in
      for p in stride(from: 0, to: pixels.count, by: 4) {
        sum.0 += pixels[p]
        sum.1 += pixels[p &+ 1]
        sum.2 += pixels[p &+ 2]
        sum.3 += pixels[p &+ 3]
      }
    }
    let count = Double(width * height)
    guard sum.3 > 0 else { return (0, 0, 0, 0) }
    return (sum.0 / sum.3, sum.1 / sum.3, sum.2 / sum.3, sum.3 / count)
  }

  /// Whether every pixel is opaque in 8 bits (its alpha rounds to 255): area averaging an
  /// opaque image leaves alphas a rounding error below 1.
  var isOpaque: Bool { !stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] < 254.5 / 255 } }

  /// Whether some pixel is not opaque (in 8 bits: `isOpaque`).
  var hasAlpha: Bool { !isOpaque }

  /// Straight RGB (0...255), 3 values a pixel: each pixel composited over the mean colour
  /// (`mean`), so that transparent areas take the picture's own average colour rather
  /// than black or the page's (which the placeholder cannot know).
  func composited() -> [Double] {
    let m = mean
    var out = [Double](repeating: 0, count: width * height * 3)
    pixels.withUnsafeBufferPointer { pixels in
      out.withUnsafeMutableBufferPointer { out in
        for i in 0..<(width * height) {
          let rest = 1 - pixels[i &* 4 &+ 3]
          out[i &* 3] = pixels[i &* 4] + rest * m.red
          out[i &* 3 &+ 1] = pixels[i &* 4 &+ 1] + rest * m.green
          out[i &* 3 &+ 2] = pixels[i &* 4 &+ 2] + rest * m.blue
        }
      }
    }
    return out
  }
}
