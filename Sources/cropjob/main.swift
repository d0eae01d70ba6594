import CropKit
import Foundation

/// A command as the dispatcher sees it.
struct CommandEntry: Sendable {
  var name: String
  var abstract: String
  var usage: String
  var help: String
  var execute: @Sendable ([String]) throws -> Int32

  init<C: Command>(_ type: C.Type) {
    name = C.name
    abstract = C.abstract
    usage = C.usage
    help = C.help
    execute = { try C.execute($0) }
  }
}

enum CLI {
  /// The commands, in the order `--help` lists them.
  static let commands: [CommandEntry] = [
    CommandEntry(RunCommand.self), CommandEntry(PlanCommand.self), CommandEntry(ValidateCommand.self),
    CommandEntry(SchemaCommand.self), CommandEntry(PreviewCommand.self),
    CommandEntry(FormatsCommand.self),
  ]

  static var overview: String {
    let list = commands.map { "  " + $0.name.padding(toLength: 24, withPad: " ", startingAt: 0) + $0.abstract }
    return """
      OVERVIEW: cropjob runs declarative photo-crop jobs in batch: a YAML job file names the photos,
      the guide (rect, square or circle), how each photo sits under it, and the files to write.

      USAGE: cropjob <command> [options]

      OPTIONS:
        -h, --help              Show help.
        --version               Show cropjob's and libvips' versions.

      SUBCOMMANDS:

      """ + list.joined(separator: "\n") + """

          help <command>          Show help for a command.

        EXIT CODES:
          0 success, 1 failure (some outputs failed, or the plan/job file is invalid),
          2 invalid job file or unrunnable plan (run), 64 usage error, 130 interrupted.

        See 'cropjob help <command>' for a command's options.
        """
  }

  static func usageError(_ message: String, usage: String) -> Int32 {
    Console.err("Error: \(message)\nUsage: \(usage)\n  See 'cropjob --help'.")
    return ExitCode.usage
  }

  static func main(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
      return usageError("missing command", usage: "cropjob <command> [options]")
    }
    switch first {
    case "-h", "--help":
      Console.out(overview)
      return ExitCode.success
    case "--version":
      Console.out("cropjob \(CropKitVersion.string)\nlibvips \(Vips.version)")
      return ExitCode.success
    case "help":
      guard arguments.count <= 2 else { return usageError("help takes one command", usage: "cropjob help <command>") }
      guard arguments.count == 2 else {
        Console.out(overview)
        return ExitCode.success
      }
      guard let command = commands.first(where: { $0.name == arguments[1] }) else {
        return usageError("unknown command \"\(arguments[1])\"", usage: "cropjob help <command>")
      }
      Console.out(command.help)
      return ExitCode.success
    default:
      guard let command = commands.first(where: { $0.name == first }) else {
        let hint = Suggestion.closest(to: first, in: commands.map(\.name)).map { "; did you mean \"\($0)\"?" } ?? ""
        return usageError("unknown command \"\(first)\"\(hint)", usage: "cropjob <command> [options]")
      }
      let rest = Array(arguments.dropFirst())
      if rest.contains("-h") || rest.contains("--help") {
        Console.out(command.help)
        return ExitCode.success
      }
      do {
        return try command.execute(rest)
      } catch let error as UsageError {
        return usageError(error.message, usage: command.usage)
      } catch {
        Console.err("Error: \(error)")
        return ExitCode.failure
      }
    }
  }
}

exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
