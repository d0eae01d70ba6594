import CropKit
import Foundation
import TestSupport
import XCTest

/// Hostile job files through the CLI: each is a clear, located error in well under a second,
/// from `validate` (exit 1) and from `run` (exit 2), never a crash, a hang or a huge
/// allocation (docs/reliability.md, "Job files").
final class HostileJobFileTests: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws {
    folder = makeScratch()
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  func makeScratch() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cropjob-hostile-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes `bytes` as a job file and checks both commands refuse it with `expected` in the
  /// message (and the file's name with a line:column), without expanding it: `limit` is a hang
  /// guard far above the refusal's time on a loaded machine (an expanded alias bomb or a walk of
  /// every node would take minutes). The figures of docs/reliability.md ("under one second,
  /// about 40 MB") are asserted as `/usr/bin/time` measures them, which a shared machine's load
  /// does not move much: under 1 s of CPU (user + system) and under 64 MB of peak RSS (42–46 MB
  /// measured with the debug build).
  func assertRefused(
    _ bytes: [UInt8], _ expected: [String], name: String = "job.yaml", limit: Double = 15,
    file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let path = folder.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let time = "/usr/bin/time"
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: time), "\(time) is not installed", file: file, line: line)
    for (command, status) in [("validate", Int32(2)), ("run", Int32(2))] {
      let result = try TimedRunner.run(
        [command, path], cwd: folder, timeout: 20, wrapper: [time, "-f", "cropjob-usage %M %U %S"])
      let usage = result.stderr.split(separator: "\n").last { $0.hasPrefix("cropjob-usage ") }?.split(separator: " ")
      let kilobytes = usage.flatMap { Int($0[1]) } ?? .max
      let cpu = usage.map { fields in (Double(fields[2]) ?? .infinity) + (Double(fields[3]) ?? .infinity) } ?? .infinity
      XCTAssertLessThan(kilobytes, 64_000, "\(command) \(name): peak RSS \(kilobytes) kB", file: file, line: line)
      XCTAssertLessThan(cpu, 1, "\(command) \(name): \(cpu) s of CPU", file: file, line: line)
      XCTAssertFalse(result.timedOut, "\(command) \(name) hung", file: file, line: line)
      XCTAssertEqual(result.exitCode, status, "\(command) \(name): \(result.combined)", file: file, line: line)
      XCTAssertLessThan(result.seconds, limit, "\(command) \(name) took \(result.seconds) s", file: file, line: line)
      for text in expected {
        XCTAssertTrue(
          result.combined.contains(text), "\(command) \(name): expected \(text) in \(result.combined)", file: file,
          line: line)
      }
      XCTAssertTrue(
        result.combined.contains("\(name):"), "\(command) \(name) does not name the file: \(result.combined)",
        file: file, line: line)
      XCTAssertFalse(
        result.combined.contains("Fatal error") || result.combined.contains("Program crashed"), result.combined,
        file: file, line: line)
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "run wrote output")
  }

  func testDeepNesting() throws {
    let depth = 100_000
    try assertRefused(Array(("jobs: " + String(repeating: "[", count: depth)).utf8), ["nest"], name: "brackets.yaml")
    var block = "version: 1\noutput: out\njobs:\n"
    for level in 0..<200 { block += String(repeating: " ", count: 2 * (level + 1)) + "k\(level):\n" }
    try assertRefused(Array(block.utf8), ["nest"], name: "indented.yaml")
  }

  func testAliasBomb() throws {
    // "Billion laughs": 10 levels of 10 aliases each, 10^10 nodes once expanded.
    var text = "version: 1\noutput: out\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in 1...10 {
      let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      text += "a\(level): &a\(level) [\(refs)]\n"
    }
    text += "jobs: *a10\n"
    try assertRefused(Array(text.utf8), ["alias"], name: "laughs.yaml")
    // Many cheap aliases of one scalar.
    let many = "version: 1\nx: &x 1\nlist: [" + Array(repeating: "*x", count: 5000).joined(separator: ", ") + "]\n"
    try assertRefused(Array(many.utf8), ["alias"], name: "aliases.yaml")
  }

  func testHugeFiles() throws {
    // 5 MB of comments: refused from its size, before it is read.
    let huge = [UInt8]("version: 1\n".utf8) + [UInt8](repeating: UInt8(ascii: "#"), count: 5 << 20)
    try assertRefused(huge, ["bytes", "limit"], name: "huge.yaml")
    // Just under the limit but 150,000 tiny nodes.
    var wide = "version: 1\nlist: ["
    wide += Array(repeating: "1", count: 150_000).joined(separator: ",")
    wide += "]\n"
    try assertRefused(Array(wide.utf8), ["nodes"], name: "wide.yaml")
    // A job file that never ends: /dev/zero and a FIFO nobody writes to.
    for (path, expected) in [
      ("/dev/zero", "not a regular file"), (folder.appendingPathComponent("pipe.yaml").path, "not a regular file"),
    ] {
      if path.hasSuffix("pipe.yaml") { XCTAssertEqual(mkfifo(path, 0o644), 0) }
      let result = try TimedRunner.run(["validate", path], cwd: folder, timeout: 10)
      XCTAssertFalse(result.timedOut, "validate \(path) hung")
      XCTAssertEqual(result.exitCode, 2, result.combined)
      XCTAssertTrue(result.combined.contains(expected), result.combined)
    }
  }

  func testOddEncodings() throws {
    let job = "version: 1\noutput: out\njobs: {}\n"
    // UTF-16 with a byte order mark (libyaml would accept it; job files are UTF-8).
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in job.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    try assertRefused(utf16, ["UTF-16", "save it as UTF-8", ":1:1:"], name: "utf16.yaml")
    var utf16be: [UInt8] = [0xFE, 0xFF]
    for unit in job.utf16 { utf16be += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    try assertRefused(utf16be, ["UTF-16", "save it as UTF-8"], name: "utf16be.yaml")
    // Latin-1 bytes (é as 0xE9) on line 2.
    try assertRefused(
      Array("version: 1\noutput: caf".utf8) + [0xE9] + Array("\njobs: {}\n".utf8), ["UTF-8", ":2:"], name: "latin1.yaml"
    )
    // A NUL byte on line 3.
    try assertRefused(Array("version: 1\noutput: out\njobs: {}\u{0}\n".utf8), ["NUL", ":3:"], name: "nul.yaml")
    // Overlong UTF-8 and an unpaired surrogate.
    try assertRefused(Array("version: 1\noutput: ".utf8) + [0xC0, 0xAF] + [0x0A], ["UTF-8"], name: "overlong.yaml")
    try assertRefused(
      Array("version: 1\noutput: ".utf8) + [0xED, 0xA0, 0x80] + [0x0A], ["UTF-8"], name: "surrogate.yaml")
  }

  /// Crashers the job-file fuzzer found, kept as regression tests: each is an invalid job file,
  /// refused with exit 1 and at least one located error naming the file.
  func testFuzzCrashersAreDiagnosed() throws {
    let fixtures = TestPaths.fixtures.appendingPathComponent("fuzz/jobfile")
    let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { !$0.hasSuffix(".md") }
      .sorted()
    XCTAssertFalse(names.isEmpty)
    for name in names {
      let path = fixtures.appendingPathComponent(name).path
      let result = try TimedRunner.run(["validate", path], timeout: 20)
      XCTAssertFalse(result.timedOut, name)
      XCTAssertNotNil(result.exitCode, "\(name) crashed cropjob: \(result.combined)")
      XCTAssertEqual(result.exitCode, 2, "\(name): \(result.combined)")
      let located = result.combined.split(separator: "\n").contains {
        $0.hasPrefix("\(path):") && $0.contains(": error: ")
      }
      XCTAssertTrue(located, "\(name): no located error in \(result.combined)")
    }
  }
}
