import CropSpec
import Foundation

/// The low-quality image placeholder: the placeholder copy averaged down to `size` pixels on
/// its longer side and encoded at quality `PlaceholderSpec.lqipQuality` (WebP at effort 0),
/// as a data URI.
/// WebP keeps the alpha (when some pixel is not opaque); JPEG has none, so its pixels are
/// composited over the mean colour, as the hashes' are.
enum LQIP {
  static func dataURI(_ copy: PlaceholderCopy, size: Int, format: LQIPFormat) throws(ImagingError) -> String {
    let small = copy.downscaled(longSide: size)
    let withAlpha = format == .webp && small.hasAlpha
    var bytes: [UInt8] = []
    func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v + 0.5).rounded(.down)))) }
    if withAlpha {
      bytes.reserveCapacity(small.width * small.height * 4)
      for p in stride(from: 0, to: small.pixels.count, by: 4) {
        let alpha = small.pixels[p + 3]
        for c in 0..<3 { bytes.append(alpha > 0 ? byte(small.pixels[p + c] / alpha) : 0) }
        bytes.append(byte(alpha * 255))
      }
    } else {
      bytes = small.composited().map(byte)
    }
    let raster = Raster(width: small.width, height: small.height, bands: withAlpha ? 4 : 3, pixels: bytes)
    var options = EncodeOptions(format: format == .webp ? .webp : .jpeg)
    options.quality = PlaceholderSpec.lqipQuality
    // libwebp's fastest method: a tenth of the default's instructions at 16 px, a few bytes more.
    if format == .webp { options.effort = 0 }
    // No metadata: libvips' WebP saver adds an EXIF block even when stripping (`MetadataFilter`).
    let encoded = MetadataFilter.clean(
      try ImageEncoder.encode(raster.vipsImage(), options: options, quality: options.quality), format: options.format,
      policy: .strip)
    return "data:image/\(format.rawValue);base64," + Data(encoded).base64EncodedString()
  }
}
