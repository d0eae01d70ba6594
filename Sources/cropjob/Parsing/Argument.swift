/// An option or a flag of a command: its names, what it takes, its help, and where its value
/// goes in the command's typed value (`Root`). The parser, the usage line and the help text
/// all read this one declaration.
struct OptionSpec<Root> {
  /// `--jobs`.
  let long: String
  /// `-j`, if the option has a short name.
  let short: String?
  /// `n` in `--jobs <n>`; nil for a flag, which takes no value.
  let valueName: String?
  /// The only values accepted, if the value is a choice (`--format text|json|dot` in usage).
  let choices: [String]?
  /// Values the option accepts (none for a flag).
  let examples: [String]
  /// The help text; `\n` starts a new line in the description column.
  let help: String
  /// Whether the usage line shows the option.
  let inUsage: Bool
  /// Stores the option's value (nil for a flag) in the typed value; throws `UsageError`.
  let apply: (inout Root, String?) throws -> Void

  var isFlag: Bool { valueName == nil }

  /// `-j, --jobs <n>`: how the help text names the option.
  var label: String {
    (short.map { "\($0), " } ?? "") + long + (valueName.map { " <\($0)>" } ?? "")
  }

  /// `--jobs <n>`, `--format text|json|dot` or `--force`: how the usage line names it.
  var synopsis: String {
    guard let valueName else { return long }
    return long + " " + (choices?.joined(separator: "|") ?? "<\(valueName)>")
  }

  /// The same option, storing into a part of a larger value (for shared groups).
  func lifted<Outer>(to part: WritableKeyPath<Outer, Root>) -> OptionSpec<Outer> {
    let apply = self.apply
    return OptionSpec<Outer>(
      long: long, short: short, valueName: valueName, choices: choices, examples: examples, help: help,
      inUsage: inUsage, apply: { outer, text in try apply(&outer[keyPath: part], text) })
  }
}

/// The positional arguments of a command: one (`<job.yaml>`) or one or more (`<job.yaml>...`).
struct PositionalSpec<Root> {
  /// `job.yaml` in `<job.yaml>`.
  let name: String
  /// Whether it takes one or more values rather than exactly one.
  let repeats: Bool
  /// `job file` in `expected one job file, got 2` (only said of a positional that does not repeat).
  let noun: String
  let help: String
  /// Stores the values in the typed value.
  let apply: (inout Root, [String]) -> Void

  /// `<job.yaml>` or `<job.yaml>...`.
  var label: String { "<\(name)>" + (repeats ? "..." : "") }

  func lifted<Outer>(to part: WritableKeyPath<Outer, Root>) -> PositionalSpec<Outer> {
    let apply = self.apply
    return PositionalSpec<Outer>(
      name: name, repeats: repeats, noun: noun, help: help,
      apply: { outer, values in apply(&outer[keyPath: part], values) }
    )
  }
}

/// One entry of a command's argument table, in the order help lists them.
enum Argument<Root> {
  case positional(PositionalSpec<Root>)
  case option(OptionSpec<Root>)
  /// Options of which at most one may be given (`[--quiet | --json]`).
  case exclusive([OptionSpec<Root>])
  /// Entries declared once for several commands (the limits), stored in a part of the value.
  case group([Argument<Root>])

  /// Every option and flag, groups and exclusive sets flattened, in table order.
  var options: [OptionSpec<Root>] {
    switch self {
    case .positional: return []
    case .option(let option): return [option]
    case .exclusive(let options): return options
    case .group(let entries): return entries.flatMap(\.options)
    }
  }

  var positionals: [PositionalSpec<Root>] {
    switch self {
    case .positional(let positional): return [positional]
    case .option, .exclusive: return []
    case .group(let entries): return entries.flatMap(\.positionals)
    }
  }

  /// The sets of options that exclude each other.
  var exclusiveSets: [[OptionSpec<Root>]] {
    switch self {
    case .exclusive(let options): return [options]
    case .positional, .option: return []
    case .group(let entries): return entries.flatMap(\.exclusiveSets)
    }
  }

  func lifted<Outer>(to part: WritableKeyPath<Outer, Root>) -> Argument<Outer> {
    switch self {
    case .positional(let positional): return .positional(positional.lifted(to: part))
    case .option(let option): return .option(option.lifted(to: part))
    case .exclusive(let options): return .exclusive(options.map { $0.lifted(to: part) })
    case .group(let entries): return .group(entries.map { $0.lifted(to: part) })
    }
  }
}

// MARK: - Declaring entries

extension Argument {
  /// A flag: `--force` sets `target` to true.
  static func flag(
    _ target: WritableKeyPath<Root, Bool>, _ long: String, short: String? = nil, inUsage: Bool = false, help: String
  ) -> Self {
    .option(
      OptionSpec(
        long: long, short: short, valueName: nil, choices: nil, examples: [], help: help, inUsage: inUsage,
        apply: { root, _ in root[keyPath: target] = true }))
  }

  /// An option with a value that `parser` converts and stores in `target`.
  static func option<Value>(
    _ target: WritableKeyPath<Root, Value>, _ long: String, short: String? = nil, value valueName: String,
    _ parser: ValueParser<Value>, inUsage: Bool = false, help: String
  ) -> Self {
    .option(
      OptionSpec(
        long: long, short: short, valueName: valueName, choices: parser.choices, examples: parser.examples, help: help,
        inUsage: inUsage, apply: { root, text in root[keyPath: target] = try parser.convert(text ?? "", long) }))
  }

  /// An option whose typed value is nil unless it is given.
  static func option<Value>(
    _ target: WritableKeyPath<Root, Value?>, _ long: String, short: String? = nil, value valueName: String,
    _ parser: ValueParser<Value>, inUsage: Bool = false, help: String
  ) -> Self {
    .option(
      OptionSpec(
        long: long, short: short, valueName: valueName, choices: parser.choices, examples: parser.examples, help: help,
        inUsage: inUsage, apply: { root, text in root[keyPath: target] = try parser.convert(text ?? "", long) }))
  }

  /// Exactly one positional argument (`<job.yaml>`).
  static func positional(_ target: WritableKeyPath<Root, String>, _ name: String, noun: String, help: String) -> Self {
    .positional(
      PositionalSpec(
        name: name, repeats: false, noun: noun, help: help, apply: { root, values in root[keyPath: target] = values[0] }
      ))
  }

  /// One or more positional arguments (`<job.yaml>...`).
  static func positionals(_ target: WritableKeyPath<Root, [String]>, _ name: String, help: String) -> Self {
    .positional(
      PositionalSpec(
        name: name, repeats: true, noun: name, help: help, apply: { root, values in root[keyPath: target] = values }))
  }

  /// A shared group's entries, storing into `part` of this command's value.
  static func group<Part>(_ part: WritableKeyPath<Root, Part>, _ entries: [Argument<Part>]) -> Self {
    .group(entries.map { $0.lifted(to: part) })
  }

  /// Options of which at most one may be given.
  static func exclusive(_ entries: [Argument<Root>]) -> Self {
    .exclusive(entries.flatMap(\.options))
  }
}
