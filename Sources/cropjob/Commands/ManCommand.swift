/// `cropjob man`: the manual page, cropjob(1), in roff.
struct ManCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "man",
    abstract: "Print the manual page cropjob(1) in roff, generated from the commands' help.",
    discussion: """
      Read it with `cropjob man | man -l -`, or install it:
        cropjob man > /usr/local/share/man/man1/cropjob.1
      scripts/install.sh installs it under its prefix.
      """,
    exitCodes: [ExitCodeMeaning(ExitCode.success, "the manual page printed"), .usage])

  static var arguments: [Argument<Self>] { [] }

  func run() -> Int32 {
    Console.out(ManPage.render(CLI.commands))
    return ExitCode.success
  }
}
