import Foundation
import TestSupport
import XCTest

/// One first pass (`VerdictPass`) serves `plan` in every format, `run --dry-run` and `run`:
/// on a job with outputs up to date, to build and in the way of a file cropjob did not
/// write, they say the same of each output, and the run does what they said.
final class FirstPassTests: XCTestCase {
  /// After a run of four photos: one output deleted (to build), one source touched with its
  /// content unchanged (up to date once hashed again), a fifth photo whose output path holds
  /// a file cropjob did not write (in the way), the rest up to date. Windows of one source,
  /// so that each verdict comes from its own window.
  func testPlanAndDryRunAgreeOnUpToDateToBuildAndForeignOutputs() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "cat.png", "mountains.jpg", "nuthatch.jpg"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*.jpg", "photos/*.png"]
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.jpg"}]
      """)
    let env = ["CROPJOB_PLAN_WINDOW": "1"]
    let first = try s.run(["run", "job.yaml", "-q"], environment: env)
    XCTAssertEqual(first.status, 0, first.stderr)
    try FileManager.default.removeItem(atPath: s.path("out/cat.jpg"))
    let touched = s.path("photos/mountains.jpg")
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: touched)
    try FileManager.default.copyItem(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples/ladybird.jpg").path,
      toPath: s.path("photos/ladybird.jpg"))
    try Data("not cropjob's".utf8).write(to: URL(fileURLWithPath: s.path("out/ladybird.jpg")))

    for format in ["text", "json", "dot"] {
      let plan = try s.run(["plan", "job.yaml", "--format", format], environment: env)
      let dry = try s.run(["run", "job.yaml", "--dry-run", "--format", format], environment: env)
      XCTAssertEqual(plan.stdout, dry.stdout, format)
      XCTAssertEqual(plan.stderr, dry.stderr, format)
      XCTAssertEqual(plan.status, 2, "\(format): a foreign file in the way is refused: \(plan.stderr)")
      XCTAssertEqual(dry.status, plan.status, format)
      let said = plan.stdout + plan.stderr
      XCTAssertTrue(
        said.contains("error: would overwrite a file cropjob did not write: " + s.path("out/ladybird.jpg")),
        "\(format): \(said)")
      XCTAssertFalse(said.contains("out/kite.jpg\n"), "\(format): only the foreign file is named: \(said)")
    }
    let text = try s.run(["plan", "job.yaml"], environment: env).stdout
    XCTAssertTrue(text.contains("5 outputs (3 up to date)"), text)

    let json = try s.run(["plan", "job.yaml", "--format", "json"], environment: env).stdout
    let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let outputs = try XCTUnwrap(plan["outputs"] as? [[String: Any]])
    var upToDate: [String: Bool] = [:]
    for output in outputs { upToDate[output["path"] as! String] = output["upToDate"] as? Bool }
    XCTAssertEqual(
      upToDate,
      ["kite.jpg": true, "nuthatch.jpg": true, "mountains.jpg": true, "cat.jpg": false, "ladybird.jpg": false])

    // The run (allowed to replace the foreign file) does what the plan said of each output.
    let run = try s.run(["run", "job.yaml", "--overwrite", "--json"], environment: env)
    XCTAssertEqual(run.status, 0, run.stderr)
    var did: [String: String] = [:]
    for event in CLIJob.events(run.stdout) {
      if let path = event["path"] as? String, let kind = event["event"] as? String { did[path] = kind }
    }
    for (path, fresh) in upToDate {
      XCTAssertEqual(did[path], fresh ? "up-to-date" : "wrote", "\(path): \(did)")
    }
  }

  /// An index file in the way of a file cropjob did not write is refused as an output is:
  /// `plan` and `run --dry-run` name it and exit 2, `run` refuses before writing anything
  /// (exit 2, no output, no manifest), and `--overwrite` lets it be replaced.
  func testAnIndexFileInTheWayIsRefusedBeforeAnythingIsWritten() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "cat.png"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*.jpg", "photos/*.png"]
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.jpg"}]
          index: {path: "gallery.html"}
      """)
    try FileManager.default.createDirectory(atPath: s.path("out"), withIntermediateDirectories: true)
    try Data("<p>my own page</p>".utf8).write(to: URL(fileURLWithPath: s.path("out/gallery.html")))
    let line = "would overwrite a file cropjob did not write: " + s.path("out/gallery.html") + " (an index file)"
    for arguments in [["plan", "job.yaml"], ["run", "job.yaml", "--dry-run"]] {
      let plan = try s.run(arguments)
      XCTAssertEqual(plan.status, 2, "\(arguments): \(plan.stdout)\(plan.stderr)")
      XCTAssertTrue(plan.stdout.contains("error: " + line), "\(arguments): \(plan.stdout)")
    }
    let run = try s.run(["run", "job.yaml", "-q"])
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("cropjob: " + line), run.stderr)
    XCTAssertTrue(run.stderr.contains("cropjob: nothing was written; --overwrite replaces these files"), run.stderr)
    let left = try FileManager.default.contentsOfDirectory(atPath: s.path("out")).filter { $0 != ".cropjob" }
    XCTAssertEqual(left, ["gallery.html"], "nothing written")
    XCTAssertEqual(try String(contentsOfFile: s.path("out/gallery.html"), encoding: .utf8), "<p>my own page</p>")

    let replaced = try s.run(["run", "job.yaml", "-q", "--overwrite"])
    XCTAssertEqual(replaced.status, 0, replaced.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: s.path("out/kite.jpg")))
    XCTAssertTrue(
      try String(contentsOfFile: s.path("out/gallery.html"), encoding: .utf8).contains("cropjob"), "an index now")
    let again = try s.run(["plan", "job.yaml"])
    XCTAssertEqual(again.status, 0, "cropjob's own index is not in the way: \(again.stdout)")
  }
}
