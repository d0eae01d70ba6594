import CVipsShim
import Foundation

/// Output formats cropjob can write, when this libvips build has the saver.
public enum OutputFormat: String, Sendable, Codable, CaseIterable, Hashable {
  case jpeg, png, webp, avif, heif, jxl, tiff

  /// libvips' saver operation for the format.
  var saver: String {
    switch self {
    case .jpeg: "jpegsave_buffer"
    case .png: "pngsave_buffer"
    case .webp: "webpsave_buffer"
    case .avif, .heif: "heifsave_buffer"
    case .jxl: "jxlsave_buffer"
    case .tiff: "tiffsave_buffer"
    }
  }

  /// Whether the format stores an alpha channel.
  public var hasAlpha: Bool { self != .jpeg }

  /// Usual file extension.
  public var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    default: rawValue
    }
  }

  /// Whether `quality` means something for this format (PNG: only with a palette).
  public var hasQuality: Bool { self != .tiff }

  /// Formats this build of libvips can write.
  public static var available: [OutputFormat] {
    allCases.filter { Vips.hasOperation($0.saver) && $0.probe() }
  }

  /// libheif may be built without an AV1 or HEVC encoder: try a 16x16 encode once.
  private func probe() -> Bool {
    guard self == .avif || self == .heif else { return true }
    return OutputFormat.probeCache[self] ?? false
  }

  private static let probeCache: [OutputFormat: Bool] = {
    var result: [OutputFormat: Bool] = [:]
    for format in [OutputFormat.avif, .heif] {
      var out: OpaquePointer?
      let grey: [Double] = [128, 128, 128]
      let ok = grey.withUnsafeBufferPointer { cj_constant(16, 16, $0.baseAddress, 3, &out) } == 0
      guard ok, let out else {
        _ = Vips.takeError()
        result[format] = false
        continue
      }
      let image = VipsImage(out, path: nil)
      let options = EncodeOptions(format: format)
      result[format] = (try? Encoder.encode(image, options: options, quality: 50)) != nil
    }
    return result
  }()
}

/// Encoder settings of one output (quality is passed separately: budgets search it).
public struct EncodeOptions: Sendable, Hashable, Codable {
  public var format: OutputFormat
  public var quality: Int = 85
  public var lossless: Bool = false
  /// CPU effort: WebP 0...6, AVIF/HEIF 0...9, JPEG XL 1...9.
  public var effort: Int? = nil
  public var progressive: Bool = false
  /// JPEG chroma subsampling: nil = libvips' default (4:2:0 below quality 90).
  public var chromaSubsampling: Bool? = nil
  /// PNG zlib compression 0...9.
  public var compression: Int = 6
  /// PNG: quantise to a palette (libimagequant).
  public var palette: Bool = false

  public init(format: OutputFormat) { self.format = format }
}

/// Encodes images into bytes; metadata is always stripped here (kept metadata is written
/// afterwards, on purpose, by the metadata policy).
enum Encoder {
  static func encode(_ image: VipsImage, options: EncodeOptions, quality: Int) throws(ImagingError) -> [UInt8] {
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    let q = Int32(quality)
    let strip: Int32 = 1
    let status: Int32
    switch options.format {
    case .jpeg:
      let subsample: Int32 = options.chromaSubsampling.map { $0 ? 1 : 2 } ?? 0
      status = cj_jpegsave(image.pointer, q, options.progressive ? 1 : 0, subsample, 1, strip, &buffer, &length)
    case .png:
      status = cj_pngsave(image.pointer, Int32(options.compression), options.palette ? 1 : 0, q, strip, &buffer, &length)
    case .webp:
      status = cj_webpsave(image.pointer, q, options.lossless ? 1 : 0, Int32(options.effort ?? 4), strip, &buffer, &length)
    case .avif, .heif:
      status = cj_heifsave(
        image.pointer, q, options.lossless ? 1 : 0, Int32(options.effort ?? 4), options.format == .avif ? 1 : 0, strip,
        &buffer, &length)
    case .jxl:
      status = cj_jxlsave(image.pointer, q, options.lossless ? 1 : 0, Int32(options.effort ?? 7), strip, &buffer, &length)
    case .tiff:
      status = cj_tiffsave(image.pointer, q, strip, &buffer, &length)
    }
    try Vips.check(status, options.format.saver.replacingOccurrences(of: "_buffer", with: ""), path: image.path)
    guard let buffer else { throw ImagingError(operation: "save", path: image.path, message: "no bytes") }
    defer { cj_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
  }
}
