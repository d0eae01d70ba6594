/// Colours: "#rgb", "#rrggbb", "#rrggbbaa", a few names, or [r, g, b(, a)] in 0...255.
enum ColourParser {
  static let names: [String: [Double]] = [
    "white": [255, 255, 255, 255], "black": [0, 0, 0, 255], "transparent": [0, 0, 0, 0],
    "grey": [128, 128, 128, 255], "gray": [128, 128, 128, 255],
  ]

  static func parse(_ node: YAMLNode, _ field: String, reader: inout NodeReader) -> [Double]? {
    if case .sequence(let items) = node.value, items.count == 3 || items.count == 4 {
      var values: [Double] = []
      for (i, item) in items.enumerated() {
        guard let v = reader.int(item, field + "[\(i)]", in: 0...255) else { return nil }
        values.append(Double(v))
      }
      return values.count == 3 ? values + [255] : values
    }
    if case .scalar(let text, _) = node.value {
      if let named = names[text.lowercased()] { return named }
      if let hex = hex(text) { return hex }
    }
    reader.expected(node, field, "a colour such as \"#ffffff\", \"#00000000\", white, black, transparent or [r, g, b]")
    return nil
  }

  static func hex(_ text: String) -> [Double]? {
    guard text.hasPrefix("#") else { return nil }
    var digits = String(text.dropFirst())
    if digits.count == 3 || digits.count == 4 { digits = digits.map { "\($0)\($0)" }.joined() }
    guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
    let full = digits.count == 6 ? (value << 8) | 0xff : value
    return [24, 16, 8, 0].map { Double((full >> UInt32($0)) & 0xff) }
  }
}
