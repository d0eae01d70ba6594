import CropKit

struct FormatsCommand: Command {
  static let name = "formats"
  static let abstract = "List the image formats this build can read and write."
  static let usage = "cropjob formats"
  static let details = """
    OPTIONS:
      -h, --help              Show help.
    """

  init(arguments: [String]) throws {
    let args = try Arguments(arguments, flags: [], options: [])
    if !args.positionals.isEmpty { throw UsageError(message: "formats takes no arguments") }
  }

  func run() -> Int32 {
    Console.out("read:  " + InputFormat.allCases.map(\.rawValue).joined(separator: " "))
    Console.out("write: " + OutputFormat.available.map(\.rawValue).joined(separator: " "))
    return ExitCode.success
  }
}
