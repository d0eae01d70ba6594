/// Checks on the raw bytes of a YAML source, and conversions between byte offsets and
/// marks. Lines break like libyaml's: at LF, CR, CR LF, NEL, LS and PS; columns count
/// Unicode scalars; a leading byte order mark takes no column.
struct YAMLSource {
  let bytes: [UInt8]

  /// Offset of the first byte after the UTF-8 byte order mark, if any.
  var contentStart: Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  /// True when there is nothing but a byte order mark.
  var isEmpty: Bool { bytes.count == contentStart }

  /// Throws at the first byte that is not part of well-formed UTF-8, and at any NUL byte.
  func validateUTF8() throws(YAMLError) {
    // UTF-16 and UTF-32 (which libyaml would read) are named, so the fix is obvious.
    let byteOrderMarks: [([UInt8], String)] = [
      ([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"), ([0xFE, 0xFF], "UTF-16"),
      ([0xFF, 0xFE], "UTF-16"),
    ]
    for (mark, name) in byteOrderMarks where bytes.starts(with: mark) {
      throw YAMLError(
        message: "the file is \(name) (it starts with a \(name) byte order mark); save it as UTF-8",
        mark: SourceMark(line: 1, column: 1))
    }
    var index = contentStart
    let count = bytes.count
    while index < count {
      let lead = bytes[index]
      if lead == 0 {
        throw YAMLError(
          message: "NUL byte (0x00) at byte offset \(index) is not allowed; expected UTF-8 text",
          mark: mark(atOffset: index))
      }
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var scalar: UInt32
      switch lead {
      case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
      case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
      case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
      default: throw invalidUTF8(at: index, "byte 0x\(hex(lead)) cannot start a character")
      }
      for next in 1..<length {
        guard index + next < count else {
          throw invalidUTF8(at: index, "the input ends inside a \(length)-byte character")
        }
        let byte = bytes[index + next]
        guard byte & 0xC0 == 0x80 else {
          throw invalidUTF8(
            at: index,
            "byte 0x\(hex(byte)) at byte offset \(index + next) is not a continuation byte")
        }
        scalar = scalar << 6 | UInt32(byte & 0x3F)
      }
      if (length == 3 && scalar < 0x800) || (length == 4 && scalar < 0x1_0000) {
        throw invalidUTF8(at: index, "overlong encoding")
      }
      if (0xD800...0xDFFF).contains(scalar) {
        throw invalidUTF8(
          at: index, "encoded surrogate U+\(String(scalar, radix: 16, uppercase: true))")
      }
      if scalar > 0x10_FFFF {
        throw invalidUTF8(at: index, "code point beyond U+10FFFF")
      }
      index += length
    }
  }

  private func invalidUTF8(at offset: Int, _ detail: String) -> YAMLError {
    YAMLError(
      message: "invalid UTF-8 at byte offset \(offset) (\(detail)); expected UTF-8 text",
      mark: mark(atOffset: offset))
  }

  private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }

  /// Length of the line break starting at `offset`, or 0 when there is none.
  private func lineBreakLength(at offset: Int) -> Int {
    let count = bytes.count
    switch bytes[offset] {
    case 0x0A: return 1
    case 0x0D: return offset + 1 < count && bytes[offset + 1] == 0x0A ? 2 : 1
    case 0xC2: return offset + 1 < count && bytes[offset + 1] == 0x85 ? 2 : 0
    case 0xE2:
      return offset + 2 < count && bytes[offset + 1] == 0x80
        && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9) ? 3 : 0
    default: return 0
    }
  }

  /// Length in bytes of the (valid or not) character starting at `offset`.
  private func characterLength(at offset: Int) -> Int {
    let lead = bytes[offset]
    let length: Int
    switch lead {
    case 0xC0...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF7: length = 4
    default: length = 1
    }
    var valid = 1
    while valid < length, offset + valid < bytes.count, bytes[offset + valid] & 0xC0 == 0x80 {
      valid += 1
    }
    return valid
  }

  /// The mark of the character that starts at byte `offset`.
  func mark(atOffset offset: Int) -> SourceMark {
    var line = 1
    var column = 1
    var index = contentStart
    let end = min(offset, bytes.count)
    while index < end {
      let breakLength = lineBreakLength(at: index)
      if breakLength > 0 {
        line += 1
        column = 1
        index += breakLength
      } else {
        column += 1
        index += characterLength(at: index)
      }
    }
    return SourceMark(line: line, column: column)
  }

  /// Byte offset where 1-based `line` starts, or nil when there is no such line.
  func lineStart(_ line: Int) -> Int? {
    var current = 1
    var index = contentStart
    while current < line {
      guard index < bytes.count else { return nil }
      let breakLength = lineBreakLength(at: index)
      if breakLength > 0 {
        current += 1
        index += breakLength
      } else {
        index += characterLength(at: index)
      }
    }
    return index
  }

  /// When a scanner error at `mark` comes from a tab in indentation, the tab's mark: the
  /// error is at a tab, or inside or just after a line's leading blanks that hold a tab.
  func indentationTab(near mark: SourceMark) -> SourceMark? {
    guard let start = lineStart(mark.line) else { return nil }
    var index = start
    var column = 1
    var firstTab: Int?
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
      if bytes[index] == 0x09, firstTab == nil { firstTab = column }
      index += 1
      column += 1
    }
    if let firstTab, mark.column <= column {
      return SourceMark(line: mark.line, column: firstTab)
    }
    // A tab after content (e.g. `-\tvalue`): the error points right at it.
    var offset = start
    for _ in 1..<max(mark.column, 1) {
      guard offset < bytes.count, lineBreakLength(at: offset) == 0 else { return nil }
      offset += characterLength(at: offset)
    }
    return offset < bytes.count && bytes[offset] == 0x09 ? mark : nil
  }
}
