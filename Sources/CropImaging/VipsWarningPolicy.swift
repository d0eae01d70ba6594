/// Which libvips warnings raised while a file is read say nothing about its pixels (benign)
/// and which are damage. A read that raises damage fails its outputs ("damaged: …"); a
/// benign warning is dropped. The list is docs/reliability.md's ("Benign libvips
/// warnings"), each entry tested by `PhoneFormatTests` with a file that raises it.
public enum VipsWarningPolicy {
  /// A warning that is not damage, and why.
  public struct Benign: Sendable {
    /// The warning's text, as libvips writes it (the whole message).
    public var message: String
    public var why: String
  }

  public static let benign: [Benign] = [
    Benign(
      message: "heifload: ignoring nclx profile",
      why:
        "Every iPhone HEIC and every avifenc AVIF has an nclx colour box (CICP code points); libvips 8.14 reads only "
        + "ICC profiles and says it ignores the box. The pixels decode in full and are taken as sRGB, which is what "
        + "the nclx box of these files says (BT.709 primaries, sRGB transfer); a file whose nclx says otherwise "
        + "(Display P3, BT.2020) is read with its colours as if sRGB.")
  ]

  /// `warnings` without the benign ones: what makes the read damaged.
  public static func damage(_ warnings: [String]) -> [String] {
    warnings.filter { warning in !benign.contains { $0.message == warning } }
  }
}
