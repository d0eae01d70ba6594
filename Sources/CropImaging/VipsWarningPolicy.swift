/// Which libvips warnings raised while a file is read say nothing about its pixels (benign)
/// and which are damage. A read that raises damage fails its outputs ("damaged: …"); a
/// benign warning is dropped. The list is docs/reliability.md's ("Benign libvips
/// warnings"), each entry tested with a real file that raises it (`PhoneFormatTests`,
/// `BenignWarningTests`).
package enum VipsWarningPolicy {
  /// A warning that is not damage, and why.
  package struct Benign: Sendable {
    /// The warning as libvips writes it; `N` stands for a number the rule constrains.
    package var message: String
    package var why: String
    /// Whether a warning's whole text is this one.
    let matches: @Sendable (String) -> Bool

    init(message: String, why: String, matches: (@Sendable (String) -> Bool)? = nil) {
      self.message = message
      self.why = why
      self.matches = matches ?? { $0 == message }
    }
  }

  /// The TIFF tags at and above 32768 are private (registered with Adobe by other
  /// organisations: GeoTIFF's 33550, 33922, 34264, 34735-34737; GDAL's 42112, 42113); libtiff
  /// does not know them and says so, and skips them.
  static let firstPrivateTag = 32768

  package static let benign: [Benign] = [
    Benign(
      message: "heifload: ignoring nclx profile",
      why:
        "Every iPhone HEIC and every avifenc AVIF has an nclx colour box (CICP code points); libvips 8.14 reads only "
        + "ICC profiles and says it ignores the box. The pixels decode in full and are taken as sRGB, which is what "
        + "the nclx box of these files says (BT.709 primaries, sRGB transfer); a file whose nclx says otherwise "
        + "(Display P3, BT.2020) is read with its colours as if sRGB."),
    Benign(
      message: "Unknown field with tag N (0xH) encountered, N ≥ 32768",
      why:
        "libtiff does not know a private tag (GeoTIFF's georeferencing, GDAL's metadata and no-data value) and "
        + "skips it; the pixels are in the baseline tags it reads.",
      matches: { privateTag(in: $0, prefix: "Unknown field with tag ", suffix: " encountered") }),
    Benign(
      message: "ASCII value for tag \"Tag N\" does not end in null byte. Forcing it to be null, N ≥ 32768",
      why:
        "libtiff ends a private tag's text (GeoTIFF's GeoAsciiParams) that its writer did not end; the text is "
        + "metadata cropjob does not read, the pixels are not concerned.",
      matches: {
        privateTag(
          in: $0, prefix: "ASCII value for tag \"Tag ", suffix: "\" does not end in null byte. Forcing it to be null")
      }),
    Benign(
      message: "iCCP: profile 'NAME': 0h: PCS illuminant is not D50",
      why:
        "libpng checks the illuminant field of an ICC profile's header, which ICC.1 fixes at D50 and some "
        + "profiles (ProPhoto and camera profiles) fill with their white point; LittleCMS, which converts the "
        + "pixels, does not use the field. libvips still reads the profile and the pixels, and converts them "
        + "through it as Pillow, libvips' command line and sharp do.",
      matches: { $0.hasPrefix("iCCP: profile '") && $0.hasSuffix("': 0h: PCS illuminant is not D50") }),
  ]

  /// Whether `warning` is `prefix`, a tag number of a private tag (in decimal, then in hex
  /// in parentheses when `suffix` follows " (0x…)"), then `suffix`.
  static func privateTag(in warning: String, prefix: String, suffix: String) -> Bool {
    guard warning.hasPrefix(prefix), warning.hasSuffix(suffix) else { return false }
    var middle = warning.dropFirst(prefix.count).dropLast(suffix.count)
    if let space = middle.firstIndex(of: " ") {
      // "33550 (0x830e)": the hex must be the same number.
      let hex = middle[space...]
      guard hex.hasPrefix(" (0x"), hex.hasSuffix(")"),
        let value = Int(hex.dropFirst(4).dropLast(), radix: 16)
      else { return false }
      middle = middle[..<space]
      guard Int(middle) == value else { return false }
    }
    guard middle.allSatisfy(\.isASCII), let tag = Int(middle) else { return false }
    return tag >= firstPrivateTag && tag <= 65535
  }

  /// `warnings` without the benign ones: what makes the read damaged.
  package static func damage(_ warnings: [String]) -> [String] {
    warnings.filter { warning in !benign.contains { $0.matches(warning) } }
  }
}
