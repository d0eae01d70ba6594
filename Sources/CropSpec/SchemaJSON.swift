import CropSupport

/// A JSON value whose objects keep their keys in the order they were written, so that the
/// printed schema is stable and reads top-down (used by `JobSchema`).
package indirect enum SchemaJSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case number(Double)
  case string(String)
  case array([SchemaJSON])
  case object([Member])

  /// One key of an object, in order.
  package struct Member: Sendable, Equatable {
    package var key: String
    package var value: SchemaJSON
    package init(_ key: String, _ value: SchemaJSON) {
      self.key = key
      self.value = value
    }
  }

  /// The value for `key` when this is an object.
  package subscript(key: String) -> SchemaJSON? {
    if case .object(let members) = self { return members.first { $0.key == key }?.value }
    return nil
  }

  /// The text of a string.
  package var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value of an integer or a number.
  package var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .number(let value): return value
    default: return nil
    }
  }

  /// The items of an array.
  package var arrayValue: [SchemaJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// Pretty-printed with two-space indentation; arrays of scalars stay on one line.
  package func rendered(indent: Int = 0) -> String {
    let pad = String(repeating: " ", count: indent)
    let inner = String(repeating: " ", count: indent + 2)
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .number(let d): return NodeReader.format(d)
    case .string(let s): return JSONText.quoted(s)
    case .array(let items):
      if items.isEmpty { return "[]" }
      if items.allSatisfy(\.isScalar) { return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]" }
      return "[\n" + items.map { inner + $0.rendered(indent: indent + 2) }.joined(separator: ",\n") + "\n\(pad)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let lines = members.map { inner + JSONText.quoted($0.key) + ": " + $0.value.rendered(indent: indent + 2) }
      return "{\n" + lines.joined(separator: ",\n") + "\n\(pad)}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

}

extension SchemaJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .int(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: SchemaJSON...) { self = .array(elements) }
  /// Keeps the literal's order.
  package init(dictionaryLiteral elements: (String, SchemaJSON)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
}

// MARK: - The JSON Schema writer

/// `cropjob schema`: the table written as a JSON Schema (draft 2020-12). Ranges, list rules,
/// defaults and the per-format ranges come from the table's entries, as the decoder reads them.
extension JobSchema {
  /// The JSON Schema (draft 2020-12) of the job file.
  package static func json() -> SchemaJSON {
    var members: [SchemaJSON.Member] = [
      .init("$schema", "https://json-schema.org/draft/2020-12/schema"),
      .init("$id", "urn:cropjob:job-file:1"),
      .init("title", "cropjob job file"),
    ]
    if case .object(let root) = json(file) { members += root }
    // The crop table's row is not a mapping of the job file: it is the entry point for
    // checking the lines of a JSON Lines crop table (`#/$defs/crop_table_row`).
    var defs: [SchemaJSON.Member] = (objects.dropFirst() + [cropTable]).map { .init($0.name, json($0)) }
    defs += values.map { value in
      var schema = json(value.type)
      schema.prepend("description", .string(value.description))
      return .init(value.name, schema)
    }
    members.append(.init("$defs", .object(defs)))
    return .object(members)
  }

  /// The schema as `cropjob schema` prints it.
  package static var text: String { json().rendered() + "\n" }

  static func json(_ object: SchemaObject) -> SchemaJSON {
    var members: [SchemaJSON.Member] = [.init("type", "object"), .init("description", .string(object.description))]
    let properties = object.fields.map { field -> SchemaJSON.Member in
      var schema = json(field.type)
      var description = field.description
      if let formats = field.formats {
        description += " Applies to: \(formats.map(\.rawValue).joined(separator: ", "))."
      }
      schema.prepend("description", .string(description))
      if let value = field.defaultValue { schema.append("default", value) }
      return .init(field.name, schema)
    }
    members.append(.init("properties", .object(properties)))
    let required = object.fields.filter(\.required).map { SchemaJSON.string($0.name) }
    if !required.isEmpty { members.append(.init("required", .array(required))) }
    members.append(.init("additionalProperties", false))
    if !object.rules.isEmpty {
      members.append(
        .init(
          "allOf",
          .array(
            object.rules.map { rule in
              var schema = rule.schema
              schema.prepend("description", .string(rule.description))
              return schema
            })))
    }
    return .object(members)
  }

  static func json(_ type: SchemaType) -> SchemaJSON {
    switch type {
    case .string(let pattern):
      var s: SchemaJSON = ["type": "string", "minLength": 1]
      if let pattern { s.append("pattern", .string(pattern)) }
      return s
    case .integer(let range):
      return ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)]
    case .number(let range):
      return ["type": "number", "minimum": .number(range.lowerBound), "maximum": .number(range.upperBound)]
    case .boolean:
      return ["type": "boolean"]
    case .constant(let value):
      return ["const": .int(value)]
    case .choice(let names):
      return ["type": "string", "enum": .array(names.map { .string($0) })]
    case .list(let item, let minItems, let maxItems, let unique):
      var s: SchemaJSON = ["type": "array", "items": json(item)]
      if minItems > 0 { s.append("minItems", .int(minItems)) }
      if let maxItems { s.append("maxItems", .int(maxItems)) }
      if unique { s.append("uniqueItems", true) }
      return s
    case .pair(let range):
      return ["type": "array", "items": json(.number(range)), "minItems": 2, "maxItems": 2]
    case .ref(let name):
      return ["$ref": .string("#/$defs/\(name)")]
    case .oneOf(let forms):
      return ["oneOf": .array(forms.map(json))]
    case .ordered(let list, let leading):
      // One form per length: the items before the last are leading names.
      guard case .list(_, let minItems, let maxItems?, _) = list else {
        preconditionFailure("an ordered list needs a list with a maximum length")
      }
      var s = json(list)
      let lengths = max(minItems, 1)...maxItems
      let leadingItem: SchemaJSON = ["enum": .array(leading.map { .string($0) })]
      s.append(
        "anyOf",
        .array(
          lengths.map { n in
            var form: SchemaJSON = ["minItems": .int(n), "maxItems": .int(n)]
            if n > 1 { form.append("prefixItems", .array(Array(repeating: leadingItem, count: n - 1))) }
            return form
          }))
      return s
    case .map(let keyPattern, let value, let minProperties):
      return [
        "type": "object", "propertyNames": ["pattern": .string(keyPattern)], "minProperties": .int(minProperties),
        "additionalProperties": json(value),
      ]
    }
  }

  // MARK: Rules derived from the table

  /// The JSON Schema enum of the names of `formats` (aliases included) in `encode.format`.
  static func formatEnum(_ formats: [OutputFormat]) -> SchemaJSON {
    .array(formats.flatMap(names(of:)).map { .string($0) })
  }

  /// `minimum`, `maximum` and `default` of one format's range.
  static func rangeSchema(_ range: FormatRange) -> SchemaJSON {
    [
      "minimum": .int(range.range.lowerBound), "maximum": .int(range.range.upperBound),
      "default": .int(range.defaultValue),
    ]
  }

  /// For each integer of `fields` whose range depends on the format, one rule per range:
  /// a mapping whose `format` names one of its formats takes that range.
  static func formatRangeRules(_ fields: [SchemaField]) -> [SchemaRule] {
    fields.flatMap { field in
      field.formatRanges.map { range in
        SchemaRule(
          description:
            "With format \(alternatives(range.formats.map(\.rawValue))), \(field.name) is "
            + "\(range.range.lowerBound)-\(range.range.upperBound) (libvips' default \(range.defaultValue)).",
          schema: [
            "if": ["properties": ["format": ["enum": formatEnum(range.formats)]], "required": ["format"]],
            "then": ["properties": [field.name: rangeSchema(range)]],
          ])
      }
    }
  }

  /// The same ranges for an output whose `path` ends in an extension of the formats: its
  /// own `encode` takes that range (an inherited one is beyond what a schema can see).
  static func extensionRangeRules(_ fields: [SchemaField], path: String, encode: String) -> [SchemaRule] {
    fields.flatMap { field in
      field.formatRanges.map { range in
        let extensions = extensionFormats.filter { range.formats.contains($0.value) }.keys.sorted()
        return SchemaRule(
          description:
            "A path ending in \(alternatives(extensions.map { "." + $0 })) takes \(field.name) "
            + "\(range.range.lowerBound)-\(range.range.upperBound) in its own encode.",
          schema: [
            "if": [
              "properties": [path: ["pattern": .string(extensionPattern(extensions))]], "required": [.string(path)],
            ],
            "then": ["properties": [encode: ["properties": [field.name: rangeSchema(range)]]]],
          ])
      }
    }
  }

  /// `a`, `a or b`, `a, b or c`.
  static func alternatives(_ names: [String]) -> String {
    names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
  }

  /// A file name ending in one of `extensions`, in any case (the decoder lowercases the
  /// extension; a name that starts with the dot has none): `[^/]\.([Ww][Ee][Bb][Pp])$`.
  static func extensionPattern(_ extensions: [String]) -> String {
    let anyCase = extensions.map { ext in
      ext.map { $0.isLetter ? "[\($0.uppercased())\($0.lowercased())]" : String($0) }.joined()
    }
    return "[^/]\\.(" + anyCase.joined(separator: "|") + ")$"
  }
}

extension SchemaJSON {
  fileprivate mutating func prepend(_ key: String, _ value: SchemaJSON) {
    if case .object(let members) = self { self = .object([Member(key, value)] + members) }
  }

  fileprivate mutating func append(_ key: String, _ value: SchemaJSON) {
    if case .object(let members) = self { self = .object(members + [Member(key, value)]) }
  }
}
