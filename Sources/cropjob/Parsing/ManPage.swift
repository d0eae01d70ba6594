import CropKit

/// cropjob(1) in roff, written from the same tables and texts as `cropjob help`.
enum ManPage {
  static func render(_ commands: [any ParsableCommand.Type]) -> String {
    var lines = [
      ".\\\" \(CompletionScripts.header.replacing("completions", with: "man"))",
      ".TH CROPJOB 1 \"\" \"cropjob \(CropKitVersion.string)\" \"User Commands\"",
      ".SH NAME", "cropjob \\- run declarative photo-crop jobs in batch",
      ".SH SYNOPSIS", ".B cropjob", "\\fIcommand\\fR [\\fIoptions\\fR]",
      ".SH DESCRIPTION",
      text(
        "A YAML job file names the photos, the guide (rect, square or circle), how each photo sits under it, "
          + "and the files to write. cropjob validates it, plans the batch from image headers, and runs it "
          + "on all cores, atomically and incrementally."),
      ".SH OPTIONS",
    ]
    for option in TopLevelOptions.arguments.flatMap(\.options) + [HelpOption.spec(TopLevelOptions.self)] {
      lines += entry(option.label, option.help)
    }
    lines.append(".SH COMMANDS")
    for command in commands { lines += section(command) }
    lines += [
      ".SH EXIT STATUS",
      text(ExitCodeMeaning.summary + " Each command's are under COMMANDS."),
      ".SH SEE ALSO", "vips(1); the job file reference in docs/job-file.md of the source tree.",
    ]
    return lines.joined(separator: "\n")
  }

  private static func section<Command: ParsableCommand>(_: Command.Type) -> [String] {
    let configuration = Command.configuration
    var lines = [".SS \(configuration.name)", text(configuration.abstract), ".PP", ".nf", text(Command.usage), ".fi"]
    if let discussion = configuration.discussion { lines += [".PP", ".nf", text(discussion), ".fi"] }
    for positional in Command.arguments.flatMap(\.positionals) { lines += entry(positional.label, positional.help) }
    for option in Command.arguments.flatMap(\.options) + [HelpOption.spec(Command.self)] {
      lines += entry(option.label, option.help)
    }
    if let epilogue = configuration.epilogue { lines += [".PP", ".nf", text(epilogue), ".fi"] }
    if !configuration.exitCodes.isEmpty {
      lines += [".PP", ".nf", text(ExitCodeMeaning.section(configuration.exitCodes)), ".fi"]
    }
    return lines
  }

  /// A tagged paragraph: the label in bold, the help below it.
  private static func entry(_ label: String, _ help: String) -> [String] {
    [".TP", "\\fB\(text(label).replacing("-", with: "\\-"))\\fR", text(help.replacing("\n", with: " "))]
  }

  /// `value` as roff text: backslashes escaped, no line starting with a control character.
  static func text(_ value: String) -> String {
    value.replacing("\\", with: "\\e").split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }.joined(separator: "\n")
  }
}
