/// A usage mistake: printed as `Error: …` with the command's usage, exit 64.
struct UsageError: Error {
  var message: String
}

/// Hand-written argument parsing in the spirit of swift-argument-parser: flags, options
/// with values (`--jobs 2` or `--jobs=2`), and positionals.
struct Arguments {
  private(set) var positionals: [String] = []
  private var options: [String: String] = [:]
  private var flags: Set<String> = []

  /// `flagNames` take no value; `optionNames` take one. Short aliases map to long names.
  init(_ raw: [String], flags flagNames: Set<String>, options optionNames: Set<String>, aliases: [String: String] = [:])
    throws
  {
    var index = 0
    var onlyPositionals = false
    while index < raw.count {
      let arg = raw[index]
      index += 1
      if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
        positionals.append(arg)
        continue
      }
      if arg == "--" {
        onlyPositionals = true
        continue
      }
      var name = arg
      var inlineValue: String? = nil
      if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
        name = String(arg[..<eq])
        inlineValue = String(arg[arg.index(after: eq)...])
      }
      // A short option with its value attached: `-j2` as `-j 2`.
      if !arg.hasPrefix("--"), arg.count > 2, let long = aliases[String(arg.prefix(2))], optionNames.contains(long) {
        name = String(arg.prefix(2))
        inlineValue = String(arg.dropFirst(2))
      }
      name = aliases[name] ?? name
      if flagNames.contains(name) {
        if inlineValue != nil { throw UsageError(message: "\(name) takes no value") }
        flags.insert(name)
      } else if optionNames.contains(name) {
        if let inlineValue {
          options[name] = inlineValue
        } else {
          guard index < raw.count else { throw UsageError(message: "missing value for \(name)") }
          options[name] = raw[index]
          index += 1
        }
      } else {
        let known = (flagNames.union(optionNames)).sorted()
        let hint = known.min { distance(name, $0) < distance(name, $1) }.flatMap { distance(name, $0) <= 3 ? $0 : nil }
        throw UsageError(message: "unknown option \(name)" + (hint.map { "; did you mean \($0)?" } ?? ""))
      }
    }
  }

  func flag(_ name: String) -> Bool { flags.contains(name) }
  func option(_ name: String) -> String? { options[name] }

  func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = options[name] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        message: "\(name) expects an integer between \(range.lowerBound) and \(range.upperBound), got \"\(text)\"")
    }
    return value
  }

  func choice<E: RawRepresentable & CaseIterable>(_ name: String, _: E.Type) throws -> E? where E.RawValue == String {
    guard let text = options[name] else { return nil }
    guard let value = E(rawValue: text) else {
      throw UsageError(
        message: "\(name) expects one of \(E.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
    }
    return value
  }

  private func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
}
