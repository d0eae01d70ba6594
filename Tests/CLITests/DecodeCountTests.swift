import Foundation
import TestSupport
import XCTest

/// "One decode per photo" counted by an observer that is not cropjob: `strace -f -e
/// trace=openat` records every file the run opens, and each photo is opened as often for
/// five outputs from it as for one (a second decode of a photo would open it once more);
/// cropjob's own counter (`--stats` decodes) agrees with the plan. The header read, the hash
/// and the decode each open the file; what must not grow with the outputs is the total.
final class DecodeCountTests: XCTestCase {
  static let strace = "/usr/bin/strace"
  static let photos = ["kite.jpg", "cat.png", "mountains.jpg"]

  /// Opens of each photo during `cropjob run` of a job with `outputs`, and the decodes
  /// `--stats` reports.
  func opens(outputs: String) throws -> (opens: [String: Int], decodes: Int) {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(Self.photos)
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*"]
          guide: {shape: rect, width: 160, height: 120}
          outputs:
      \(outputs)
      """)
    let trace = s.path("trace.txt")
    let result = try Subprocess.run(
      Self.strace,
      ["-f", "-qq", "-e", "trace=openat", "-o", trace, CLIRunner.binary.path, "run", "job.yaml", "-q", "--stats"],
      cwd: s.folder, environment: CLIJob.environment([:]))
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    var opens: [String: Int] = [:]
    for photo in Self.photos {
      // openat(AT_FDCWD, "/…/photos/kite.jpg", O_RDONLY…) = 7; failed opens (= -1) do not count.
      opens[photo] = lines.filter { $0.contains("/photos/\(photo)\"") && !$0.contains("= -1") }.count
    }
    let stats = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.hasPrefix("stats:") }, result.stderr)
    let decodes = try XCTUnwrap(
      stats.split(separator: ",").first { $0.contains("decodes") }.flatMap { Int($0.split(separator: " ").last!) },
      String(stats))
    return (opens, decodes)
  }

  func testEachPhotoIsOpenedAsOftenForFiveOutputsAsForOne() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.strace) else {
      return XCTFail("\(Self.strace) is not installed (scripts/install-deps.sh installs strace)")
    }
    let one = try opens(outputs: "      - {path: \"a/{stem}.jpg\"}")
    let five = try opens(
      outputs: [
        "{path: \"a/{stem}.jpg\"}", "{path: \"b/{stem}.png\"}",
        "{path: \"c/{stem}-{width}.webp\", widths: [40, 80, 160]}",
      ].map { "      - " + $0 }.joined(separator: "\n"))
    print("opens per photo: one output \(one.opens), five outputs \(five.opens)")
    for photo in Self.photos {
      let count = try XCTUnwrap(one.opens[photo])
      XCTAssertGreaterThanOrEqual(count, 1, "\(photo) never opened: is strace tracing the run?")
      XCTAssertEqual(five.opens[photo], count, "\(photo) opened more often for five outputs than for one")
    }
    XCTAssertEqual(one.decodes, Self.photos.count)
    XCTAssertEqual(five.decodes, Self.photos.count, "cropjob's own counter")
  }
}
