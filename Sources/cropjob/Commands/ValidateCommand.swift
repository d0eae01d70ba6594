import CropKit
import Foundation

struct ValidateCommand: Command {
  static let name = "validate"
  static let abstract = "Check job files without reading any photo: every problem at once, with file:line:column."
  static let usage = "cropjob validate <job.yaml>... [--format text|json|github] [--strict]"
  static let details = """
    ARGUMENTS:
      <job.yaml>...           One or more job files.

    OPTIONS:
      --format <format>       text (file:line:column: error: field: message), json, or github
                              (::error file=…,line=…,col=…::message annotations). Default text.
      --strict                Treat warnings as errors.
      -h, --help              Show help.

    EXIT CODES:
      0 valid (warnings allowed unless --strict), 1 invalid, 64 usage error.
    """

  let files: [String]
  let format: DiagnosticFormat
  let strict: Bool

  init(arguments: [String]) throws {
    let args = try Arguments(arguments, flags: ["--strict"], options: ["--format"])
    guard !args.positionals.isEmpty else { throw UsageError(message: "missing <job.yaml>") }
    files = args.positionals
    format = try args.choice("--format", DiagnosticFormat.self) ?? .text
    strict = args.flag("--strict")
  }

  func run() -> Int32 {
    var all: [Diagnostic] = []
    var valid: [String] = []
    for file in files {
      let result = JobFileLoader.load(path: file)
      all += result.diagnostics
      let failed = result.diagnostics.hasErrors || (strict && !result.diagnostics.isEmpty)
      if !failed { valid.append(file) }
    }
    let failed = valid.count < files.count
    switch format {
    case .json:
      Console.out(format.render(all))
    case .text, .github:
      if !all.isEmpty { Console.out(format.render(all)) }
      if format == .text {
        for file in valid { Console.out("\(file): valid") }
      }
    }
    return failed ? ExitCode.failure : ExitCode.success
  }
}
