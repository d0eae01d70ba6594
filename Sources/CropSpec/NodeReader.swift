/// Typed reads from YAML nodes that report every mismatch as a located diagnostic.
///
/// Scalars follow YAML 1.2's core schema, strictly: only `true` and `false` are booleans,
/// numbers are decimal (`-12`, `0.5`, `1e3`; integers may group digits with `_`), and `~`,
/// `null` or nothing is null. Anything else plain is a string (`yes`, `0x10` and `1:30` too).
/// Where a string is expected, a plain scalar that reads as a number, a boolean or null is
/// an error that asks for quotes, as an editor checking the JSON Schema would say.
package struct NodeReader {
  let file: String
  private(set) package var diagnostics: [Diagnostic] = []
  /// Settings inherited by several jobs are checked once per job: report each problem once.
  private var reported: Set<Diagnostic> = []

  init(file: String) { self.file = file }

  mutating func error(_ mark: SourceMark, _ field: String, _ message: String) {
    add(Diagnostic(.error, file: file, mark: mark, field: field, message: message))
  }

  mutating func warning(_ mark: SourceMark, _ field: String, _ message: String) {
    add(Diagnostic(.warning, file: file, mark: mark, field: field, message: message))
  }

  private mutating func add(_ diagnostic: Diagnostic) {
    if reported.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
  }

  /// Makes the diagnostics from index `start` on warnings (a crop table's row under
  /// `on_error: fail-row`); returns them.
  mutating func demoteToWarnings(from start: Int) -> ArraySlice<Diagnostic> {
    for i in start..<diagnostics.count { diagnostics[i].severity = .warning }
    return diagnostics[start...]
  }

  /// Adds diagnostics found by another reader (a crop table's), in their order.
  mutating func append(_ found: [Diagnostic]) {
    for diagnostic in found { add(diagnostic) }
  }

  mutating func expected(_ node: YAMLNode, _ field: String, _ what: String, hint: String = "") {
    error(node.mark, field, Diagnostic.expected(what, received: Self.describe(node)) + hint)
  }

  // MARK: Scalars as YAML 1.2's core schema reads them

  /// The text of a plain, untagged scalar: the only kind that may be a number, a boolean or
  /// null (quoted and block scalars, and `!!str`, are strings).
  static func plainText(_ node: YAMLNode) -> String? {
    guard case .scalar(let text, .plain) = node.value, node.tag != "!!str" else { return nil }
    return text
  }

  static func isNull(_ text: String) -> Bool {
    text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
  }

  /// `[-+]?(0|[1-9][0-9_]*)`, digits grouped with `_` allowed; a leading zero before more
  /// digits (`010`) is not a number, as in JSON (YAML 1.1 read it as octal). One pass over
  /// the bytes, no copy (a crop table reads millions).
  package static func integerValue(_ text: String) -> Int? {
    var value = 0
    var negative = false
    var digits = 0
    var overflow = false
    var leadingZero = false
    for (i, byte) in text.utf8.enumerated() {
      if leadingZero { return nil }
      switch byte {
      case UInt8(ascii: "-") where i == 0: negative = true
      case UInt8(ascii: "+") where i == 0: break
      case UInt8(ascii: "_") where digits > 0: break
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        leadingZero = digits == 0 && byte == UInt8(ascii: "0")
        let (times, o1) = value.multipliedReportingOverflow(by: 10)
        let digit = Int(byte - UInt8(ascii: "0"))
        let (sum, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        overflow = overflow || o1 || o2
        value = sum
        digits += 1
      default: return nil
      }
    }
    return digits > 0 && !overflow ? value : nil
  }

  /// `[-+]?(.[0-9]+|(0|[1-9][0-9]*)(.[0-9]*)?)([eE][-+]?[0-9]+)?`: no hex, no `inf`, no
  /// `nan`, no leading zero before more digits (`010`, `00.5`), as in JSON.
  package static func numberValue(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { numberValue($0) }
  }

  /// `numberValue` of UTF-8 bytes: one pass, no copy (a crop table reads millions). Up to 15
  /// digits without an exponent, the value is the digits as an integer divided by a power of
  /// ten, both exact in a `Double`, so one correctly rounded division gives what `strtod`
  /// gives; other numbers are read by `Double(_:)`.
  package static func numberValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    // States: 0 start, 1 after the sign, 2 integer digits, 3 a dot before any digit,
    // 4 fraction digits (or a dot after digits), 5 after e, 6 after the exponent's sign,
    // 7 exponent digits. 2, 4 and 7 accept.
    var state = 0
    var negative = false
    var digits = 0
    var fractionDigits = 0
    var mantissa = 0
    var leadingZero = false
    for byte in bytes {
      let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
      let sign = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
      let dot = byte == UInt8(ascii: ".")
      let e = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
      if digit && state < 5 {
        digits += 1
        if digits <= 15 { mantissa = mantissa &* 10 &+ Int(byte &- UInt8(ascii: "0")) }
        if state == 3 || state == 4 { fractionDigits += 1 }
      }
      switch state {
      case 0 where sign:
        negative = byte == UInt8(ascii: "-")
        state = 1
      case 0, 1:
        if digit {
          state = 2
          leadingZero = byte == UInt8(ascii: "0")
        } else if dot {
          state = 3
        } else {
          return nil
        }
      case 2:
        // A leading zero is followed by no digit (`0.5`, `0e3`; not `010`).
        if digit && leadingZero { return nil }
        if digit { state = 2 } else if dot { state = 4 } else if e { state = 5 } else { return nil }
      case 3: if digit { state = 4 } else { return nil }
      case 4: if digit { state = 4 } else if e { state = 5 } else { return nil }
      case 5: if sign { state = 6 } else if digit { state = 7 } else { return nil }
      default: if digit { state = 7 } else { return nil }
      }
    }
    guard state == 2 || state == 4 || state == 7 else { return nil }
    if state != 7 && digits <= 15 {
      let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
      return negative ? -magnitude : magnitude
    }
    guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
    return value
  }

  /// Whether `plain` is written as a number (digits, a dot, an exponent) whose value a
  /// `Double` cannot hold (`1e999`): a number out of range, not a string.
  static func isOutOfRangeNumber(_ plain: String) -> Bool {
    guard plain.contains(where: \.isNumber), plain.allSatisfy({ "0123456789.eE+-_".contains($0) }),
      let value = Double(plain.replacingOccurrences(of: "_", with: ""))
    else { return false }
    return !value.isFinite
  }

  /// 10⁰ … 10¹⁵, each exact in a `Double`.
  private static let powersOfTen: [Double] = (0...15).map { n in (0..<n).reduce(1.0) { value, _ in value * 10 } }

  /// How a node reads to a person: `the string "abc"`, `the number 5`, `a list`, `null`.
  static func describe(_ node: YAMLNode) -> String {
    switch node.value {
    case .scalar(let text, _):
      if let plain = plainText(node) {
        if isNull(plain) { return "null" }
        if integerValue(plain) != nil || numberValue(plain) != nil { return "the number \(plain)" }
        if isOutOfRangeNumber(plain) { return "the number \(plain), out of range (beyond ±1.8e308)" }
        if plain == "true" || plain == "false" { return plain }
      }
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return text.isEmpty ? "an empty string" : "the string \"\(shown)\""
    case .sequence(let items): return items.isEmpty ? "an empty list" : "a list"
    case .mapping(let pairs): return pairs.isEmpty ? "an empty mapping" : "a mapping"
    }
  }

  // MARK: Mappings and lists

  /// A mapping's entries by key; unknown keys are errors with a suggestion.
  mutating func mapping(_ node: YAMLNode, _ field: String, known: [String], what: String = "a mapping")
    -> [String: YAMLNode]?
  {
    guard case .mapping(let pairs) = node.value else {
      expected(node, field, what)
      return nil
    }
    var entries: [String: YAMLNode] = [:]
    entries.reserveCapacity(pairs.count)
    for pair in pairs {
      guard case .scalar(let key, _) = pair.key.value else {
        expected(pair.key, field, "a plain key")
        continue
      }
      if !known.isEmpty && !known.contains(key) {
        error(
          pair.key.mark, join(field, key),
          Diagnostic.expected(
            "one of the keys " + known.joined(separator: ", "), received: "the unknown key \"\(key)\"")
            + hint(forUnknown: key, known: known))
        continue
      }
      entries[key] = pair.value
    }
    return entries
  }

  /// A known key one edit away (`width` → `widths` in an output), else where a key written at
  /// the wrong level belongs (`"zoom" is a key of place`), else the nearest known key.
  private func hint(forUnknown key: String, known: [String]) -> String {
    if let near = Suggestion.closest(to: key, in: known), Suggestion.distance(key, near) <= 1 {
      return Suggestion.didYouMean(key, in: known)
    }
    let elsewhere = JobSchema.elsewhere(key, notIn: known)
    return elsewhere.isEmpty ? Suggestion.didYouMean(key, in: known) : elsewhere
  }

  /// Keys of a mapping with their nodes, in file order (for named jobs).
  mutating func orderedMapping(_ node: YAMLNode, _ field: String, what: String = "a mapping")
    -> [(String, YAMLNode, SourceMark)]?
  {
    guard case .mapping(let pairs) = node.value else {
      expected(node, field, what)
      return nil
    }
    var result: [(String, YAMLNode, SourceMark)] = []
    for pair in pairs {
      guard case .scalar(let key, _) = pair.key.value else {
        expected(pair.key, field, "a plain key")
        continue
      }
      result.append((key, pair.value, pair.key.mark))
    }
    return result
  }

  /// A list; a single scalar is read as a list of one when `single` is true.
  mutating func list(_ node: YAMLNode, _ field: String, single: Bool = false, what: String? = nil) -> [YAMLNode]? {
    switch node.value {
    case .sequence(let items): return items
    case .scalar where single && !(Self.plainText(node).map(Self.isNull) ?? false): return [node]
    default:
      expected(node, field, what ?? (single ? "a string or a list" : "a list"))
      return nil
    }
  }

  // MARK: Typed scalars

  /// A non-empty string; numbers, booleans and null written without quotes are refused.
  mutating func string(_ node: YAMLNode, _ field: String, what: String = "a string") -> String? {
    guard case .scalar(let text, _) = node.value else {
      expected(node, field, what)
      return nil
    }
    if let plain = Self.plainText(node), Self.isNull(plain) || Self.readsAsNumberOrBool(plain) {
      expected(node, field, what, hint: Self.isNull(plain) ? "" : " (quote it: \"\(plain)\")")
      return nil
    }
    if text.isEmpty {
      expected(node, field, "a non-empty string")
      return nil
    }
    return text
  }

  /// True when plain `text` reads as a number or a boolean.
  static func readsAsNumberOrBool(_ text: String) -> Bool {
    Self.integerValue(text) != nil || Self.numberValue(text) != nil || text == "true" || text == "false"
  }

  /// An integer: digits (`30_000`), or a number with no fraction (`1e3`, `5.0`), as JSON
  /// Schema's `integer` reads it.
  static func wholeValue(_ text: String) -> Int? {
    if let value = integerValue(text) { return value }
    guard let value = numberValue(text), value == value.rounded(), abs(value) < 9e15 else { return nil }
    return Int(value)
  }

  mutating func int(_ node: YAMLNode, _ field: String, in range: ClosedRange<Int>) -> Int? {
    guard let text = Self.plainText(node), let value = Self.wholeValue(text), range.contains(value) else {
      expected(
        node, field, "an integer between \(range.lowerBound) and \(range.upperBound)", hint: Self.leadingZeroHint(node))
      return nil
    }
    return value
  }

  /// ` (a leading zero makes it a string, as in JSON; write 10)` for a plain `010`, else "".
  static func leadingZeroHint(_ node: YAMLNode) -> String {
    guard let text = plainText(node) else { return "" }
    let unsigned = text.drop { $0 == "-" || $0 == "+" }
    guard unsigned.count > 1, unsigned.first == "0", unsigned.dropFirst().first?.isNumber == true,
      let value = Double(text.replacingOccurrences(of: "_", with: ""))
    else { return "" }
    return " (a leading zero makes it a string, as in JSON; write \(format(value)))"
  }

  /// A number; an integer with grouped digits (`1_000`) is one too, as the JSON Schema
  /// reads it (a fraction does not group digits).
  mutating func double(_ node: YAMLNode, _ field: String, in range: ClosedRange<Double>) -> Double? {
    guard let text = Self.plainText(node),
      let value = Self.numberValue(text) ?? Self.integerValue(text).map(Double.init),
      range.contains(value)
    else {
      let what = "a number between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))"
      expected(node, field, what, hint: Self.leadingZeroHint(node))
      return nil
    }
    return value
  }

  mutating func bool(_ node: YAMLNode, _ field: String) -> Bool? {
    if let text = Self.plainText(node) {
      if text == "true" { return true }
      if text == "false" { return false }
    }
    expected(node, field, "true or false")
    return nil
  }

  /// One of a fixed set of names; `aliases` are other spellings of the same values.
  mutating func choice<E: RawRepresentable & CaseIterable>(
    _ node: YAMLNode, _ field: String, _: E.Type, aliases: [String: E] = [:]
  ) -> E? where E.RawValue == String {
    let names = E.allCases.map(\.rawValue)
    if case .scalar(let text, _) = node.value, Self.plainText(node).map(Self.isNull) != true {
      if let value = E(rawValue: text) ?? aliases[text] { return value }
      expected(node, field, "one of " + names.joined(separator: ", "), hint: Suggestion.didYouMean(text, in: names))
    } else {
      expected(node, field, "one of " + names.joined(separator: ", "))
    }
    return nil
  }

  /// `[x, y]` numbers.
  mutating func pair(_ node: YAMLNode, _ field: String, in range: ClosedRange<Double>) -> (Double, Double)? {
    guard case .sequence(let items) = node.value, items.count == 2 else {
      expected(
        node, field,
        "a list of two numbers [x, y] between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))")
      return nil
    }
    let x = double(items[0], field + "[0]", in: range)
    let y = double(items[1], field + "[1]", in: range)
    guard let x, let y else { return nil }
    return (x, y)
  }

  /// Integral values without a fraction (`5`, not `5.0`); others in Swift's shortest form
  /// (as diagnostics and the printed schema write numbers).
  package static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

/// `a.b`, `a[0]`.
func join(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }
