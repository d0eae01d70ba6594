/// `cropjob completions bash|zsh|fish`: a completion script for the shell, generated from the
/// commands' argument tables (the same tables that parse the command line and print help).
struct CompletionsCommand: ParsableCommand {
  static let shells = ["bash", "zsh", "fish"]

  static let configuration = CommandConfiguration(
    name: "completions",
    abstract: "Print a completion script for bash, zsh or fish.",
    discussion: """
      The script completes commands, options, option values with a fixed set of choices, and
      job files (*.yaml, *.yml). Install it where the shell looks, e.g.:
        cropjob completions bash > ~/.local/share/bash-completion/completions/cropjob
        cropjob completions zsh > ~/.zfunc/_cropjob     (with ~/.zfunc in $fpath)
        cropjob completions fish > ~/.config/fish/completions/cropjob.fish
      scripts/install.sh installs all three under its prefix.
      """,
    exitCodes: [ExitCodeMeaning(ExitCode.success, "the script printed"), .usage])

  var words: [String] = []

  static var arguments: [Argument<Self>] {
    [.positionals(\.words, "shell", help: "bash, zsh or fish.")]
  }

  mutating func validate() throws {
    guard words.count == 1, let shell = words.first, Self.shells.contains(shell) else {
      throw UsageError(message: "completions takes one shell: bash, zsh or fish")
    }
  }

  func run() -> Int32 {
    let commands = CLI.commands.map(CompletionTable.init)
    switch words[0] {
    case "bash": Console.out(CompletionScripts.bash(commands))
    case "zsh": Console.out(CompletionScripts.zsh(commands))
    default: Console.out(CompletionScripts.fish(commands))
    }
    return ExitCode.success
  }
}

/// What completion needs of one command: its name, abstract, options and whether it takes a
/// job file.
struct CompletionTable {
  struct Option {
    var long: String
    var short: String?
    var help: String
    /// Nil for a flag; empty for a value without a fixed set of choices.
    var choices: [String]?
    /// Whether the value is a folder (`--output <dir>`), completed as a path.
    var takesFolder: Bool
  }

  var name: String
  var abstract: String
  var options: [Option]
  var takesJobFile: Bool

  init(_ command: any ParsableCommand.Type) {
    name = command.configuration.name
    abstract = command.configuration.abstract
    options = Self.options(command)
    takesJobFile = Self.positionalNames(command).contains { $0.hasSuffix(".yaml") || $0 == "action" }
  }

  private static func options<Command: ParsableCommand>(_: Command.Type) -> [Option] {
    (Command.arguments.flatMap(\.options) + [HelpOption.spec(Command.self)]).map {
      Option(
        long: $0.long, short: $0.short, help: $0.help.replacing("\n", with: " "),
        choices: $0.isFlag ? nil : ($0.choices ?? []), takesFolder: $0.valueName == "dir")
    }
  }

  private static func positionalNames<Command: ParsableCommand>(_: Command.Type) -> [String] {
    Command.arguments.flatMap(\.positionals).map(\.name)
  }
}
