import Foundation
import TestSupport

/// Runs the built `cropjob` binary and captures what it prints.
enum CLIRunner {
  typealias Result = Subprocess.Result

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
    try Subprocess.run(binary.path, arguments, cwd: cwd ?? repoRoot, environment: environment)
  }
}
