import Foundation
import XCTest

/// One verdict for `validate`, `plan`, `run --dry-run` and `run` (docs/cli.md): a job that
/// cannot produce anything is an error in all four with exit 2, unless it says
/// `allow_empty: true`, when all four say so and exit 0.
final class VerdictTests: XCTestCase {
  static let commands = [["validate"], ["plan"], ["run", "--dry-run"], ["run"]]

  func job(sources: String, extra: String = "") throws -> CLIJob {
    let s = CLIJob()
    try s.copySamples(["kite.jpg"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: \(sources)\(extra)
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.jpg"}]
      """)
    return s
  }

  /// A folder that is not there, a glob that matches nothing, everything excluded.
  func testAJobThatCannotProduceAnythingIsExit2InAllFour() throws {
    for (sources, extra) in [
      ("[\"incoming\"]", ""), ("[\"photos/*.png\"]", ""), ("[\"photos\"]", "\n    exclude: [\"*.jpg\"]"),
    ] {
      let s = try job(sources: sources, extra: extra)
      defer { s.remove() }
      for command in Self.commands {
        let result = try s.run(command + ["job.yaml"])
        let said = result.stdout + result.stderr
        XCTAssertEqual(result.status, 2, "\(command) \(sources): \(said)")
        XCTAssertTrue(said.contains("no file matches"), "\(command): \(said)")
        XCTAssertTrue(said.contains("cannot produce anything"), "\(command): \(said)")
        XCTAssertFalse(said.contains("progress:"), "\(command): \(said)")
        XCTAssertFalse(said.contains("(from )"), "\(command): \(said)")
        if command == ["validate"] {
          XCTAssertTrue(said.contains("job.yaml:5:14: error: jobs.t.sources: no file matches"), said)
        } else {
          XCTAssertTrue(said.contains("job t: no file matches"), "\(command): \(said)")
        }
      }
      XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out")), "nothing written")
    }
  }

  func testAllowEmptyMakesAllFourSaySoAndExit0() throws {
    let s = try job(sources: "[\"incoming\"]", extra: "\n    allow_empty: true")
    defer { s.remove() }
    for command in Self.commands {
      let result = try s.run(command + ["job.yaml"])
      let said = result.stdout + result.stderr
      XCTAssertEqual(result.status, 0, "\(command): \(said)")
      XCTAssertTrue(said.contains("allow_empty"), "\(command): \(said)")
      XCTAssertFalse(said.contains("progress:"), "\(command): \(said)")
    }
    let validate = try s.run(["validate", "job.yaml"])
    XCTAssertEqual(validate.stdout, "job.yaml: valid (empty, allowed by allow_empty: job t)\n")
    // The folder appears: the same job file runs it, without the warning.
    try s.copySamples(["kite.jpg"], into: "incoming")
    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertFalse(run.stderr.contains("allow_empty"), run.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: s.path("out/kite.jpg")))
  }

  /// `allow_empty` belongs with `sources` (a `from:` job is empty when the job it reads is),
  /// and takes a boolean.
  func testAllowEmptyIsCheckedByTheDecoder() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.write(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: photos
          allow_empty: yes please
          guide: {size: 64}
          outputs: [{path: "{stem}.jpg"}]
        b:
          from: a
          allow_empty: true
          guide: {size: 32}
          outputs: [{path: "b/{stem}.jpg"}]
      """)
    let result = try s.run(["validate", "job.yaml"])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(
      result.stdout.contains("job.yaml:6:18: error: jobs.a.allow_empty: expected true or false"), result.stdout)
    XCTAssertTrue(
      result.stdout.contains("job.yaml:11:18: error: jobs.b.allow_empty: expected allow_empty together with sources"),
      result.stdout)
  }
}
