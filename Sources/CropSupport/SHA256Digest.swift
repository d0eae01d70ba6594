/// A SHA-256 digest in 32 bytes, for tables that hold one per source (the lowercase hex
/// string it stands for takes a heap allocation of its own).
package struct SHA256Digest: Sendable, Hashable {
  private var words: (UInt64, UInt64, UInt64, UInt64)

  /// No digest: all 32 bytes zero, which stands for none in a table (a file whose digest
  /// is that is taken as having none: it is hashed again).
  package static let none = SHA256Digest(words: (0, 0, 0, 0))

  private init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

  /// `hex`, or nil for `none`.
  package var hexUnlessNone: String? { self == .none ? nil : hex }

  /// The digest written as 64 lowercase hex digits, or nil for any other text (such a
  /// text has no digest here: the caller treats it as unknown).
  package init?(hex: String) {
    guard hex.utf8.count == 64 else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var hex = hex
    let parsed = hex.withUTF8 { bytes -> Bool in
      for w in 0..<4 {
        var word: UInt64 = 0
        for byte in bytes[(w * 16)..<(w * 16 + 16)] {
          let digit: UInt8
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
          case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
          default: return false
          }
          word = word << 4 | UInt64(digit)
        }
        switch w {
        case 0: words.0 = word
        case 1: words.1 = word
        case 2: words.2 = word
        default: words.3 = word
        }
      }
      return true
    }
    guard parsed else { return nil }
    self.words = words
  }

  /// The 64 lowercase hex digits.
  package var hex: String {
    let words = [words.0, words.1, words.2, words.3]
    return hexString((0..<32).map { UInt8(truncatingIfNeeded: words[$0 / 8] >> (56 - 8 * UInt64($0 % 8))) })
  }

  package static func == (a: Self, b: Self) -> Bool {
    a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
    hasher.combine(words.2)
    hasher.combine(words.3)
  }
}
