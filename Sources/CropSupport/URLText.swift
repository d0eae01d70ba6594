/// Paths made into URLs (RFC 3986): every byte of the UTF-8 text but the unreserved
/// characters (`A-Z a-z 0-9 - . _ ~`), `/` and `@` is percent-encoded, so spaces, quotes, `&`,
/// commas (which would split a `srcset`), `#`, `?`, `%` and non-ASCII names survive.
package enum URLText {
  package static func encodedPath(_ path: String) -> String {
    var result = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "@"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        result.unicodeScalars.append("%")
        result.unicodeScalars.append(hex[Int(byte >> 4)])
        result.unicodeScalars.append(hex[Int(byte & 15)])
      }
    }
    return result
  }

  /// A configured URL prefix (`base_url`) made safe in a `srcset`: its spaces, commas, quotes,
  /// `<`, `>`, other bytes no URL may hold and non-ASCII are percent-encoded; the rest
  /// (`:`, `/`, `?`, `&`, `%`…) is kept as written.
  package static func encodedPrefix(_ prefix: String) -> String {
    var result = ""
    for byte in prefix.utf8 {
      if byte > 0x20 && byte < 0x7F && !Array("\"<>\\^`{|},".utf8).contains(byte) {
        result.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return result
  }

  /// `target` (a path relative to the output root) as a relative URL from the file `from`
  /// (also relative to the root): `../` for each of `from`'s folders not shared, then the rest.
  package static func relative(_ target: String, from: String) -> String {
    let folder = from.split(separator: "/").dropLast()
    let parts = target.split(separator: "/")
    var shared = 0
    while shared < folder.count, shared < parts.count - 1, folder[shared] == parts[shared] { shared += 1 }
    let up = Array(repeating: "..", count: folder.count - shared)
    return encodedPath((up + parts[shared...].map(String.init)).joined(separator: "/"))
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
