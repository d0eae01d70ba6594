import CropSpec
import Foundation

/// Computes an output's placeholders (`placeholders:` in the job file) from the pixels it was
/// encoded from. Every kind is computed from one small copy of them (`PlaceholderCopy`: area
/// averaged, premultiplied alpha, at most `copySide` pixels on the longer side), so that
/// the cost hardly depends on the output's size beyond one pass over its pixels.
public enum Placeholders {
  /// The longer side of the copy every placeholder is computed from (BlurHash, ThumbHash and
  /// the dominant colour use it as it is; the LQIP is averaged down from it).
  public static let copySide = 32

  /// The placeholders `spec` asks for, of `image` (the rendered output in memory, before
  /// encoding).
  static func make(_ image: VipsImage, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    try make(copy(of: image), spec: spec)
  }

  /// The placeholders `spec` asks for, of `raster` (8-bit, straight alpha).
  public static func make(_ raster: Raster, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    try make(PlaceholderCopy(raster, longSide: copySide), spec: spec)
  }

  /// The copy of an output: when a whole factor of 2 or more divides both sides and leaves at
  /// least `copySide` pixels on the longer one, first box-shrunk by the largest such factor
  /// (the renderer's own box shrink, in C: exact block means, rounded to 8 bits without alpha,
  /// premultiplied floats with it: the area average, cheaper), then area-averaged to the
  /// copy's size; otherwise area-averaged whole.
  static func copy(of image: VipsImage) throws(ImagingError) -> PlaceholderCopy {
    let (w, h) = PlaceholderCopy.size(width: image.width, height: image.height, longSide: copySide)
    let window = (x: 0, y: 0, width: image.width, height: image.height)
    let largest = max(image.width, image.height) / copySide
    let factor = largest < 2 ? nil : (2...largest).reversed().first { image.width % $0 == 0 && image.height % $0 == 0 }
    if let factor {
      if image.hasAlpha, let shrunk = try Renderer.premultipliedShrunk(image, window: window, factor: factor) {
        let (sw, sh, bytes) = try Renderer.pixelBytes(shrunk)
        let floats = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return PlaceholderCopy(premultiplied: floats, width: sw, height: sh, bands: shrunk.bands)
          .resized(width: w, height: h)
      }
      if !image.hasAlpha, let shrunk = try Renderer.boxShrunk(image, window: window, factor: factor) {
        let (sw, sh, bytes) = try Renderer.pixelBytes(shrunk)
        return PlaceholderCopy(Raster(width: sw, height: sh, bands: shrunk.bands, pixels: bytes), width: w, height: h)
      }
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
}
