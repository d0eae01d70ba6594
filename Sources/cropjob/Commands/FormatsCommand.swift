import CropKit

/// `cropjob formats`: the formats this build of libvips reads and writes.
struct FormatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "formats", abstract: "List the image formats this build can read and write.",
    exitCodes: [ExitCodeMeaning(ExitCode.success, "the formats listed"), .usage])

  static var arguments: [Argument<Self>] { [] }

  func run() -> Int32 {
    Console.out("read:  " + InputFormat.allCases.map(\.rawValue).joined(separator: " "))
    let writable = OutputFormat.available
    Console.out("write: " + writable.map(\.rawValue).joined(separator: " "))
    // The formats `encode.frames: all` writes as animations (GIF only where libvips has a saver).
    Console.out("animate: " + writable.filter(\.animates).map(\.rawValue).joined(separator: " "))
    return ExitCode.success
  }
}
