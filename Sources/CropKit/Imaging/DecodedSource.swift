import CVipsShim

/// How strictly decoding treats damage in a file (libvips' `fail_on`).
public enum DecodeStrictness: Int32, Sendable, Codable {
  case none = 0, truncated = 1, error = 2, warning = 3
}

/// A source decoded once, oriented and in sRGB, held in memory for all of its outputs.
public final class DecodedSource: @unchecked Sendable {
  let image: VipsImage
  /// Decoded pixels per oriented-source pixel, per axis (1 unless shrunk on load).
  public let scaleX: Double
  public let scaleY: Double
  public let header: SourceHeader
  public let path: String

  public var width: Int { image.width }
  public var height: Int { image.height }
  public var hasAlpha: Bool { image.hasAlpha }

  init(image: VipsImage, header: SourceHeader, path: String) {
    self.image = image
    self.header = header
    self.path = path
    scaleX = Double(image.width) / Double(header.width)
    scaleY = Double(image.height) / Double(header.height)
  }

  /// The largest shrink-on-load factor (8, 4, 2, else 1) that still leaves at least one
  /// decoded pixel per output pixel for the largest output (`maxOutputScale` output pixels
  /// per source pixel), so that no output loses resolution.
  public static func loadShrink(for header: SourceHeader, maxOutputScale: Double) -> Int {
    guard header.format.shrinksOnLoad, maxOutputScale > 0 else { return 1 }
    return [8, 4, 2].first { Double($0) * maxOutputScale <= 1.0 } ?? 1
  }

  /// Decodes `path` once: shrink-on-load by `shrink`, convert to sRGB 8-bit, into memory,
  /// then apply EXIF orientation.
  public static func decode(
    path: String, header: SourceHeader, shrink: Int, strictness: DecodeStrictness = .warning
  ) throws(ImagingError) -> DecodedSource {
    Vips.start()
    var out: OpaquePointer?
    try Vips.check(cj_load(path, Int32(shrink), strictness.rawValue, 1, &out), "load", path: path)
    guard let out else { throw ImagingError(operation: "load", path: path, message: "no image") }
    let loaded = VipsImage(out, path: path)
    let srgb = try loaded.derive("colour conversion") { cj_to_srgb($0, 1, $1) }
    let memory = try srgb.derive("decode") { cj_copy_memory($0, $1) }
    let oriented: VipsImage
    if header.orientation != 1 {
      // autorot reads the orientation tag, which the loader copied onto the image.
      oriented = try memory.derive("autorot") { cj_autorot($0, $1) }
    } else {
      oriented = memory
    }
    return DecodedSource(image: oriented, header: header, path: path)
  }
}
