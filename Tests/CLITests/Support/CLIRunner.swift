import Foundation
import TestSupport
import XCTest

/// Runs the built `cropjob` binary and captures what it prints.
enum CLIRunner {
  typealias Result = Subprocess.Result

  /// The `cropjob` executable beside the test bundle (the test target depends on it).
  static var binary: URL {
    var dir = Bundle.main.bundleURL
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      dir = bundle.bundleURL.deletingLastPathComponent()
    }
    let candidate = dir.appendingPathComponent("cropjob")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    return TestPaths.repoRoot.appendingPathComponent(".build/debug/cropjob")
  }

  static func run(_ arguments: [String], cwd: URL? = nil, environment: [String: String] = [:]) throws -> Result {
    try Subprocess.run(binary.path, arguments, cwd: cwd ?? TestPaths.repoRoot, environment: environment)
  }

  /// What `cropjob arguments` prints on stdout in each of `count` processes, one after the
  /// other. Each process seeds Swift's hashing afresh (SWIFT_DETERMINISTIC_HASHING is
  /// removed from their environment), so output that follows a Set's or a Dictionary's order
  /// differs between them, which it cannot within one process. Fails on a non-zero exit.
  static func stdoutOfSeparateProcesses(
    _ arguments: [String], count: Int = 3, cwd: URL? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws -> [Data] {
    try (0..<count).map { _ in
      let result = try Subprocess.run(
        binary.path, arguments, cwd: cwd ?? TestPaths.repoRoot, unset: ["SWIFT_DETERMINISTIC_HASHING"])
      XCTAssertEqual(
        result.status, 0, "cropjob \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
      return result.stdoutData
    }
  }
}
