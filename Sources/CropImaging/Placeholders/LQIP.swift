internal import CPixels
internal import CVipsShim
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
    if format == .jpeg {
      return "data:image/jpeg;base64,"
        + Data(try jpeg(bytes, width: small.width, height: small.height)).base64EncodedString()
    }
    let raster = Raster(width: small.width, height: small.height, bands: withAlpha ? 4 : 3, pixels: bytes)
    var options = EncodeOptions(format: .webp)
    options.quality = PlaceholderSpec.lqipQuality
    // libwebp's fastest method: a tenth of the default's instructions at 16 px, a few bytes more.
    options.effort = 0
    // No metadata: libvips' WebP saver adds an EXIF block even when stripping (`MetadataFilter`).
    let encoded = MetadataFilter.clean(
      try ImageEncoder.encode(raster.vipsImage(), options: options, quality: options.quality), format: options.format,
      policy: .strip)
    return "data:image/\(format.rawValue);base64," + Data(encoded).base64EncodedString()
  }

  /// The baseline JPEG of 8-bit RGB `rgb`, as the outputs' encoder writes it stripped
  /// (`cj_jpeg_encode`: optimised Huffman tables, no JFIF segment), straight from the bytes,
  /// with one pair of Huffman tables for the three components: in a 16 px JPEG the tables
  /// are most of the bytes, and half as many are half the work to optimise.
  static func jpeg(_ rgb: [UInt8], width: Int, height: Int) throws(ImagingError) -> [UInt8] {
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = rgb.withUnsafeBufferPointer { pixels in
      message.withUnsafeMutableBufferPointer {
        cj_jpeg_encode(
          pixels.baseAddress, width * 3, Int32(width), Int32(height), 3, Int32(PlaceholderSpec.lqipQuality), 0, 0, 1, 1,
          &buffer, &length, $0.baseAddress, $0.count)
      }
    }
    guard status == 0, let buffer else {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ImagingError(operation: "LQIP", path: nil, message: text.isEmpty ? "JPEG encoder failed" : text)
    }
    defer { cj_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
  }
}
