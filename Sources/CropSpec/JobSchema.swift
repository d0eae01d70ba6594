/// The type of a value in a job file, as the schema and the reference describe it.
public indirect enum SchemaType: Sendable {
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
}

/// One key of a mapping in the job file.
public struct SchemaField: Sendable {
  public let name: String
  public let type: SchemaType
  public let description: String
  /// What the decoder uses when the key is absent (nil: nothing, or it is required).
  public let defaultValue: SchemaJSON?
  public let required: Bool
  /// For encoder keys: the formats the key has an effect on (nil: every format).
  public let formats: [OutputFormat]?

  init(
    _ name: String, _ type: SchemaType, _ description: String, default defaultValue: SchemaJSON? = nil,
    required: Bool = false, formats: [OutputFormat]? = nil
  ) {
    self.name = name
    self.type = type
    self.description = description
    self.defaultValue = defaultValue
    self.required = required
    self.formats = formats
  }
}

/// A rule across the keys of one mapping that JSON Schema can express.
public struct SchemaRule: Sendable {
  public let description: String
  public let schema: SchemaJSON
}

/// A mapping of the job file: its keys (the decoder rejects any other) and its rules.
public struct SchemaObject: Sendable {
  /// The `$defs` name, and the prefix of its fields in docs/job-file.md (`guide.shape`).
  public let name: String
  public let description: String
  public let fields: [SchemaField]
  public let rules: [SchemaRule]

  /// The keys the decoder knows, in the order the reference lists them.
  public var keys: [String] { fields.map(\.name) }

  public func field(_ name: String) -> SchemaField? { fields.first { $0.name == name } }
}

/// A named value type (`$defs`) used by several fields.
public struct SchemaValue: Sendable {
  public let name: String
  public let description: String
  public let type: SchemaType
}

/// A placeholder of output path templates.
public struct SchemaPlaceholder: Sendable {
  public let name: String
  public let description: String
}
