/// Reads a command's arguments against its argument table into its typed value, in the
/// spirit of swift-argument-parser: flags, options with values (`--jobs 2`, `--jobs=2`,
/// `-j 2`, `-j2`), positionals, and `--` before positionals that start with a dash.
enum CommandLineParser {
  /// Parses `arguments` into `initial` (the command's defaults); throws `UsageError`.
  /// Names are checked first, then the number of positionals, then each value in order.
  static func parse<Root>(_ arguments: [String], into initial: Root, table: [Argument<Root>], command: String)
    throws -> Root
  {
    // `-h, --help` is known (for suggestions) but handled by the dispatcher before parsing.
    let scan = try Scan(arguments, options: table.flatMap(\.options) + [HelpOption.spec(Root.self)])
    var value = initial
    try storePositionals(scan.positionals, into: &value, table: table, command: command)
    for (option, text) in scan.assignments { try option.apply(&value, text) }
    for set in table.flatMap(\.exclusiveSets) {
      let given = set.filter { option in scan.assignments.contains { $0.option.long == option.long } }
      guard given.count > 1 else { continue }
      let names = given.map(\.long)
      throw UsageError(
        message: names.count == 2
          ? "use \(names[0]) or \(names[1]), not both" : "use only one of \(names.joined(separator: ", "))")
    }
    return value
  }

  private static func storePositionals<Root>(
    _ values: [String], into root: inout Root, table: [Argument<Root>], command: String
  ) throws {
    guard let positional = table.flatMap(\.positionals).first else {
      if !values.isEmpty { throw UsageError(message: "\(command) takes no arguments") }
      return
    }
    if values.isEmpty { throw UsageError(message: "missing <\(positional.name)>") }
    if !positional.repeats && values.count > 1 {
      throw UsageError(message: "expected one \(positional.noun), got \(values.count)")
    }
    positional.apply(&root, values)
  }

  /// The arguments sorted into positionals and option assignments, names checked.
  private struct Scan<Root> {
    var positionals: [String] = []
    /// Each option given, with its text (nil for a flag), in command-line order.
    var assignments: [(option: OptionSpec<Root>, text: String?)] = []

    init(_ arguments: [String], options: [OptionSpec<Root>]) throws {
      var byName: [String: OptionSpec<Root>] = [:]
      for option in options {
        byName[option.long] = option
        if let short = option.short { byName[short] = option }
      }
      var index = 0
      var onlyPositionals = false
      while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
          positionals.append(argument)
          continue
        }
        if argument == "--" {
          onlyPositionals = true
          continue
        }
        var name = argument
        var inlineText: String? = nil
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
          name = String(argument[..<equals])
          inlineText = String(argument[argument.index(after: equals)...])
        } else if !argument.hasPrefix("--"), argument.count > 2, let option = byName[String(argument.prefix(2))],
          !option.isFlag
        {
          // A short option with its value attached: `-j2` as `-j 2`.
          name = String(argument.prefix(2))
          inlineText = String(argument.dropFirst(2))
        }
        guard let option = byName[name] else {
          throw UsageError(
            message: "unknown option \(name)" + TypoHint.didYouMean(name, among: options.map(\.long), quoting: .bare))
        }
        if option.isFlag {
          if inlineText != nil { throw UsageError(message: "\(option.long) takes no value") }
          assignments.append((option, nil))
        } else if let inlineText {
          assignments.append((option, inlineText))
        } else {
          guard index < arguments.count else { throw UsageError(message: "missing value for \(option.long)") }
          assignments.append((option, arguments[index]))
          index += 1
        }
      }
    }
  }
}
