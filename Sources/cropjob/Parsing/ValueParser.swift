/// How the text after an option becomes a typed value: the conversion with its usage error,
/// the words it accepts (for the usage line and for suggestions), and one value it accepts.
struct ValueParser<Value> {
  /// The only words accepted, in order (`text|json|dot` in the usage line); nil for free text.
  let choices: [String]?
  /// Texts the parser accepts (the bounds of a range, every choice), so tests can give every
  /// option of a table values that differ from its default.
  let examples: [String]
  /// Converts `text`, given to the option named `option`; throws `UsageError`.
  let convert: (_ text: String, _ option: String) throws -> Value
}

extension ValueParser where Value == Int {
  /// A decimal integer within `range`.
  static func integer(in range: ClosedRange<Int>) -> Self {
    ValueParser(choices: nil, examples: [String(range.lowerBound), String(range.upperBound)]) { text, option in
      guard let value = Int(text), range.contains(value) else {
        throw UsageError(
          message: "\(option) expects an integer between \(range.lowerBound) and \(range.upperBound), got \"\(text)\"")
      }
      return value
    }
  }
}

extension ValueParser where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of the enumeration's raw values; a near miss gets a suggestion.
  static var choice: Self {
    let names = Value.allCases.map(\.rawValue)
    return ValueParser(choices: names, examples: names) { text, option in
      guard let value = Value(rawValue: text) else {
        throw UsageError(
          message: "\(option) expects one of \(names.joined(separator: ", ")), got \"\(text)\""
            + TypoHint.didYouMean(text, among: names, quoting: .quoted))
      }
      return value
    }
  }
}

extension ValueParser where Value == String {
  /// Any text, the empty string included.
  static var text: Self {
    ValueParser(choices: nil, examples: ["x"]) { text, _ in text }
  }

  /// Any text but the empty string, which is refused as `<option> expects <what>`.
  static func nonEmpty(_ what: String) -> Self {
    ValueParser(choices: nil, examples: ["x"]) { text, option in
      guard !text.isEmpty else { throw UsageError(message: "\(option) expects \(what)") }
      return text
    }
  }
}
