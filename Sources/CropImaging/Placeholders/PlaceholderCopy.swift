internal import CPixels

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

  /// This copy area-averaged to `w` x `h` (at most its own size), by `cj_area_resize` (the
  /// taps of `cj_area_average`: the one area average, in C).
  func resized(width w: Int, height h: Int) -> PlaceholderCopy {
    guard w != width || h != height else { return self }
    var result = [Double](repeating: 0, count: w * h * 4)
    let status = pixels.withUnsafeBufferPointer { input in
      result.withUnsafeMutableBufferPointer { out in
        cj_area_resize(input.baseAddress, Int32(width), Int32(height), Int32(w), Int32(h), out.baseAddress)
      }
    }
    precondition(status == 0, "PlaceholderCopy: cj_area_resize failed (\(status))")
    return PlaceholderCopy(width: w, height: h, pixels: result)
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
