import Foundation
import TestSupport
import XCTest

/// Issue 40.6, reports a user reads: a failure names the file its template resolves to for
/// that photo (`kite.jpg`, not `{stem}.jpg`) and the source, in `plan`, in `run`'s lines and
/// in `--json` events; `plan` counts the sources that matched and failed (`2 sources (2
/// failed)`, not `0 sources`); `upscale: skip` warns once per output file, and not at all on a
/// re-run where nothing is built.
final class ReportNamesTests: XCTestCase {
  /// Two photos whose crop lies outside them: both fail at planning.
  static let outside = """
    version: 1
    output: out
    jobs:
      a:
        sources: ["photos"]
        guide: {shape: square, size: 64}
        place: {crop: {x: 100000, y: 0, width: 10, height: 10}}
        outputs: [{path: "{stem}-{width}.jpg"}]
    """

  func testFailuresNameTheFileAndTheSourceNotTheTemplate() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "bridge.jpg"])
    try s.write(Self.outside)

    let plan = try s.run(["plan", "job.yaml"])
    XCTAssertTrue(plan.stdout.contains("job a: 2 sources (2 failed), 0 outputs"), plan.stdout)
    XCTAssertTrue(plan.stdout.contains("photos/kite.jpg → kite-64.jpg: invalid placement"), plan.stdout)
    XCTAssertFalse(plan.stdout.contains("{stem}"), plan.stdout)
    let json = try s.run(["plan", "job.yaml", "--format", "json"])
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(object["sources"] as? Int, 2)
    XCTAssertEqual(object["failedSources"] as? Int, 2)
    let issueOutputs = (object["issues"] as? [[String: Any]] ?? []).compactMap { $0["output"] as? String }
    XCTAssertEqual(issueOutputs.sorted(), ["bridge-64.jpg", "kite-64.jpg"])

    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("failed: kite-64.jpg (from photos/kite.jpg): invalid placement"), run.stderr)
    XCTAssertFalse(run.stderr.contains("{stem}"), run.stderr)
    let events = CLIJob.events(try s.run(["run", "job.yaml", "--json"]).stdout)
    let failed = events.filter { $0["event"] as? String == "failed" }
    XCTAssertEqual(
      failed.map { "\($0["path"] ?? "") \($0["source"] ?? "")" }.sorted(),
      ["bridge-64.jpg photos/bridge.jpg", "kite-64.jpg photos/kite.jpg"])
  }

  /// A file the planner cannot read fails each file it would have written, named, not "the
  /// outputs of job a".
  func testAnUnreadablePhotoFailsEachFileItWouldWriteByName() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    try Data("not a photo".utf8).write(to: URL(fileURLWithPath: s.path("photos/notes.jpg")))
    try s.write(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: ["photos"]
          guide: {shape: square, size: 64}
          outputs:
            - {path: "{stem}.png"}
            - {path: "big/{stem}-{width}.jpg", widths: [64, 128]}
      """)
    let plan = try s.run(["plan", "job.yaml"])
    XCTAssertTrue(plan.stdout.contains("job a: 2 sources (1 failed), 3 outputs"), plan.stdout)
    let events = CLIJob.events(try s.run(["run", "job.yaml", "--json"]).stdout)
    let failed = events.filter { $0["event"] as? String == "failed" }
    XCTAssertEqual(
      failed.map { $0["path"] as? String ?? "" }.sorted(), ["big/notes-128.jpg", "big/notes-64.jpg", "notes.png"])
    XCTAssertTrue(failed.allSatisfy { $0["source"] as? String == "photos/notes.jpg" }, "\(failed)")
  }

  /// A photo that plans: no `failed` count, `failedSources` absent.
  func testAPlanWithoutFailuresSaysNoneFailed() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    try s.write(Self.outside.replacingOccurrences(of: "x: 100000", with: "x: 0"))
    let plan = try s.run(["plan", "job.yaml"])
    XCTAssertTrue(plan.stdout.contains("job a: 1 sources, 1 outputs"), plan.stdout)
    let json = try s.run(["plan", "job.yaml", "--format", "json"])
    XCTAssertFalse(json.stdout.contains("failedSources"), json.stdout)
  }

  func testSkippedSizesWarnOncePerOutputAndNotOnANoOp() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        avatar:
          sources: ["photos"]
          guide: {shape: square, size: 128}
          place: {upscale: skip}
          outputs: [{path: "{stem}-{width}.png", widths: [64, 128, 256], encode: {format: png}}]
      overrides:
        - {job: avatar, source: photos/kite.jpg, crop: {x: 10, y: 10, width: 100, height: 100}}
      """)
    let first = try s.run(["run", "job.yaml"])
    XCTAssertEqual(first.status, 0, first.stderr)
    let warnings = first.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    XCTAssertEqual(
      warnings,
      [
        "warning: job avatar photos/kite.jpg → kite-100.png: upscale: skip: the photo cannot fill 128x128 or 256x256; kite-100.png (100x100) stands for them"
      ], first.stderr)
    let again = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(again.status, 0, again.stderr)
    let events = CLIJob.events(again.stdout)
    XCTAssertEqual(events.filter { $0["event"] as? String == "up-to-date" }.count, 2)
    XCTAssertEqual(events.filter { $0["event"] as? String == "warning" }.count, 0, again.stdout)
    // `plan` still lists it, and `--force` (which builds) says it again.
    XCTAssertTrue(try s.run(["plan", "job.yaml"]).stdout.contains("stands for them"))
    XCTAssertTrue(try s.run(["run", "job.yaml", "--force"]).stderr.contains("stands for them"))
  }
}
