/// Typed reads from YAML nodes that report every mismatch as a located diagnostic.
struct NodeReader {
  let file: String
  private(set) var diagnostics: [Diagnostic] = []

  init(file: String) { self.file = file }

  mutating func error(_ mark: SourceMark, _ field: String, _ message: String) {
    diagnostics.append(Diagnostic(.error, file: file, mark: mark, field: field, message: message))
  }

  mutating func warning(_ mark: SourceMark, _ field: String, _ message: String) {
    diagnostics.append(Diagnostic(.warning, file: file, mark: mark, field: field, message: message))
  }

  mutating func expected(_ node: YAMLNode, _ field: String, _ what: String) {
    error(node.mark, field, Diagnostic.expected(what, received: Self.describe(node)))
  }

  /// How a node reads to a person: `the string "abc"`, `a list`, `null`.
  static func describe(_ node: YAMLNode) -> String {
    switch node.value {
    case .scalar(let text, let style):
      if style == .plain && isNull(text) { return "null" }
      if style == .plain && (Int(text) != nil || Double(text) != nil) { return "the number \(text)" }
      if style == .plain && (text == "true" || text == "false") { return text }
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return "the string \"\(shown)\""
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    }
  }

  static func isNull(_ text: String) -> Bool { text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL" }

  /// A mapping's entries by key; unknown keys are errors with a suggestion.
  mutating func mapping(_ node: YAMLNode, _ field: String, known: [String]) -> [String: YAMLNode]? {
    guard case .mapping(let pairs) = node.value else {
      expected(node, field, "a mapping")
      return nil
    }
    var entries: [String: YAMLNode] = [:]
    for pair in pairs {
      guard case .scalar(let key, _) = pair.key.value else {
        expected(pair.key, field, "a plain key")
        continue
      }
      if !known.isEmpty && !known.contains(key) {
        error(
          pair.key.mark, join(field, key),
          "unknown key \"\(key)\"\(Suggestion.didYouMean(key, in: known)); expected one of: \(known.joined(separator: ", "))")
        continue
      }
      entries[key] = pair.value
    }
    return entries
  }

  /// Keys of a mapping with their nodes, in file order (for named jobs).
  mutating func orderedMapping(_ node: YAMLNode, _ field: String) -> [(String, YAMLNode, SourceMark)]? {
    guard case .mapping(let pairs) = node.value else {
      expected(node, field, "a mapping")
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

  mutating func string(_ node: YAMLNode, _ field: String) -> String? {
    guard case .scalar(let text, let style) = node.value, !(style == .plain && Self.isNull(text)) else {
      expected(node, field, "a string")
      return nil
    }
    return text
  }

  mutating func int(_ node: YAMLNode, _ field: String, in range: ClosedRange<Int>) -> Int? {
    guard case .scalar(let text, .plain) = node.value, let value = Int(text.replacingOccurrences(of: "_", with: "")) else {
      expected(node, field, "an integer between \(range.lowerBound) and \(range.upperBound)")
      return nil
    }
    guard range.contains(value) else {
      expected(node, field, "an integer between \(range.lowerBound) and \(range.upperBound)")
      return nil
    }
    return value
  }

  mutating func double(_ node: YAMLNode, _ field: String, in range: ClosedRange<Double>) -> Double? {
    guard case .scalar(let text, .plain) = node.value, let value = Double(text), value.isFinite else {
      expected(node, field, "a number between \(format(range.lowerBound)) and \(format(range.upperBound))")
      return nil
    }
    guard range.contains(value) else {
      expected(node, field, "a number between \(format(range.lowerBound)) and \(format(range.upperBound))")
      return nil
    }
    return value
  }

  mutating func bool(_ node: YAMLNode, _ field: String) -> Bool? {
    if case .scalar(let text, .plain) = node.value {
      if text == "true" { return true }
      if text == "false" { return false }
    }
    expected(node, field, "true or false")
    return nil
  }

  mutating func choice<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ field: String, _: E.Type) -> E?
  where E.RawValue == String {
    let names = E.allCases.map(\.rawValue)
    guard case .scalar(let text, _) = node.value, let value = E(rawValue: text) else {
      let hint: String
      if case .scalar(let text, _) = node.value { hint = Suggestion.didYouMean(text, in: names) } else { hint = "" }
      error(
        node.mark, field,
        Diagnostic.expected("one of " + names.joined(separator: ", "), received: Self.describe(node)) + hint)
      return nil
    }
    return value
  }

  /// A list; a single scalar is read as a list of one when `single` is true.
  mutating func list(_ node: YAMLNode, _ field: String, single: Bool = false) -> [YAMLNode]? {
    switch node.value {
    case .sequence(let items): return items
    case .scalar where single: return [node]
    default:
      expected(node, field, single ? "a string or a list" : "a list")
      return nil
    }
  }

  /// `[x, y]` numbers.
  mutating func pair(_ node: YAMLNode, _ field: String, in range: ClosedRange<Double>) -> (Double, Double)? {
    guard case .sequence(let items) = node.value, items.count == 2 else {
      expected(node, field, "a list of two numbers [x, y]")
      return nil
    }
    guard let x = double(items[0], field + "[0]", in: range), let y = double(items[1], field + "[1]", in: range) else {
      return nil
    }
    return (x, y)
  }

  private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

/// `a.b`, `a[0]`.
func join(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }
