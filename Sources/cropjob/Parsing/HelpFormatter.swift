/// Usage lines and help text, generated from the argument tables.
enum HelpFormatter {
  /// Descriptions start in this column, after two spaces of indent and the padded label.
  static let labelWidth = 24

  /// `  label                   text`; the text's further lines are indented to its column,
  /// and a label too long for the column gets the text on the next line.
  static func row(_ label: String, _ text: String) -> String {
    let indent = String(repeating: " ", count: 2 + labelWidth)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var first = "  " + label
    if label.count <= labelWidth - 2 {
      first += String(repeating: " ", count: labelWidth - label.count) + lines.removeFirst()
    }
    return ([first] + lines.map { indent + $0 }).joined(separator: "\n")
  }

  /// `cropjob run <job.yaml> [--jobs <n>] … [--quiet | --json]`: the positionals, then the
  /// options the table marks for the usage line, in table order.
  static func usage<Root>(command: String, table: [Argument<Root>]) -> String {
    var words = ["cropjob", command] + table.flatMap(\.positionals).map(\.label)
    for entry in table { words += synopses(entry) }
    return words.joined(separator: " ")
  }

  private static func synopses<Root>(_ entry: Argument<Root>) -> [String] {
    switch entry {
    case .positional: return []
    case .option(let option): return option.inUsage ? ["[\(option.synopsis)]"] : []
    case .exclusive(let options):
      let shown = options.filter(\.inUsage)
      return shown.isEmpty ? [] : ["[" + shown.map(\.synopsis).joined(separator: " | ") + "]"]
    case .group(let entries): return entries.flatMap(synopses)
    }
  }

  /// OVERVIEW, USAGE, the discussion, ARGUMENTS, OPTIONS (ending with `-h, --help`), and
  /// the epilogue (further sections such as OUTPUT), and EXIT CODES.
  static func help<Root>(_ configuration: CommandConfiguration, table: [Argument<Root>]) -> String {
    var sections = [
      "OVERVIEW: \(configuration.abstract)", "USAGE: \(usage(command: configuration.name, table: table))",
    ]
    if let discussion = configuration.discussion { sections.append(discussion) }
    let positionals = table.flatMap(\.positionals)
    if !positionals.isEmpty {
      sections.append((["ARGUMENTS:"] + positionals.map { row($0.label, $0.help) }).joined(separator: "\n"))
    }
    let options = table.flatMap(\.options) + [HelpOption.spec(Root.self)]
    sections.append((["OPTIONS:"] + options.map { row($0.label, $0.help) }).joined(separator: "\n"))
    if let epilogue = configuration.epilogue { sections.append(epilogue) }
    if !configuration.exitCodes.isEmpty { sections.append(ExitCodeMeaning.section(configuration.exitCodes)) }
    return sections.joined(separator: "\n\n")
  }
}

/// `-h, --help`, which every command and the top level accept. The dispatcher looks for it
/// before parsing, so help is shown even beside a mistake.
enum HelpOption {
  static let names = ["-h", "--help"]

  static func spec<Root>(_: Root.Type) -> OptionSpec<Root> {
    OptionSpec(
      long: names[1], short: names[0], valueName: nil, choices: nil, examples: [], help: "Show help.", inUsage: false,
      apply: { _, _ in })
  }
}
