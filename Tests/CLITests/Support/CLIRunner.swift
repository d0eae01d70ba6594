import Foundation

/// Runs the built `cropjob` binary and captures what it prints.
enum CLIRunner {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let repoRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The `cropjob` executable beside the test bundle (the test target depends on it).
  static var binary: URL {
    var dir = Bundle.main.bundleURL
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      dir = bundle.bundleURL.deletingLastPathComponent()
    }
    let candidate = dir.appendingPathComponent("cropjob")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    return repoRoot.appendingPathComponent(".build/debug/cropjob")
  }

  static func run(_ arguments: [String], cwd: URL? = nil, environment: [String: String] = [:]) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = cwd ?? repoRoot
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
