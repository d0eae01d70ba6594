import Foundation

/// What a command says about itself besides its arguments.
struct CommandConfiguration: Sendable {
  /// The word after `cropjob`.
  let name: String
  /// One line, for `cropjob --help` and the OVERVIEW of the command's help.
  let abstract: String
  /// Text between USAGE and ARGUMENTS.
  var discussion: String? = nil
  /// Sections after OPTIONS (OUTPUT, FORMATS...).
  var epilogue: String? = nil
  /// The command's exit codes, printed as its help's EXIT CODES section (docs/cli.md has
  /// the same tables, and a test holds them and the README's to these).
  var exitCodes: [ExitCodeMeaning] = []
}

/// A subcommand, with swift-argument-parser's contract: the arguments are declared once, in
/// `arguments`, which drives parsing, the usage line and the help; the command line is
/// parsed once into a value of the type (starting from `init()`'s defaults), `validate()`
/// checks what spans several options, and `run()` uses the typed fields.
protocol ParsableCommand {
  static var configuration: CommandConfiguration { get }
  /// The positionals, options and flags, in the order help lists them.
  static var arguments: [Argument<Self>] { get }
  init()
  /// Checks after parsing; throws `UsageError`.
  mutating func validate() throws
  func run() -> Int32
}

extension ParsableCommand {
  mutating func validate() throws {}

  /// The typed, validated command; throws `UsageError`.
  static func parse(_ arguments: [String]) throws -> Self {
    var command = try CommandLineParser.parse(
      arguments, into: Self(), table: Self.arguments, command: configuration.name)
    try command.validate()
    return command
  }

  static var usage: String { HelpFormatter.usage(command: configuration.name, table: arguments) }
  static var help: String { HelpFormatter.help(configuration, table: arguments) }
}

/// Writing to the standard streams.
enum Console {
  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  static func err(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }

  static var stderrIsTerminal: Bool { isatty(2) != 0 }
}
