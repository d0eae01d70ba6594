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

  /// The placeholders `spec` asks for, of `image` (the rendered output, before encoding).
  static func make(_ image: VipsImage, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    try make(image.raster(), spec: spec)
  }

  /// The placeholders `spec` asks for, of `raster` (8-bit, straight alpha).
  public static func make(_ raster: Raster, spec: PlaceholderSpec) throws(ImagingError) -> PlaceholderValues {
    let copy = PlaceholderCopy(raster, longSide: copySide)
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
