/// The type of a value in a job file, as the schema and the reference describe it.
package indirect enum SchemaType: Sendable {
  /// A non-empty string; `pattern` (ECMA-262) must match the whole string.
  case string(pattern: String? = nil)
  case integer(ClosedRange<Int>)
  case number(ClosedRange<Double>)
  case boolean
  /// Exactly this integer (`version: 1`).
  case constant(Int)
  /// One of these strings.
  case choice([String])
  /// A list of values of one type.
  case list(SchemaType, minItems: Int = 1, maxItems: Int? = nil, unique: Bool = false)
  /// Exactly two numbers `[x, y]` in a range.
  case pair(ClosedRange<Double>)
  /// A named value type or mapping (`$defs`).
  case ref(String)
  /// Exactly one of several forms.
  case oneOf([SchemaType])
  /// A mapping from names matching `keyPattern` to values of one type.
  case map(keyPattern: String, value: SchemaType, minProperties: Int)
  /// A list (of the list type given, which has a `maxItems`) in which every item but the
  /// last is one of `leading` (`focus: [faces, regions, attention]`).
  case ordered(SchemaType, leading: [String])
}

/// What a list allows: the type of its items, how many, and whether one may appear twice
/// (JSON Schema's `items`, `minItems`, `maxItems`, `uniqueItems`). The schema states it and
/// the decoder checks it, both from the table.
package struct ListRule: Sendable {
  package let item: SchemaType
  package let minItems: Int
  package let maxItems: Int?
  /// Whether a repeated item is an error.
  package let unique: Bool
}

extension SchemaType {
  /// This type with a named value type (`$defs`) replaced by its definition; mappings and
  /// other types are themselves.
  package var resolved: SchemaType {
    if case .ref(let name) = self, let value = JobSchema.value(name) { return value.type.resolved }
    return self
  }

  /// The forms a value may take: those of `oneOf`, else this type (named types resolved).
  package var forms: [SchemaType] {
    if case .oneOf(let forms) = resolved { return forms.flatMap(\.forms) }
    if case .ordered(let list, _) = resolved { return list.forms }
    return [resolved]
  }

  /// The rules of the list form, if any (a pair is a list of exactly two numbers).
  package var listRule: ListRule? {
    for form in forms {
      switch form {
      case .list(let item, let minItems, let maxItems, let unique):
        return ListRule(item: item, minItems: minItems, maxItems: maxItems, unique: unique)
      case .pair(let range):
        return ListRule(item: .number(range), minItems: 2, maxItems: 2, unique: false)
      default: continue
      }
    }
    return nil
  }

  /// The range of the integer form, if any.
  package var integerRange: ClosedRange<Int>? {
    if case .integer(let range) = self { return range }  // the usual case, without building `forms`
    for case .integer(let range) in forms { return range }
    return nil
  }

  /// The range of the number form, if any.
  package var numberRange: ClosedRange<Double>? {
    if case .number(let range) = self { return range }  // the usual case, without building `forms`
    for case .number(let range) in forms { return range }
    return nil
  }

  /// The range of both numbers of the `[x, y]` form, if any.
  package var pairRange: ClosedRange<Double>? {
    if case .pair(let range) = self { return range }  // the usual case, without building `forms`
    for case .pair(let range) in forms { return range }
    return nil
  }

  /// The names of the choice form, if any.
  package var choices: [String]? {
    for case .choice(let names) in forms { return names }
    return nil
  }
}

/// The range of an integer encoder setting for some formats (`effort`: webp 0...6, jxl
/// 1...9), and what libvips uses for them when the key is absent (cropjob then passes none).
package struct FormatRange: Sendable {
  package let formats: [OutputFormat]
  package let range: ClosedRange<Int>
  package let defaultValue: Int
}

/// One key of a mapping in the job file.
package struct SchemaField: Sendable {
  package let name: String
  package let type: SchemaType
  package let description: String
  /// What the decoder uses when the key is absent (nil: nothing, or it is required).
  package let defaultValue: SchemaJSON?
  package let required: Bool
  /// For encoder keys: the formats the key has an effect on (nil: every format).
  package let formats: [OutputFormat]?
  /// For integers whose range depends on the format: the range of each (the type's range
  /// is their union, for a format that is not known where the key is written).
  package let formatRanges: [FormatRange]

  init(
    _ name: String, _ type: SchemaType, _ description: String, default defaultValue: SchemaJSON? = nil,
    required: Bool = false, formats: [OutputFormat]? = nil, formatRanges: [FormatRange] = []
  ) {
    self.name = name
    self.type = type
    self.description = description
    self.defaultValue = defaultValue
    self.required = required
    self.formats = formats
    self.formatRanges = formatRanges
  }

  /// An integer whose range depends on the format: of type the union of `ranges`, applying
  /// to their formats, described as `"CPU effort: webp 0-6 (default 4), …"`.
  static func perFormat(_ name: String, _ ranges: [FormatRange], _ description: String) -> SchemaField {
    let lower = ranges.map(\.range.lowerBound).min() ?? 0
    let upper = ranges.map(\.range.upperBound).max() ?? 0
    let each = ranges.map {
      "\($0.formats.map(\.rawValue).joined(separator: "/")) \($0.range.lowerBound)-\($0.range.upperBound) "
        + "(default \($0.defaultValue))"
    }
    return SchemaField(
      name, .integer(lower...upper), "\(description): \(each.joined(separator: ", ")).",
      formats: ranges.flatMap(\.formats), formatRanges: ranges)
  }

  /// The integer range for outputs of `format`: its own when the range depends on the
  /// format, else the field's (nil: not an integer).
  package func integerRange(for format: OutputFormat) -> ClosedRange<Int>? {
    formatRanges.first { $0.formats.contains(format) }?.range ?? type.integerRange
  }

  /// The list rules of the field's list form, if it has one.
  package var listRule: ListRule? { type.listRule }
}

/// A rule across the keys of one mapping that JSON Schema can express.
package struct SchemaRule: Sendable {
  package let description: String
  package let schema: SchemaJSON
}

/// A mapping of the job file: its keys (the decoder rejects any other) and its rules.
package struct SchemaObject: Sendable {
  /// The `$defs` name, and the prefix of its fields in docs/job-file.md (`guide.shape`).
  package let name: String
  package let description: String
  package let fields: [SchemaField]
  package let rules: [SchemaRule]

  /// The keys the decoder knows, in the order the reference lists them.
  package var keys: [String] { fields.map(\.name) }

  package func field(_ name: String) -> SchemaField? { fields.first { $0.name == name } }

  /// The field `key` of a mapping the decoder reads; a key the table does not list is a
  /// mistake in the decoder.
  package subscript(_ key: String) -> SchemaField {
    guard let field = field(key) else { preconditionFailure("JobSchema.\(name) has no key \"\(key)\"") }
    return field
  }
}

/// A named value type (`$defs`) used by several fields.
package struct SchemaValue: Sendable {
  package let name: String
  package let description: String
  package let type: SchemaType
}

/// A placeholder of output path templates.
package struct SchemaPlaceholder: Sendable {
  package let name: String
  package let description: String
}
