/// Removes the EXIF segment from a JPEG file. libvips' JPEG saver, when it writes any
/// metadata (an ICC profile, say), also writes an EXIF block it builds itself (resolution,
/// Orientation 1); an output that keeps no EXIF kind must carry none.
enum JPEGSegments {
  /// The file without its APP1 "Exif" segments. Returns the input unchanged if it does not
  /// start with SOI or its header segments do not parse.
  static func stripExif(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return bytes }
    var result: [UInt8] = [0xFF, 0xD8]
    result.reserveCapacity(bytes.count)
    var offset = 2
    // Header segments up to the start of scan; everything from SOS on is copied as it is.
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
      let marker = bytes[offset + 1]
      if marker == 0xDA { break }
      let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      let end = offset + 2 + length
      guard length >= 2, end <= bytes.count else { return bytes }
      let exif: [UInt8] = Array("Exif".utf8) + [0, 0]
      let isExif = marker == 0xE1 && length >= 8 && bytes[(offset + 4)..<(offset + 10)].elementsEqual(exif)
      if !isExif { result += bytes[offset..<end] }
      offset = end
    }
    guard offset + 2 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] == 0xDA else { return bytes }
    result += bytes[offset...]
    return result
  }
}
