import CropSpec
import Foundation
import TestSupport
import XCTest

/// Hostile job files through the whole loader (bytes → YAML → decoder): each fails with a
/// located diagnostic without expanding it; nothing in the YAML test suite crashes it.
final class JobFileHostileInputTests: XCTestCase {
  /// Loads `bytes` as `job.yaml`, checking that it takes less than `limit` seconds: a hang
  /// guard far above the refusal's time on a loaded machine, not a speed assertion.
  func load(_ bytes: [UInt8], limit: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line) -> [String]
  {
    let start = Date()
    let result = JobFileLoader.load(bytes: bytes, path: "job.yaml")
    let elapsed = Date().timeIntervalSince(start)
    XCTAssertLessThan(elapsed, limit, "took \(elapsed) s", file: file, line: line)
    XCTAssertNil(result.jobFile, file: file, line: line)
    return result.diagnostics.map(\.description)
  }

  func load(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
    load(Array(text.utf8), file: file, line: line)
  }

  func testFileLargerThanTheCapIsRefusedBeforeReading() throws {
    let url = TestPaths.scratch().appendingPathComponent("big.yaml")
    var text = "version: 1\noutput: out\n# "
    text += String(repeating: "x", count: (1 << 20) + 10) + "\n"
    try text.write(to: url, atomically: true, encoding: .utf8)
    let start = Date()
    let result = JobFileLoader.load(path: url.path)
    XCTAssertLessThan(Date().timeIntervalSince(start), 15, "a hang guard, not a speed assertion")
    XCTAssertEqual(
      result.diagnostics.map(\.description),
      ["\(url.path):0:0: error: the job file is \(text.utf8.count) bytes; the limit is 1048576 bytes"])
  }

  func testInMemoryInputLargerThanTheCap() {
    let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: (1 << 20) + 1)
    XCTAssertEqual(
      load(bytes), ["job.yaml:1:1: error: the input is 1048577 bytes, larger than the limit of 1048576 bytes"])
  }

  func testHundredThousandNestedBracketsFailAtTheDepthLimit() {
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    XCTAssertEqual(
      load(bytes),
      [
        "job.yaml:1:65: error: nesting is deeper than 64 levels; expected at most 64 nested sequences and mappings"
      ])
  }

  func testDeepMappingsInsideAJob() {
    var text = "version: 1\noutput: out\njobs:\n  a:\n    place:\n"
    for depth in 0..<70 { text += String(repeating: "  ", count: depth + 3) + "k:\n" }
    let lines = load(text)
    XCTAssertEqual(lines.count, 1)
    XCTAssertTrue(lines[0].hasPrefix("job.yaml:"), lines[0])
    XCTAssertTrue(
      lines[0].hasSuffix("error: nesting is deeper than 64 levels; expected at most 64 nested sequences and mappings"),
      lines[0])
  }

  func testBillionLaughsIsRefused() {
    var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for i in 1...9 {
      text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    let lines = load(text)
    XCTAssertEqual(lines.count, 1)
    XCTAssertTrue(
      lines[0].contains(
        "error: the document has more than 100000 nodes (aliases expanded); expected a smaller document"),
      lines[0])
  }

  func testTooManyAliases() {
    var text = "version: 1\nanchor: &v 1\nlist: ["
    text += Array(repeating: "*v", count: 101).joined(separator: ", ") + "]\n"
    XCTAssertEqual(
      load(text), ["job.yaml:3:408: error: more than 100 alias uses (*v); expected at most 100"])
  }

  func testDuplicateKeys() {
    XCTAssertEqual(
      load("version: 1\noutput: out\noutput: elsewhere\njobs: {}\n"),
      ["job.yaml:3:1: error: duplicate key \"output\" (first at 2:1)"])
    XCTAssertEqual(
      load("version: 1\noutput: out\njobs:\n  a: {sources: a.jpg}\n  a: {sources: b.jpg}\n"),
      ["job.yaml:5:3: error: duplicate key \"a\" (first at 4:3)"])
  }

  func testNonUTF8IsRefusedWithItsPosition() {
    var bytes = Array("version: 1\noutput: caf".utf8)
    bytes += [0xE9]  // Latin-1 é
    bytes += Array("\njobs: {}\n".utf8)
    XCTAssertEqual(
      load(bytes),
      [
        "job.yaml:2:12: error: invalid UTF-8 at byte offset 22 (byte 0x0A at byte offset 23 is not a continuation byte); expected UTF-8 text"
      ])
    XCTAssertEqual(
      load([0xFF, 0xFE] + Array("v: 1".utf8)),
      ["job.yaml:1:1: error: the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8"])
  }

  func testTabsInIndentation() {
    XCTAssertEqual(
      load("version: 1\noutput: out\njobs:\n\ta: {sources: a.jpg}\n"),
      ["job.yaml:4:1: error: tabs are not allowed for indentation; indent with spaces"])
  }

  func testAliasesAndMergeKeysShareSettingsWithinLimits() {
    let text = """
      version: 1
      output: out
      x-common: &common
        guide: {size: 64}
        outputs: [{path: "{job}/{stem}.jpg"}]
      jobs:
        a: {<<: *common, sources: a.jpg}
      """
    XCTAssertEqual(
      load(text),
      [
        "job.yaml:3:1: error: x-common: expected one of the keys version, output, limits, defaults, jobs, overrides, overrides_from but received the unknown key \"x-common\""
      ])
    let result = JobFileLoader.load(
      bytes: Array(
        """
        version: 1
        output: out
        defaults:
          guide: &g {size: 64}
        jobs:
          a:
            sources: a.jpg
            guide: *g
            outputs: &o [{path: "{job}/{stem}.jpg"}]
          b: {sources: b.jpg, outputs: *o}
        """.utf8), path: "job.yaml")
    XCTAssertEqual(result.diagnostics.map(\.description), [])
    XCTAssertEqual(result.jobFile?.jobs.count, 2)
  }

  /// Every input of the YAML test suite through the whole loader: each ends in diagnostics
  /// with a position (none is a job file), quickly, and nothing crashes.
  func testYAMLTestSuiteNeverCrashesTheLoader() throws {
    let inputs = Corpora.yamlTestSuiteInputs()
    XCTAssertGreaterThan(inputs.count, 300)
    var slowest = 0.0
    var yamlErrors = 0
    for url in inputs {
      let bytes = try [UInt8](Data(contentsOf: url))
      let start = Date()
      let result = JobFileLoader.load(bytes: bytes, path: url.path)
      slowest = max(slowest, Date().timeIntervalSince(start))
      XCTAssertNil(result.jobFile, url.path)
      XCTAssertFalse(result.diagnostics.isEmpty, url.path)
      for d in result.diagnostics {
        XCTAssertTrue(d.line >= 1 && d.column >= 1, "\(url.path): \(d)")
        XCTAssertFalse(d.message.isEmpty)
      }
      if result.diagnostics.contains(where: { $0.field.isEmpty }) { yamlErrors += 1 }
      let isError = FileManager.default.fileExists(
        atPath: url.deletingLastPathComponent().appendingPathComponent("error").path)
      if isError { XCTAssertTrue(result.diagnostics.hasErrors, url.path) }
    }
    XCTAssertLessThan(slowest, 15, "a hang guard, not a speed assertion")
    print(
      "yaml-test-suite through JobFileLoader: \(inputs.count) inputs, slowest \(slowest) s, \(yamlErrors) with file-level errors"
    )
  }
}
