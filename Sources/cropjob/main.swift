import CropKit
import Foundation

/// The options `cropjob` takes in place of a command (besides `-h, --help`).
struct TopLevelOptions {
  var version = false

  static var arguments: [Argument<Self>] {
    [.flag(\.version, "--version", help: "Show the versions of cropjob, libvips and the face detector.")]
  }
}

/// The dispatcher: top-level help and version, `help <command>`, and the subcommands.
enum CLI {
  /// The commands, in the order `--help` lists them.
  static var commands: [any ParsableCommand.Type] {
    [
      RunCommand.self, PlanCommand.self, ValidateCommand.self, SchemaCommand.self, PreviewCommand.self,
      ManifestCommand.self, StateCommand.self, FormatsCommand.self, CompletionsCommand.self, ManCommand.self,
    ]
  }

  static let usage = "cropjob <command> [options]"
  static let helpUsage = "cropjob help <command>"

  static var overview: String {
    let options = [HelpOption.spec(TopLevelOptions.self)] + TopLevelOptions.arguments.flatMap(\.options)
    let subcommands =
      commands.map { HelpFormatter.row($0.configuration.name, $0.configuration.abstract) }
      + [HelpFormatter.row("help <command>", "Show help for a command.")]
    return """
      OVERVIEW: cropjob runs declarative photo-crop jobs in batch: a YAML job file names the photos,
      the guide (rect, square or circle), how each photo sits under it, and the files to write.

      USAGE: \(usage)

      OPTIONS:
      \(options.map { HelpFormatter.row($0.label, $0.help) }.joined(separator: "\n"))

      SUBCOMMANDS:
      \(subcommands.joined(separator: "\n"))

      EXIT CODES:
      \(ExitCodeMeaning.summaryLines)

      See 'cropjob help <command>' for a command's options.
      """
  }

  static func usageError(_ message: String, usage: String) -> Int32 {
    Console.err("Error: \(message)\nUsage: \(usage)\n  See 'cropjob --help'.")
    return ExitCode.usage
  }

  /// The command named `name`, or a usage error naming the closest one.
  static func command(named name: String) throws -> any ParsableCommand.Type {
    if let command = commands.first(where: { $0.configuration.name == name }) { return command }
    let names = commands.map { $0.configuration.name } + ["help"]
    throw UsageError(
      message: "unknown command \"\(name)\"" + TypoHint.didYouMean(name, among: names, quoting: .quoted))
  }

  static func main(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else { return usageError("missing command", usage: usage) }
    if HelpOption.names.contains(first) {
      Console.out(overview)
      return ExitCode.success
    }
    if first.hasPrefix("-") && first != "-" {
      do {
        let options = try CommandLineParser.parse(
          [first], into: TopLevelOptions(), table: TopLevelOptions.arguments, command: "cropjob")
        if options.version {
          Console.out("cropjob \(CropKitVersion.string)\nlibvips \(Vips.version)\nfaces \(FaceDetector.versionLine)")
        }
        return ExitCode.success
      } catch {
        return usageError((error as? UsageError)?.message ?? "\(error)", usage: usage)
      }
    }
    if first == "help" { return help(Array(arguments.dropFirst())) }
    let command: any ParsableCommand.Type
    do {
      command = try self.command(named: first)
    } catch {
      return usageError((error as? UsageError)?.message ?? "\(error)", usage: usage)
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains(where: HelpOption.names.contains) {
      Console.out(command.help)
      return ExitCode.success
    }
    do {
      let status = try command.parse(rest).run()
      reportUnattributedMessages()
      return status
    } catch let error as UsageError {
      return usageError(error.message, usage: command.usage)
    } catch {
      Console.err("Error: \(error)")
      return ExitCode.failure
    }
  }

  /// libvips' messages that no file's read captured (docs/reliability.md, "Messages"), as
  /// cropjob's own warnings: nothing libvips logs reaches stderr raw.
  static func reportUnattributedMessages() {
    for message in Vips.takeUnattributedMessages() { Console.err("warning: libvips: \(message)") }
  }

  /// `cropjob help [<command>]`.
  static func help(_ arguments: [String]) -> Int32 {
    guard arguments.count <= 1 else { return usageError("help takes one command", usage: helpUsage) }
    guard let name = arguments.first, name != "help" else {
      Console.out(overview)
      return ExitCode.success
    }
    do {
      Console.out(try command(named: name).help)
      return ExitCode.success
    } catch {
      return usageError((error as? UsageError)?.message ?? "\(error)", usage: helpUsage)
    }
  }
}

// While there is one thread: libvips may then start on whichever thread first needs it, and a
// run that decodes nothing never starts it.
Vips.prepareLazyStart()
EnvironmentSettings.current.applyProcessWide()
exit(CLI.main(Array(CommandLine.arguments.dropFirst())))
