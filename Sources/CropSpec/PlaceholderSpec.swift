/// A placeholder a page shows while the output loads, computed from the output's own pixels.
package enum PlaceholderKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
  /// A BlurHash string (woltapp's algorithm, base 83).
  case blurhash
  /// A ThumbHash (Evan Wallace's algorithm), base64.
  case thumbhash
  /// The dominant colour, `#rrggbb`.
  case dominant
  /// A tiny image as a data URI (low-quality image placeholder).
  case lqip

  package static func < (a: PlaceholderKind, b: PlaceholderKind) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// The format of an LQIP's tiny image.
package enum LQIPFormat: String, Sendable, Hashable, CaseIterable, Codable {
  case webp, jpeg
}

/// Which placeholders an output asks for, and their settings (`placeholders:` in the job file).
package struct PlaceholderSpec: Sendable, Hashable {
  /// The kinds asked for, each once, in `PlaceholderKind`'s order.
  package var kinds: [PlaceholderKind]
  /// BlurHash components across and down (1...9 each).
  package var blurhashX: Int
  package var blurhashY: Int
  /// The LQIP's longer side in pixels.
  package var lqipSize: Int
  package var lqipFormat: LQIPFormat

  package static let defaultBlurhash = (x: 4, y: 3)
  package static let defaultLQIPSize = 16
  /// JPEG: libwebp's encoder costs twice libjpeg's instructions for a 16 px image (its
  /// set-up), which the placeholders' 5 % budget of a web-size run cannot afford; WebP, which
  /// keeps transparency, is one setting away.
  package static let defaultLQIPFormat = LQIPFormat.jpeg
  /// The LQIP's encoder quality (fixed: with sides of at most 32 px the data URI stays
  /// under 1 kB).
  package static let lqipQuality = 60

  package init(
    kinds: [PlaceholderKind], blurhashX: Int = defaultBlurhash.x, blurhashY: Int = defaultBlurhash.y,
    lqipSize: Int = defaultLQIPSize, lqipFormat: LQIPFormat = defaultLQIPFormat
  ) {
    self.kinds = Array(Set(kinds)).sorted()
    self.blurhashX = blurhashX
    self.blurhashY = blurhashY
    self.lqipSize = lqipSize
    self.lqipFormat = lqipFormat
  }

  /// The recipe line (`OutputKey`): the kinds and the settings of those asked for.
  package var recipe: String {
    kinds.map { kind in
      switch kind {
      case .blurhash: "blurhash:\(blurhashX)x\(blurhashY)"
      case .lqip: "lqip:\(lqipFormat.rawValue)\(lqipSize)"
      case .thumbhash, .dominant: kind.rawValue
      }
    }.joined(separator: ",")
  }
}

/// The placeholders computed for one output (those asked for; the others nil), as the
/// manifest and the state record them.
package struct PlaceholderValues: Codable, Sendable, Equatable {
  /// BlurHash string, e.g. `LEHV6nWB2yk8pyo0adR*.7kCMdnj`.
  package var blurhash: String?
  /// ThumbHash bytes in standard base64 (with padding).
  package var thumbhash: String?
  /// Dominant colour, `#rrggbb` (lowercase).
  package var dominant: String?
  /// `data:image/webp;base64,…` or `data:image/jpeg;base64,…`.
  package var lqip: String?

  package init(blurhash: String? = nil, thumbhash: String? = nil, dominant: String? = nil, lqip: String? = nil) {
    self.blurhash = blurhash
    self.thumbhash = thumbhash
    self.dominant = dominant
    self.lqip = lqip
  }

  /// The value of `kind` (nil when not computed).
  package subscript(kind: PlaceholderKind) -> String? {
    switch kind {
    case .blurhash: blurhash
    case .thumbhash: thumbhash
    case .dominant: dominant
    case .lqip: lqip
    }
  }
}
