import Foundation
import XCTest

/// At scale the console does not print a line per warning: the first five of each kind, then
/// one line counting the rest and saying where all of them are; `--json` keeps every one, and
/// failures stay one line each.
final class WarningGroupingTests: XCTestCase {
  func testWarningsOfOneKindAreCountedAfterTheFirstFive() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "cat.png"], copies: 6)  // 12 photos
    try "not a photo".write(toFile: s.path("photos/broken.jpg"), atomically: true, encoding: .utf8)
    try s.write(
      """
      version: 1
      output: out
      jobs:
        big:
          sources: ["photos"]
          guide: {shape: rect, width: 1100, aspect: "1:1"}
          outputs: [{path: "{stem}.jpg"}]
      """)
    let text = try s.run(["run", "job.yaml", "--force", "-j", "2"])
    XCTAssertEqual(text.status, 1, text.stderr)
    let lines = text.stderr.split(separator: "\n").map(String.init)
    let upscale = lines.filter { $0.hasPrefix("warning: job big ") && $0.contains(": upscaling: ") }
    XCTAssertEqual(upscale.count, 5, text.stderr)
    let counted = lines.filter { $0.hasPrefix("warning: 7 more upscale warnings not shown (12 in all;") }
    XCTAssertEqual(counted.count, 1, text.stderr)
    XCTAssertTrue(counted.first?.contains("cropjob run --json") ?? false, text.stderr)
    // The failure is printed on its own, as it happens and in the summary, naming the file.
    XCTAssertEqual(lines.filter { $0.hasPrefix("failed: broken.jpg (from photos/broken.jpg)") }.count, 1)

    let json = try s.run(["run", "job.yaml", "--json", "--force", "-j", "2"])
    let warnings = CLIJob.events(json.stdout).filter { $0["event"] as? String == "warning" }
    XCTAssertEqual(warnings.filter { $0["kind"] as? String == "upscale" }.count, 12, json.stdout)
  }

  func testOutputsNoLongerProducedAreCountedToo() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"], copies: 8)
    let job = """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos"]
          guide: {size: 32}
          outputs: [{path: "{stem}-a.jpg"}]
      """
    try s.write(job)
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    try s.write(job.replacing("{stem}-a.jpg", with: "{stem}-b.jpg"))
    let rerun = try s.run(["run", "job.yaml"])
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    let lines = rerun.stderr.split(separator: "\n")
    XCTAssertEqual(lines.filter { $0.hasPrefix("no longer produced: ") }.count, 5, rerun.stderr)
    XCTAssertEqual(
      lines.filter { $0.hasPrefix("warning: 3 more outputs no longer produced not shown (8 in all;") }.count, 1,
      rerun.stderr)
  }
}
