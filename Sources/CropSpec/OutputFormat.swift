/// Output formats cropjob can write. Whether this machine's libvips can write one is a
/// question for the imaging stage (`OutputFormat.available` there); the job file is checked
/// against the answer it is given (`FormatAvailability`).
package enum OutputFormat: String, Sendable, Codable, CaseIterable, Hashable {
  case jpeg, png, webp, avif, heif, jxl, tiff, gif

  /// Whether the format stores an alpha channel.
  package var hasAlpha: Bool { self != .jpeg }

  /// Whether cropjob writes every frame of an animated source in this format
  /// (`encode.frames: all`): animated WebP and GIF; the others hold one still image.
  package var animates: Bool { self == .webp || self == .gif }

  /// The quality an output of this format is encoded at when its job says none: sharp's
  /// defaults (JPEG 80, WebP 80, AVIF and HEIF 50), which make files of about the same
  /// visual quality (a single 85 for every format made AVIF larger than WebP of the same
  /// size, issue 40); JPEG XL and a PNG palette keep 85.
  package var defaultQuality: Int {
    switch self {
    case .jpeg, .webp: 80
    case .avif, .heif: 50
    default: 85
    }
  }

  /// Usual file extension.
  package var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    default: rawValue
    }
  }
}

/// Encoder settings of one output (quality is passed separately: budgets search it).
package struct EncodeOptions: Sendable, Hashable, Codable {
  package var format: OutputFormat
  /// 1...100; by default the format's `defaultQuality`.
  package var quality: Int
  package var lossless: Bool = false
  /// CPU effort: WebP 0...6, AVIF/HEIF 0...9, JPEG XL 1...9.
  package var effort: Int? = nil
  package var progressive: Bool = false
  /// JPEG chroma subsampling: nil = libvips' default (4:2:0 below quality 90).
  package var chromaSubsampling: Bool? = nil
  /// PNG zlib compression 0...9 (rows filtered adaptively from 1 up: docs/decoding.md).
  package var compression: Int = 2
  /// PNG: quantise to a palette (libimagequant).
  package var palette: Bool = false

  package init(format: OutputFormat) {
    self.format = format
    quality = format.defaultQuality
  }
}
