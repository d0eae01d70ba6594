/// A JSON value whose objects keep their keys in the order they were written, so that the
/// printed schema is stable and reads top-down (used by `JobSchema`).
public indirect enum SchemaJSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case number(Double)
  case string(String)
  case array([SchemaJSON])
  case object([Member])

  /// One key of an object, in order.
  public struct Member: Sendable, Equatable {
    public var key: String
    public var value: SchemaJSON
    public init(_ key: String, _ value: SchemaJSON) {
      self.key = key
      self.value = value
    }
  }

  /// The value for `key` when this is an object.
  public subscript(key: String) -> SchemaJSON? {
    if case .object(let members) = self { return members.first { $0.key == key }?.value }
    return nil
  }

  /// Pretty-printed with two-space indentation; arrays of scalars stay on one line.
  public func rendered(indent: Int = 0) -> String {
    let pad = String(repeating: " ", count: indent)
    let inner = String(repeating: " ", count: indent + 2)
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .number(let d): return Self.format(d)
    case .string(let s): return Self.quote(s)
    case .array(let items):
      if items.isEmpty { return "[]" }
      if items.allSatisfy(\.isScalar) { return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]" }
      return "[\n" + items.map { inner + $0.rendered(indent: indent + 2) }.joined(separator: ",\n") + "\n\(pad)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let lines = members.map { inner + Self.quote($0.key) + ": " + $0.value.rendered(indent: indent + 2) }
      return "{\n" + lines.joined(separator: ",\n") + "\n\(pad)}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

  /// Integral values without a fraction (`5`, not `5.0`); others in Swift's shortest form.
  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

extension SchemaJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: SchemaJSON...) { self = .array(elements) }
  /// Keeps the literal's order.
  public init(dictionaryLiteral elements: (String, SchemaJSON)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
}
