internal import CPixels
internal import CVipsShim
import CropSpec
import Foundation

extension OutputFormat {
  /// libvips' saver operation for the format.
  package var saver: String {
    switch self {
    case .jpeg: "jpegsave_buffer"
    case .png: "pngsave_buffer"
    case .webp: "webpsave_buffer"
    case .avif, .heif: "heifsave_buffer"
    case .jxl: "jxlsave_buffer"
    case .tiff: "tiffsave_buffer"
    case .gif: "gifsave_buffer"
    }
  }

  /// Formats this build of libvips can write.
  package static var available: [OutputFormat] {
    allCases.filter { Vips.hasOperation($0.saver) && $0.probe() }
  }

  /// A saver can exist yet be unusable: libheif may lack an AV1 or HEVC encoder, and libvips
  /// blocks savers it marks untrusted (JPEG XL in 8.14). Each format is tried once on 16x16.
  private func probe() -> Bool { OutputFormat.probeCache[self] ?? false }

  private static let probeCache: [OutputFormat: Bool] = {
    var result: [OutputFormat: Bool] = [:]
    for format in OutputFormat.allCases where Vips.hasOperation(format.saver) {
      var out: OpaquePointer?
      let grey: [Double] = [128, 128, 128]
      let ok = grey.withUnsafeBufferPointer { cj_constant(16, 16, $0.baseAddress, 3, &out) } == 0
      guard ok, let out else {
        _ = Vips.takeError()
        result[format] = false
        continue
      }
      let image = VipsImage(out, path: nil)
      result[format] = (try? ImageEncoder.encode(image, options: EncodeOptions(format: format), quality: 50)) != nil
    }
    return result
  }()
}

extension FormatAvailability {
  /// The formats this machine's libvips can write, probed (once per process) when asked, and
  /// whether its face detector can run here (`FaceDetector.problem`).
  public static let libvips = FormatAvailability(
    probe: { OutputFormat.available }, faceDetectorProblem: { FaceDetector.problem() })
}

/// Encodes images into bytes. With `strip` (the default) no metadata at all is written;
/// otherwise the metadata the image carries is written (see `MetadataFilter`).
package enum ImageEncoder {
  package static func encode(
    _ image: VipsImage, options: EncodeOptions, quality: Int, strip stripAll: Bool = true,
    jpegEncoder: JPEGEncoder = .auto
  )
    throws(ImagingError)
    -> [UInt8]
  {
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    let q = Int32(quality)
    let strip: Int32 = stripAll ? 1 : 0
    let status: Int32
    switch options.format {
    case .jpeg:
      let subsample: Int32 = options.chromaSubsampling.map { $0 ? 1 : 2 } ?? 0
      let progressive: Int32 = options.progressive ? 1 : 0
      // Stripped 8-bit sRGB: libjpeg directly, the same bytes without libvips' saver
      // (docs/decoding.md, "Encoding JPEG outputs").
      if stripAll && jpegEncoder == .auto, let bytes = try jpegDirect(image, options: options, quality: quality) {
        return bytes
      }
      status = cj_jpegsave(image.pointer, q, progressive, subsample, 1, strip, &buffer, &length)
    case .png:
      // Stripped 8-bit RGB(A) without a palette: libpng directly, the bytes of libvips' saver
      // (docs/decoding.md, "Encoding PNG outputs").
      if stripAll && !options.palette && jpegEncoder == .auto,
        let bytes = try pngDirect(image, compression: options.compression)
      {
        return bytes
      }
      status = cj_pngsave(
        image.pointer, Int32(options.compression), options.palette ? 1 : 0, q, strip, &buffer, &length)
    case .webp:
      status = cj_webpsave(
        image.pointer, q, options.lossless ? 1 : 0, Int32(options.effort ?? 4), strip, &buffer, &length)
    case .avif, .heif:
      status = cj_heifsave(
        image.pointer, q, options.lossless ? 1 : 0, Int32(options.effort ?? 4), options.format == .avif ? 1 : 0, strip,
        &buffer, &length)
    case .jxl:
      status = cj_jxlsave(
        image.pointer, q, options.lossless ? 1 : 0, Int32(options.effort ?? 7), strip, &buffer, &length)
    case .tiff:
      status = cj_tiffsave(image.pointer, q, strip, &buffer, &length)
    case .gif:
      // cgif's default effort (7); GIF has no quality to set.
      status = cj_gifsave(image.pointer, 7, strip, &buffer, &length)
    }
    try Vips.check(status, options.format.saver.replacingOccurrences(of: "_buffer", with: ""), path: image.path)
    guard let buffer else { throw ImagingError(operation: "save", path: image.path, message: "no bytes") }
    defer { cj_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
  }
}

extension ImageEncoder {
  /// The stripped JPEG of `image` written by libjpeg directly (`cj_jpegsave_direct`: the
  /// settings of libvips' saver, the same bytes), or nil when the image is not uncoded 8-bit
  /// 3-band sRGB (libvips' saver then converts and writes it). With `optimize` false: a
  /// baseline file with libjpeg's standard Huffman tables, a third of the time, the same
  /// quantised coefficients and so the same decoded pixels (a quality search's candidate).
  package static func jpegDirect(
    _ image: VipsImage, options: EncodeOptions, quality: Int, optimize: Bool = true
  ) throws(ImagingError) -> [UInt8]? {
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    let subsample: Int32 = options.chromaSubsampling.map { $0 ? 1 : 2 } ?? 0
    let progressive: Int32 = optimize && options.progressive ? 1 : 0
    let status = cj_jpegsave_direct(
      image.pointer, Int32(quality), progressive, subsample, optimize ? 1 : 0, &buffer, &length)
    if status == 1 { return nil }
    try Vips.check(status, "jpegsave", path: image.path)
    guard let buffer else { throw ImagingError(operation: "save", path: image.path, message: "no bytes") }
    defer { cj_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
  }
}

extension ImageEncoder {
  /// The stripped PNG of `image` written by libpng directly (`cj_pngsave_direct`: the chunks
  /// and settings of libvips' saver, the same bytes), or nil when the image is not uncoded
  /// 8-bit RGB or RGBA (libvips' saver then converts and writes it).
  package static func pngDirect(_ image: VipsImage, compression: Int) throws(ImagingError) -> [UInt8]? {
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    let status = cj_pngsave_direct(image.pointer, Int32(compression), &buffer, &length)
    if status == 1 { return nil }
    try Vips.check(status, "pngsave", path: image.path)
    guard let buffer else { throw ImagingError(operation: "save", path: image.path, message: "no bytes") }
    defer { cj_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
  }
}

/// Which encoder writes stripped JPEG and PNG outputs (docs/decoding.md, "Encoding JPEG
/// outputs", "Encoding PNG outputs").
/// A run's choice (`RunOptions.jpegEncoder`; `cropjob run --jpeg-encoder`).
public enum JPEGEncoder: String, Sendable, CaseIterable {
  /// libjpeg (libpng) directly for 8-bit sRGB images without metadata, libvips' saver for the
  /// rest.
  case auto
  /// libvips' saver for every JPEG and PNG (the reference path, for comparisons).
  case libvips
}

/// Applies a metadata policy to an image before it is encoded.
enum MetadataFilter {
  /// The image with only the kept metadata. Stripping also removes the metadata from the
  /// image itself, not only through the savers' `strip` flag: libvips 8.14.1's WebP saver
  /// writes EXIF (GPS included) even with `strip` set.
  static func apply(_ policy: MetadataPolicy, to image: VipsImage) throws(ImagingError) -> VipsImage {
    let bits: [MetadataPolicy.Kind: Int32] = [
      .icc: 1, .copyright: 2, .artist: 4, .date: 8, .camera: 16, .gps: 32, .xmp: 64, .iptc: 128,
    ]
    let mask = policy.kept.reduce(Int32(0)) { $0 | bits[$1]! }
    return try image.derive("metadata") { cj_keep_metadata($0, mask, $1) }
  }

  /// The encoded file without what the saver added on its own: libvips writes an EXIF block
  /// of its own (resolution, orientation 1) whenever it writes any metadata, and its WebP
  /// saver even when stripping; a file that keeps no EXIF kind carries none.
  static func clean(_ bytes: [UInt8], format: OutputFormat, policy: MetadataPolicy) -> [UInt8] {
    guard policy.kept.isDisjoint(with: MetadataPolicy.Kind.exif) else { return bytes }
    switch format {
    case .webp where !policy.kept.contains(.xmp):
      return WebPChunks.strip(bytes, keepICC: policy.kept.contains(.icc))
    case .jpeg where !policy.kept.isEmpty:
      return JPEGSegments.stripExif(bytes)
    default:
      return bytes
    }
  }
}
