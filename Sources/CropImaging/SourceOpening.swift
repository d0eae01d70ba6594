internal import CVipsShim
import CropPlan
import Foundation

/// Opening and decoding untrusted files: only the accepted loaders, only regular files, and
/// every libvips warning raised while an image is read counted as a failure of that image
/// (see docs/reliability.md, "Decoding").
enum SourceOpening {
  /// Runs `body` while recording the libvips warnings raised on this thread. libvips
  /// evaluates pipelines on worker threads, so whatever `body` decodes must be evaluated on
  /// the calling thread (`decodeHere`) for its warnings to be seen here, and every image
  /// `body` opens must be released before it returns: libvips' JPEG reader reports the
  /// warnings of a read when it is closed ("read gave 1 warnings").
  static func capturingWarnings<T>(
    _ body: () throws(ImagingError) -> T
  ) throws(ImagingError) -> (value: T, warnings: [String]) {
    Vips.start()
    let token = cj_capture_begin()
    let value: T
    do {
      value = try body()
    } catch {
      let warnings = endCapture(token)
      if warnings.isEmpty { throw error }
      // The warnings usually say more than libvips' error ("libpng read error").
      var detailed = error
      let trimmed = error.message.trimmingCharacters(in: .whitespacesAndNewlines)
      detailed.message =
        trimmed.isEmpty
        ? "damaged: \(warnings.joined(separator: "; "))"
        : "\(error.summary) (libvips warnings: \(warnings.joined(separator: "; ")))"
      throw detailed
    }
    return (value, endCapture(token))
  }

  private static func endCapture(_ token: UnsafeMutableRawPointer?) -> [String] {
    var buffer = [CChar](repeating: 0, count: 1100)
    let count = cj_capture_end(token, &buffer, buffer.count)
    guard count > 0 else { return [] }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var messages = text.split(separator: "; ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    // Repeated warnings (a header read twice) once each, in order.
    var seen = Set<String>()
    messages = messages.filter { seen.insert($0).inserted }
    if messages.isEmpty { return ["\(count) warning(s)"] }
    // Benign warnings (VipsWarningPolicy) are not damage: dropped here, the one place
    // every read's warnings pass.
    return VipsWarningPolicy.damage(messages)
  }

  /// An opened file: the (lazy) image, its format, and the size its header stores, which
  /// the image shows only when it was not shrunk on load.
  struct Opened {
    var image: VipsImage
    var format: InputFormat
    var storedWidth: Int
    var storedHeight: Int
  }

  /// Opens `path` lazily through the accepted loader that recognises its bytes.
  static func open(
    path: String, headerOnly: Bool, shrink: Int = 1, strictness: DecodeStrictness
  ) throws(ImagingError) -> Opened {
    Vips.start()
    var out: OpaquePointer?
    var index: Int32 = -1
    var stored: [Int32] = [0, 0]
    var message = [CChar](repeating: 0, count: 512)
    let status = cj_open(
      path, headerOnly ? 1 : 0, Int32(shrink), strictness.rawValue, &index, &out, &stored, &message, message.count)
    let (image, format) = try opened(status: status, out: out, index: index, message: message, path: path)
    return Opened(image: image, format: format, storedWidth: Int(stored[0]), storedHeight: Int(stored[1]))
  }

  /// Opens frames `page` to `page + count - 1` of an animated GIF or WebP (`count` -1: to the
  /// last) lazily, as one image the frames stacked top to bottom (`cj_open_frames`).
  static func openFrames(
    path: String, page: Int, count: Int, strictness: DecodeStrictness
  ) throws(ImagingError) -> (image: VipsImage, format: InputFormat) {
    Vips.start()
    var out: OpaquePointer?
    var index: Int32 = -1
    var message = [CChar](repeating: 0, count: 512)
    let status = cj_open_frames(
      path, Int32(page), Int32(count), strictness.rawValue, &index, &out, &message, message.count)
    return try opened(status: status, out: out, index: index, message: message, path: path)
  }

  /// Opens the bytes of a file read by `FileBytes.read` (which `cj_open_bytes` takes over)
  /// through the accepted loader that recognises them, lazily.
  static func open(
    bytes: FileBytes, path: String, shrink: Int, strictness: DecodeStrictness
  ) throws(ImagingError) -> Opened {
    Vips.start()
    var out: OpaquePointer?
    var index: Int32 = -1
    var stored: [Int32] = [0, 0]
    let count = bytes.count
    let status = cj_open_bytes(bytes.take(), count, Int32(shrink), strictness.rawValue, &index, &out, &stored)
    let (image, format) = try opened(status: status, out: out, index: index, message: [], path: path)
    return Opened(image: image, format: format, storedWidth: Int(stored[0]), storedHeight: Int(stored[1]))
  }

  /// The image a `cj_open*` call gave (status 0), or its failure as an error naming `path`:
  /// -2 the file itself (`message`), -3 a format cropjob does not read, else libvips' error.
  private static func opened(
    status: Int32, out: OpaquePointer?, index: Int32, message: [CChar], path: String
  ) throws(ImagingError) -> (VipsImage, InputFormat) {
    switch status {
    case 0:
      guard let out, let format = InputFormat(loaderIndex: Int(index)) else {
        throw ImagingError(operation: "load", path: path, message: "no image")
      }
      return (VipsImage(out, path: path), format)
    case -2:
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ImagingError(operation: "load", path: path, message: text)
    case -3:
      throw ImagingError(operation: "load", path: path, message: unsupportedMessage(path: path))
    default:
      throw ImagingError(operation: "load", path: path, message: explained(Vips.takeError()))
    }
  }

  /// libvips' error as a reason a user reads where libjpeg's is obscure: a JPEG of a process
  /// libjpeg-turbo 2.1 does not decode ("Unsupported JPEG process: SOF type 0xc3") says
  /// which (docs/decoding.md, "What is refused").
  static func explained(_ message: String) -> String {
    let marker = "Unsupported JPEG process: SOF type 0x"
    guard let range = message.range(of: marker) else { return message }
    let code = message[range.upperBound...].prefix(2).lowercased()
    let kind: String
    switch code {
    case "c3", "c7", "cb", "cf": kind = "lossless JPEG is not supported"
    case "c5", "c6", "cd", "ce": kind = "hierarchical JPEG is not supported"
    default: return message
    }
    return "\(kind) (SOF type 0x\(code)); cropjob reads baseline, extended, progressive and arithmetic-coded JPEG"
  }

  /// "unsupported format (PDF); cropjob reads jpeg, png, ...": names common formats from
  /// their first bytes, for a clear error (nothing else about the file is trusted).
  static func unsupportedMessage(path: String) -> String {
    let accepted = InputFormat.allCases.map(\.rawValue).joined(separator: ", ")
    var head = [UInt8]()
    if let handle = FileHandle(forReadingAtPath: path) {
      head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
      try? handle.close()
    }
    let kind = sniff(head).map { "unsupported format (\($0))" } ?? "not an image in a format cropjob reads"
    return "\(kind); cropjob reads \(accepted)"
  }

  static func sniff(_ head: [UInt8]) -> String? {
    func starts(_ prefix: String) -> Bool { head.starts(with: Array(prefix.utf8)) }
    func at(_ offset: Int, _ text: String) -> Bool {
      head.count >= offset + text.utf8.count && Array(head[offset..<offset + text.utf8.count]) == Array(text.utf8)
    }
    let text = String(decoding: head.prefix(512), as: UTF8.self).lowercased()
    if starts("%PDF") { return "PDF" }
    if starts("%!PS") { return "PostScript" }
    if text.contains("<svg") { return "SVG" }
    if starts("<?xml") || starts("<") { return "XML or HTML text" }
    if head.count >= 2, head[0] == 0x50, (0x31...0x37).contains(head[1]) { return "PPM/PNM" }
    if starts("BM") { return "BMP" }
    if head.starts(with: [0, 0, 1, 0]) { return "ICO" }
    if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
      return "JPEG XL"
    }
    if at(4, "jP  ") || head.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return "JPEG 2000" }
    // An image sequence (an animated AVIF or HEIF) has no still image libheif 1.15 reads.
    if at(4, "ftypavis") { return "animated AVIF: an image sequence, not a still image" }
    if at(4, "ftypmsf1") || at(4, "ftyphevs") { return "HEIF image sequence, not a still image" }
    if head.starts(with: [0x49, 0x49, 0xBC]) { return "JPEG XR" }
    if starts("8BPS") { return "Photoshop" }
    if starts("\u{76}\u{2F}\u{31}\u{01}") { return "OpenEXR" }
    if starts("SIMPLE") { return "FITS" }
    if starts("#?RADIANCE") { return "Radiance HDR" }
    if head.starts(with: [0xFF, 0xD8]) { return "damaged JPEG" }
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "damaged PNG" }
    if starts("GIF8") { return "damaged GIF" }
    return nil
  }

  /// Evaluates `image` into memory on this thread: see `capturingWarnings`.
  static func decodeHere(_ image: VipsImage) throws(ImagingError) -> VipsImage {
    try image.derive("decode") { cj_decode_here($0, $1) }
  }
}

extension InputFormat {
  /// The format of `cj_open`'s loader index.
  init?(loaderIndex: Int) {
    let order: [InputFormat] = [.jpeg, .png, .webp, .tiff, .gif, .heif]
    guard order.indices.contains(loaderIndex) else { return nil }
    self = order[loaderIndex]
  }
}
