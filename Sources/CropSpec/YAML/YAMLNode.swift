/// A 1-based position in a YAML source: `line` counts lines, `column` counts Unicode scalars.
package struct SourceMark: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// 1-based line number.
  package var line: Int
  /// 1-based column, in Unicode scalars (not bytes).
  package var column: Int

  /// Creates a mark at a 1-based line and column.
  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// Orders marks by line, then by column.
  package static func < (lhs: SourceMark, rhs: SourceMark) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  /// `line:column`, e.g. `3:7`.
  package var description: String { "\(line):\(column)" }
}

/// How a scalar was written in the source.
package enum ScalarStyle: Sendable, Hashable {
  /// Unquoted (`foo`); the only style whose text may be read as a number, a boolean or null.
  case plain
  /// Single- or double-quoted (`'foo'`, `"foo"`): always a string.
  case quoted
  /// A block scalar, literal (`|`) or folded (`>`): always a string.
  case literal
}

/// The content of a YAML node.
package indirect enum YAMLValue: Sendable {
  /// A scalar's text (escapes and folding already applied) and its style.
  case scalar(String, ScalarStyle)
  /// A sequence's items, in order.
  case sequence([YAMLNode])
  /// A mapping's pairs, in source order, merge keys (`<<`) already applied; keys are scalars.
  case mapping([YAMLPair])
}

/// One key-value pair of a mapping.
package struct YAMLPair: Sendable {
  /// The key; always a scalar node.
  package var key: YAMLNode
  /// The value.
  package var value: YAMLNode

  /// Creates a pair.
  package init(key: YAMLNode, value: YAMLNode) {
    self.key = key
    self.value = value
  }
}

/// A node of the YAML tree, with the position where it starts.
///
/// Aliases are expanded: an alias becomes a copy of its anchored node, with the alias's mark.
package struct YAMLNode: Sendable {
  /// The node's content.
  package var value: YAMLValue
  /// Where the node starts in the source (for an expanded alias: where the alias is).
  package var mark: SourceMark
  /// The node's explicit tag, if any; tags of the YAML core schema are shortened to `!!`,
  /// e.g. `!!str`; local tags are kept as written, e.g. `!thing`.
  package var tag: String?

  /// Creates a node.
  package init(value: YAMLValue, mark: SourceMark, tag: String? = nil) {
    self.value = value
    self.mark = mark
    self.tag = tag
  }

  /// The scalar's text, or nil when the node is a sequence or a mapping.
  package var scalar: String? {
    if case .scalar(let text, _) = value { return text }
    return nil
  }

  /// The scalar's style, or nil when the node is a sequence or a mapping.
  package var scalarStyle: ScalarStyle? {
    if case .scalar(_, let style) = value { return style }
    return nil
  }

  /// The sequence's items, or nil when the node is not a sequence.
  package var sequence: [YAMLNode]? {
    if case .sequence(let items) = value { return items }
    return nil
  }

  /// The mapping's pairs, or nil when the node is not a mapping.
  package var mapping: [YAMLPair]? {
    if case .mapping(let pairs) = value { return pairs }
    return nil
  }

  /// The value of the first pair whose key's text is `key`, if the node is a mapping.
  package subscript(key: String) -> YAMLNode? {
    mapping?.first { $0.key.scalar == key }?.value
  }

  /// "a scalar", "a sequence" or "a mapping", for messages.
  package var kindDescription: String {
    switch value {
    case .scalar: return "a scalar"
    case .sequence: return "a sequence"
    case .mapping: return "a mapping"
    }
  }
}
