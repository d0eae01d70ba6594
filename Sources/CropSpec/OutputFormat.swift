/// Output formats cropjob can write. Whether this machine's libvips can write one is a
/// question for the imaging stage (`OutputFormat.available` there); the job file is checked
/// against the answer it is given (`FormatAvailability`).
public enum OutputFormat: String, Sendable, Codable, CaseIterable, Hashable {
  case jpeg, png, webp, avif, heif, jxl, tiff, gif

  /// Whether the format stores an alpha channel.
  public var hasAlpha: Bool { self != .jpeg }

  /// Whether cropjob writes every frame of an animated source in this format
  /// (`encode.frames: all`): animated WebP and GIF; the others hold one still image.
  public var animates: Bool { self == .webp || self == .gif }

  /// Usual file extension.
  public var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    default: rawValue
    }
  }
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
  /// PNG zlib compression 0...9 (rows filtered adaptively from 1 up: docs/decoding.md).
  public var compression: Int = 2
  /// PNG: quantise to a palette (libimagequant).
  public var palette: Bool = false

  public init(format: OutputFormat) { self.format = format }
}
