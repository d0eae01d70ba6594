internal import CPixels
import CropSpec
import Foundation

/// Computes an output's placeholders (`placeholders:` in the job file) from the pixels it was
/// encoded from. Every kind is computed from one small copy of them (`PlaceholderCopy`: area
/// averaged, premultiplied alpha, at most `copySide` pixels on the longer side), so that
/// the cost hardly depends on the output's size beyond one pass over its pixels.
package enum Placeholders {
  /// The longer side of the copy every placeholder is computed from (BlurHash, ThumbHash and
  /// the dominant colour use it as it is; the LQIP is averaged down from it).
  package static let copySide = 32

  /// The placeholders `spec` asks for, of `image` (the rendered output in memory, before
  /// encoding).
  static func make(_ image: VipsImage, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    try make(copy(of: image), spec: spec)
  }

  /// The placeholders `spec` asks for, of `raster` (8-bit, straight alpha).
  package static func make(_ raster: Raster, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    try make(PlaceholderCopy(raster, longSide: copySide), spec: spec)
  }

  /// The copy of an output: its 8-bit pixels area-averaged in place (`cj_placeholder_copy`:
  /// one pass, no libvips operation); an image of another format is cast to 8 bits first.
  static func copy(of image: VipsImage) throws(ImagingError) -> PlaceholderCopy {
    let (w, h) = PlaceholderCopy.size(width: image.width, height: image.height, longSide: copySide)
    var pixels = [Double](repeating: 0, count: w * h * 4)
    let status = pixels.withUnsafeMutableBufferPointer {
      cj_placeholder_copy(image.pointer, Int32(w), Int32(h), $0.baseAddress)
    }
    guard status == 1 else {
      try Vips.check(status, "placeholders", path: image.path)
      return PlaceholderCopy(width: w, height: h, pixels: pixels)
    }
    return PlaceholderCopy(try image.raster(), width: w, height: h)
  }

  /// The placeholders `spec` asks for, of `copy`.
  static func make(_ copy: PlaceholderCopy, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    var values = PlaceholderValues()
    for kind in spec.kinds {
      switch kind {
      case .blurhash:
        values.blurhash = BlurHash.encode(
          rgb: copy.composited(), width: copy.width, height: copy.height, x: spec.blurhashX, y: spec.blurhashY)
      case .thumbhash:
        values.thumbhash = Data(ThumbHash.encode(copy)).base64EncodedString()
      case .dominant:
        values.dominant = DominantColour.hex(copy)
      case .lqip:
        values.lqip = try LQIP.dataURI(copy, size: spec.lqipSize, format: spec.lqipFormat)
      }
    }
    return values
  }

  /// `cos(k θ(x))` for k in 0..<count and x in 0..<n, row by row (`[k * n + x]`), where
  /// θ(x) = π (x + offset) / n: the hashes' cosine bases, one `cos` a column and the multiples
  /// by the recurrence cos((k + 1) θ) = 2 cos θ cos kθ − cos((k − 1) θ).
  static func cosines(count: Int, size n: Int, offset: Double) -> [Double] {
    var table = [Double](repeating: 1, count: count * n)
    table.withUnsafeMutableBufferPointer { t in
      for x in 0..<n {
        let c = cos(Double.pi * (Double(x) + offset) / Double(n))
        if count > 1 { t[n &+ x] = c }
        var k = 2
        while k < count {
          t[k &* n &+ x] = 2 * c * t[(k &- 1) &* n &+ x] - t[(k &- 2) &* n &+ x]
          k += 1
        }
      }
    }
    return table
  }
}
