/// The AWS CLI's shared files, `~/.aws/config` and `~/.aws/credentials`, as the CLI reads
/// them: `[section]` headers (in the config file a profile is `[profile name]`, except
/// `[default]`; `[services name]` holds service settings), `key = value` lines, and nested
/// settings — a key with an empty value followed by indented `key = value` lines, as in
///
///     [profile minio]
///     endpoint_url = http://127.0.0.1:9000
///     s3 =
///       addressing_style = path
///
/// Lines starting with `#` or `;` are comments; keys are matched without regard to case.
public struct AWSConfigFile: Sendable, Equatable {
  /// One section's settings: plain ones, and nested ones by the key that holds them (`s3`).
  public struct Section: Sendable, Equatable {
    public var values: [String: String] = [:]
    public var nested: [String: [String: String]] = [:]

    public init(values: [String: String] = [:], nested: [String: [String: String]] = [:]) {
      self.values = values
      self.nested = nested
    }
  }

  /// Sections by their name as written between the brackets, trimmed (`profile minio`).
  public var sections: [String: Section] = [:]

  public init(sections: [String: Section] = [:]) { self.sections = sections }

  /// Parses the text of a config or credentials file. Lines that are none of the above
  /// (the CLI refuses them) are ignored, as botocore does for lines outside a section.
  public init(parsing text: String) {
    var current: String?
    var nestedKey: String?
    for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
      let trimmed = line.trimming(" \t")
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
      if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
        let name = trimmed.dropFirst().dropLast().trimming(" \t")
        current = name
        nestedKey = nil
        if sections[name] == nil { sections[name] = Section() }
        continue
      }
      guard let section = current, let equals = trimmed.firstIndex(of: "=") else { continue }
      let key = trimmed[..<equals].trimming(" \t").lowercased()
      let value = Self.stripComment(trimmed[trimmed.index(after: equals)...].trimming(" \t"))
      let indented = line.first == " " || line.first == "\t"
      if indented, let parent = nestedKey {
        sections[section]?.nested[parent, default: [:]][key] = value
      } else if value.isEmpty {
        nestedKey = key
        if sections[section]?.nested[key] == nil { sections[section]?.nested[key] = [:] }
      } else {
        nestedKey = nil
        sections[section]?.values[key] = value
      }
    }
  }

  /// A value with an inline comment (` #` or ` ;` after it) removed.
  private static func stripComment(_ value: String) -> String {
    for marker in [" #", " ;", "\t#", "\t;"] {
      if let range = value.range(of: marker) { return value[..<range.lowerBound].trimming(" \t") }
    }
    return value
  }

  /// The profile `name` of a config file: `[profile name]`, or `[default]` for "default"
  /// (where `[profile default]` also counts, as in the CLI).
  public func configProfile(_ name: String) -> Section? {
    if name == "default" { return sections["default"] ?? sections["profile default"] }
    return sections["profile \(name)"]
  }

  /// The profile `name` of a credentials file: `[name]`.
  public func credentialsProfile(_ name: String) -> Section? { sections[name] }
}

extension StringProtocol {
  /// The text without leading and trailing characters of `set`.
  func trimming(_ set: String) -> String {
    let scalars = Substring(self).drop { set.contains($0) }
    return String(scalars.reversed().drop { set.contains($0) }.reversed())
  }
}
