/// What cropjob reads from a JPEG's header segments (SOI up to the first SOS) to decide
/// whether libjpeg-turbo may decode it directly (docs/decoding.md): the frame type, the
/// Adobe transform, the ICC profile, the EXIF orientation, the JFIF density, and whether
/// any metadata segment is present. Only structure is read here; libjpeg-turbo checks the rest.
struct JPEGHeaderInfo {
  /// The SOFn marker (0xC0 ... 0xCF but DHT/JPG/DAC), its sample precision and component count.
  var frameMarker: UInt8 = 0
  var precision = 0
  var components = 0
  /// APP14 "Adobe" transform byte (0 RGB/CMYK, 1 YCbCr, 2 YCCK), when present.
  var adobeTransform: Int? = nil
  /// The APP2 "ICC_PROFILE" chunks reassembled in sequence order, when present.
  var icc: [UInt8]? = nil
  /// EXIF orientation 1...8 from the APP1 "Exif" block (1 when absent or out of range).
  var orientation = 1
  /// Whether an EXIF, XMP (APP1), ICC (APP2) or IPTC/Photoshop (APP13) segment is present: the
  /// outputs that keep metadata then take it from libvips' reading of the header.
  var hasMetadata = false
  /// Pixels per millimetre as libvips' JPEG loader sets them: from the EXIF resolution, else
  /// the JFIF segment's (in inches or cm, densities other than 1), else 72 dpi.
  var xres = 72 / 25.4
  var yres = 72 / 25.4
  /// The orientation libvips gives this file for certain, or nil when its EXIF is anything
  /// but plain (`JPEGHeaderReader` then leaves the file to libvips): no APP1 segment starting
  /// "Exif" gives 1; exactly one, "Exif\0\0" then a TIFF header and an IFD0 that parse, whose
  /// orientation tag is one SHORT in 1...8, gives that value. libvips reads the tag through
  /// libexif, which looks in the other IFDs when IFD0 has none and clips values to 1...8:
  /// those cases, and several EXIF segments, are left to it.
  var plainOrientation: Int? = 1
  private var exifSegments = 0

  /// Parses `bytes`; nil when they do not start with SOI or a header segment does not parse
  /// (libvips then reads the file and reports what is wrong with it).
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var chunks: [Int: [UInt8]] = [:]
    var chunkCount = 0
    var offset = 2
    var sawFrame = false
    var sawExifResolution = false
    while true {
      guard offset + 2 <= bytes.count, bytes[offset] == 0xFF else { return nil }
      var marker = bytes[offset + 1]
      // Fill bytes (0xFF repeated) before a marker.
      while marker == 0xFF {
        offset += 1
        guard offset + 2 <= bytes.count else { return nil }
        marker = bytes[offset + 1]
      }
      offset += 2
      if marker == 0xDA { break }
      if marker == 0x01 || (0xD0...0xD8).contains(marker) { return nil }
      guard offset + 2 <= bytes.count else { return nil }
      let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
      guard length >= 2, offset + length <= bytes.count else { return nil }
      let body = UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + length)])
      switch marker {
      case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
        guard !sawFrame, body.count >= 6 else { return nil }
        sawFrame = true
        frameMarker = marker
        precision = Int(body[0])
        components = Int(body[5])
      case 0xE0 where Self.starts(body, "JFIF\0") && body.count >= 12:
        let unit = body[7]
        let x = Double(Int(body[8]) << 8 | Int(body[9]))
        let y = Double(Int(body[10]) << 8 | Int(body[11]))
        if (unit == 1 || unit == 2) && x != 1 && y != 1 && !sawExifResolution {
          let perMillimetre = unit == 1 ? 25.4 : 10.0
          (xres, yres) = (x / perMillimetre, y / perMillimetre)
        }
      case 0xE1:
        hasMetadata = true
        if Self.starts(body, "Exif") {
          // libvips' test for the EXIF segment (jpeg2vips.c): four bytes.
          exifSegments += 1
          plainOrientation =
            exifSegments == 1 && Self.starts(body, "Exif\0\0")
            ? Self.plainOrientation(UnsafeRawBufferPointer(rebasing: body[6...])) : nil
        }
        if Self.starts(body, "Exif\0\0") {
          let tiff = UnsafeRawBufferPointer(rebasing: body[6...])
          orientation = Self.exifOrientation(tiff) ?? 1
          // libvips takes the resolution from EXIF over JFIF's (inch by default, 1: as is).
          if let (x, y, unit) = Self.exifResolution(tiff), x > 0, y > 0 {
            let perMillimetre = unit == 3 ? 10.0 : unit == 1 ? 1.0 : 25.4
            (xres, yres) = (x / perMillimetre, y / perMillimetre)
            sawExifResolution = true
          }
        }
      case 0xE2 where Self.starts(body, "ICC_PROFILE\0") && body.count >= 14:
        hasMetadata = true
        chunks[Int(body[12])] = Array(body[14...])
        chunkCount = Int(body[13])
      case 0xED:
        hasMetadata = true
      case 0xEE where Self.starts(body, "Adobe") && body.count >= 12:
        adobeTransform = Int(body[11])
      default:
        break
      }
      offset += length
    }
    guard sawFrame else { return nil }
    if !chunks.isEmpty {
      // libjpeg's rule: every chunk 1...count present once; otherwise no usable profile, and
      // the file goes to libvips.
      guard chunkCount > 0, chunks.count == chunkCount, (1...chunkCount).allSatisfy({ chunks[$0] != nil }) else {
        return nil
      }
      icc = (1...chunkCount).flatMap { chunks[$0]! }
    }
  }

  private static func starts(_ body: UnsafeRawBufferPointer, _ text: String) -> Bool {
    let prefix = Array(text.utf8)
    return body.count >= prefix.count && body.prefix(prefix.count).elementsEqual(prefix)
  }

  /// Tag 0x0112 of IFD0 of a TIFF structure, nil when absent, malformed or out of 1...8.
  static func exifOrientation(_ tiff: UnsafeRawBufferPointer) -> Int? {
    guard let entry = ifd0Entry(tiff, tag: 0x0112), entry.type == 3, (1...8).contains(entry.short) else { return nil }
    return entry.short
  }

  /// IFD0's orientation when it is one SHORT in 1...8; nil when IFD0 does not parse or the tag
  /// is absent or anything else.
  static func plainOrientation(_ tiff: UnsafeRawBufferPointer) -> Int? {
    guard ifd0Parses(tiff), let entry = ifd0Entry(tiff, tag: 0x0112), entry.type == 3, entry.count == 1,
      (1...8).contains(entry.short)
    else { return nil }
    return entry.short
  }

  /// XResolution, YResolution (RATIONAL) and ResolutionUnit (SHORT, 2 when absent) of IFD0.
  static func exifResolution(_ tiff: UnsafeRawBufferPointer) -> (Double, Double, Int)? {
    guard let x = ifd0Entry(tiff, tag: 0x011A), let y = ifd0Entry(tiff, tag: 0x011B), x.type == 5, y.type == 5,
      let xv = x.rational, let yv = y.rational
    else { return nil }
    let unit = ifd0Entry(tiff, tag: 0x0128).flatMap { $0.type == 3 ? $0.short : nil } ?? 2
    return (xv, yv, unit)
  }

  /// Whether IFD0's table lies wholly inside the block (every entry readable).
  static func ifd0Parses(_ tiff: UnsafeRawBufferPointer) -> Bool {
    guard let (little, ifd) = tiffHeader(tiff), ifd >= 8, ifd + 2 <= tiff.count else { return false }
    let count = little ? Int(tiff[ifd]) | Int(tiff[ifd + 1]) << 8 : Int(tiff[ifd]) << 8 | Int(tiff[ifd + 1])
    return ifd + 2 + 12 * count + 4 <= tiff.count
  }

  /// The byte order and IFD0's offset of a TIFF header.
  private static func tiffHeader(_ tiff: UnsafeRawBufferPointer) -> (little: Bool, ifd: Int)? {
    guard tiff.count >= 8 else { return nil }
    let little: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    let magic = little ? Int(tiff[2]) | Int(tiff[3]) << 8 : Int(tiff[2]) << 8 | Int(tiff[3])
    let b = (0..<4).map { Int(tiff[4 + $0]) }
    let ifd = little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
    return magic == 42 ? (little, ifd) : nil
  }

  /// One IFD0 entry: its type, count, its first SHORT value, and for a RATIONAL its value.
  private static func ifd0Entry(_ tiff: UnsafeRawBufferPointer, tag wanted: Int) -> (
    type: Int, count: Int, short: Int, rational: Double?
  )? {
    guard let (little, ifd) = tiffHeader(tiff) else { return nil }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= tiff.count else { return nil }
      return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let a = u16(at), let b = u16(at + 2) else { return nil }
      return little ? a | b << 16 : a << 16 | b
    }
    guard let count = u16(ifd) else { return nil }
    for entry in 0..<count {
      let at = ifd + 2 + 12 * entry
      guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4), let short = u16(at + 8) else {
        return nil
      }
      if tag == wanted {
        var rational: Double? = nil
        if type == 5, let offset = u32(at + 8), let num = u32(offset), let den = u32(offset + 4), den != 0 {
          rational = Double(num) / Double(den)
        }
        return (type, count, short, rational)
      }
    }
    return nil
  }
}
