import Foundation
import XCTest

extension XCTestCase {
  /// Runs a tool and returns its stdout; fails the test on a non-zero exit, skips it when the
  /// tool is not installed.
  @discardableResult
  public func tool(_ path: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
    -> String
  {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw Skipped.because("\(path) is not installed", test: name)
    }
    let result = try Subprocess.run(path, arguments)
    XCTAssertEqual(result.status, 0, "\(path) \(arguments): \(result.stderr)", file: file, line: line)
    return result.stdout
  }

  /// One header field as libvips' `vipsheader -f` prints it.
  public func header(_ path: String, _ field: String) throws -> String {
    try tool("/usr/bin/vipsheader", ["-f", field, path]).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

extension XCTestCase {
  /// Width, height and bands of an image file, as libvips reads it.
  public func dimensions(_ path: String) throws -> (width: Int, height: Int, bands: Int) {
    let fields = try ["width", "height", "bands"].map { Int(try header(path, $0)) ?? -1 }
    return (fields[0], fields[1], fields[2])
  }

  /// Mean absolute difference (0...255) over all bands of two images of one size, measured
  /// by libvips' command line; images with alpha are first flattened onto white, so formats
  /// with and without alpha compare. Scratch files go to `folder`.
  public func meanDifference(_ a: String, _ b: String, in folder: URL) throws -> Double {
    func scratch(_ stem: String) -> String { folder.appendingPathComponent("\(stem)-\(UUID().uuidString).v").path }
    let (fa, fb, d, abs) = (scratch("fa"), scratch("fb"), scratch("d"), scratch("abs"))
    defer { for path in [fa, fb, d, abs] { try? FileManager.default.removeItem(atPath: path) } }
    for (input, flat) in [(a, fa), (b, fb)] {
      let bands = try header(input, "bands")
      try tool(
        "/usr/bin/vips",
        bands == "4" || bands == "2" ? ["flatten", input, flat, "--background", "255"] : ["copy", input, flat])
    }
    try tool("/usr/bin/vips", ["subtract", fa, fb, d])
    try tool("/usr/bin/vips", ["abs", d, abs])
    return Double(try tool("/usr/bin/vips", ["avg", abs]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
  }
}
