import CropKit
import Foundation
import XCTest

extension XCTestCase {
  /// Runs a tool and returns its stdout; fails the test on a non-zero exit, skips it when the
  /// tool is not installed.
  @discardableResult
  func tool(_ path: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
    guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("\(path) is not installed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = Pipe()
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "\(path) \(arguments)", file: file, line: line)
    return String(decoding: data, as: UTF8.self)
  }

  /// One header field as libvips' `vipsheader -f` prints it.
  func header(_ path: String, _ field: String) throws -> String {
    try tool("/usr/bin/vipsheader", ["-f", field, path]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The manifest a run wrote into `harness`'s output root.
  func manifest(_ harness: RunHarness) throws -> Manifest {
    let data = try Data(contentsOf: URL(fileURLWithPath: harness.outputRoot).appendingPathComponent("cropjob-manifest.json"))
    return try JSONDecoder().decode(Manifest.self, from: data)
  }
}
