import CropKit

/// `cropjob formats`: the formats this build of libvips reads and writes.
struct FormatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "formats", abstract: "List the image formats this build can read and write.",
    exitCodes: [ExitCodeMeaning(ExitCode.success, "the formats listed"), .usage])

  static var arguments: [Argument<Self>] { [] }

  func run() -> Int32 {
    Console.out("read:  " + InputFormat.allCases.map(\.rawValue).joined(separator: " "))
    Console.out("write: " + OutputFormat.available.map(\.rawValue).joined(separator: " "))
    return ExitCode.success
  }
}
