/// Colours: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa", a few lowercase names, or [r, g, b(, a)]
/// in 0...255 (the forms `JobSchema` lists).
enum ColourParser {
  static func parse(_ node: YAMLNode, _ field: String, reader: inout NodeReader) -> [Double]? {
    let rule = JobSchema.place["background"].list
    if case .sequence(let items) = node.value, rule.minItems <= items.count, items.count <= rule.maxItems ?? .max {
      var values: [Double] = []
      for (i, item) in items.enumerated() {
        guard let v = reader.int(item, field + "[\(i)]", rule.item) else { return nil }
        values.append(Double(v))
      }
      return values.count == 3 ? values + [255] : values
    }
    if case .scalar(let text, _) = node.value {
      if let named = JobSchema.colourNames[text] { return named }
      if let hex = hex(text) { return hex }
    }
    let names = JobSchema.colourNames.keys.sorted()
    let hint = node.scalar.map { Suggestion.didYouMean($0, in: names) } ?? ""
    reader.expected(
      node, field, "a colour: \"#rrggbb\", \"#rrggbbaa\", \"#rgb\", \(names.joined(separator: ", ")) or [r, g, b(, a)]",
      hint: hint)
    return nil
  }

  /// RGBA of "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa".
  static func hex(_ text: String) -> [Double]? {
    guard text.hasPrefix("#") else { return nil }
    var digits = String(text.dropFirst())
    guard digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else { return nil }
    if digits.count == 3 || digits.count == 4 { digits = digits.map { "\($0)\($0)" }.joined() }
    guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
    let full = digits.count == 6 ? (value << 8) | 0xff : value
    return [24, 16, 8, 0].map { Double((full >> UInt32($0)) & 0xff) }
  }
}
