import Foundation

/// Exit codes, documented in the README and in `cropjob --help`.
enum ExitCode {
  static let success: Int32 = 0
  /// Some outputs failed, or the plan / job file is invalid (plan, validate).
  static let failure: Int32 = 1
  /// `run`: the job file is invalid, nothing was done.
  static let invalidJob: Int32 = 2
  static let usage: Int32 = 64
  static let interrupted: Int32 = 130
}

/// One subcommand: parse → validate → run, and its help in a fixed order.
protocol Command {
  static var name: String { get }
  static var abstract: String { get }
  static var usage: String { get }
  /// ARGUMENTS and OPTIONS sections.
  static var details: String { get }
  init(arguments: [String]) throws
  func run() -> Int32
}

extension Command {
  /// Parses the arguments and runs; usage problems throw `UsageError`.
  static func execute(_ arguments: [String]) throws -> Int32 {
    try Self(arguments: arguments).run()
  }

  static var help: String {
    """
    OVERVIEW: \(abstract)

    USAGE: \(usage)

    \(details)
    """
  }
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
