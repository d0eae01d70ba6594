/// Removes metadata chunks from a WebP file. libvips 8.14.1's WebP saver writes an EXIF
/// chunk (orientation, resolution) even when asked to strip; a stripped output must carry none.
enum WebPChunks {
  /// The file without its EXIF and XMP chunks (and ICCP when `keepICC` is false), with the
  /// VP8X flags and the RIFF size updated. Returns the input unchanged if it is not a RIFF WebP.
  static func strip(_ bytes: [UInt8], keepICC: Bool) -> [UInt8] {
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
      return bytes
    }
    var removed: Set<String> = ["EXIF", "XMP "]
    if !keepICC { removed.insert("ICCP") }
    var body: [UInt8] = []
    var offset = 12
    var vp8xFlagsIndex: Int? = nil
    while offset + 8 <= bytes.count {
      let fourcc = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
      let size =
        Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7])
        << 24
      let end = min(bytes.count, offset + 8 + size + (size & 1))
      if !removed.contains(fourcc) {
        if fourcc == "VP8X" { vp8xFlagsIndex = body.count + 8 }
        body += bytes[offset..<end]
      }
      offset = end
    }
    if let index = vp8xFlagsIndex, index < body.count {
      body[index] &= ~UInt8(0x08 | 0x04)  // EXIF and XMP present.
      if !keepICC { body[index] &= ~UInt8(0x20) }
    }
    let riffSize = UInt32(4 + body.count)
    return Array("RIFF".utf8) + (0..<4).map { UInt8((riffSize >> (8 * UInt32($0))) & 0xff) } + Array("WEBP".utf8) + body
  }
}
