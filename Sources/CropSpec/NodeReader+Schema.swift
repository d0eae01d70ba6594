/// Typed reads whose ranges and list rules are the ones `JobSchema` declares for a field,
/// so that the decoder checks what the schema states (a type without the asked form is a
/// mistake in the decoder).
extension NodeReader {
  /// An integer in the range of `type`'s integer form.
  mutating func int(_ node: YAMLNode, _ field: String, _ type: SchemaType) -> Int? {
    guard let range = type.integerRange else { preconditionFailure("\(field): the table declares no integer") }
    return int(node, field, in: range)
  }

  /// An integer in the range `entry` has for outputs of `format`.
  mutating func int(_ node: YAMLNode, _ field: String, _ entry: SchemaField, for format: OutputFormat) -> Int? {
    guard let range = entry.integerRange(for: format) else {
      preconditionFailure("\(field): the table declares no integer")
    }
    return int(node, field, in: range)
  }

  /// A number in the range of `type`'s number form.
  mutating func double(_ node: YAMLNode, _ field: String, _ type: SchemaType) -> Double? {
    guard let range = type.numberRange else { preconditionFailure("\(field): the table declares no number") }
    return double(node, field, in: range)
  }

  /// `[x, y]` in the range of `type`'s pair form.
  mutating func pair(_ node: YAMLNode, _ field: String, _ type: SchemaType) -> (Double, Double)? {
    guard let range = type.pairRange else { preconditionFailure("\(field): the table declares no pair") }
    return pair(node, field, in: range)
  }

  /// True when `value`, item `index` of the list at `field`, is its first occurrence
  /// (`seen` holds the index of each value met so far); else an error at the item.
  mutating func distinct<T: Hashable>(
    _ value: T, _ item: YAMLNode, _ field: String, index: Int, seen: inout [T: Int]
  ) -> Bool {
    if let first = seen[value] {
      error(
        item.mark, "\(field)[\(index)]",
        Diagnostic.expected("distinct values", received: "\(item.scalar ?? "") again (as at [\(first)])"))
      return false
    }
    seen[value] = index
    return true
  }
}

/// What the decoder takes from a field's entry in the table (an entry without it is a
/// mistake in the table or the decoder).
extension SchemaField {
  /// The list rules of a field the decoder reads as a list.
  var list: ListRule {
    guard let rule = listRule else { preconditionFailure("JobSchema declares no list form for \(name)") }
    return rule
  }

  /// The default of a choice field, as the decoder's value.
  func defaultChoice<E: RawRepresentable>(_: E.Type) -> E where E.RawValue == String {
    guard let value = defaultValue?.stringValue.flatMap(E.init(rawValue:)) else {
      preconditionFailure("JobSchema declares no \(E.self) default for \(name)")
    }
    return value
  }

  /// The default of a number field.
  var defaultNumber: Double {
    guard let value = defaultValue?.doubleValue else {
      preconditionFailure("JobSchema declares no default for \(name)")
    }
    return value
  }

  /// The default of a list of numbers.
  var defaultNumbers: [Double] {
    guard let items = defaultValue?.arrayValue?.compactMap(\.doubleValue) else {
      preconditionFailure("JobSchema declares no default list for \(name)")
    }
    return items
  }

  /// The default of a metadata field: a named policy.
  var defaultMetadata: MetadataPolicy {
    guard let value = JobSchema.namedMetadataPolicies.first(where: { .string($0.description) == defaultValue }) else {
      preconditionFailure("JobSchema declares no metadata default for \(name)")
    }
    return value
  }
}
