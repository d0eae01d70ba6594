import Foundation
import XCTest

/// What the machine-readable reports state: `run --json` carries every warning the text mode
/// prints as an event, and `plan --format json` gives as a rectangle only what `run` writes.
final class JSONReportTests: XCTestCase {
  func testEveryWarningIsAnEventWithKindPathAndMessage() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    // 4,000 px wide from a smaller photo: upscaling, a warning of the output.
    try s.write(
      """
      version: 1
      output: out
      jobs:
        big:
          sources: ["photos", "missing/*.jpg"]
          guide: {shape: rect, width: 4000, aspect: "1:1"}
          outputs: [{path: "big/{stem}.jpg"}]
        nightly:
          sources: ["incoming"]
          allow_empty: true
          guide: {size: 64}
          outputs: [{path: "n/{stem}.jpg"}]
      """)
    let text = try s.run(["run", "job.yaml", "--force"])
    XCTAssertEqual(text.status, 0, text.stderr)
    let warningLines = text.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    XCTAssertEqual(warningLines.count, 3, text.stderr)
    let json = try s.run(["run", "job.yaml", "--json", "--force"])
    XCTAssertEqual(json.status, 0, json.stderr)
    XCTAssertEqual(json.stderr, "", "nothing on stderr with --json")
    let warnings = CLIJob.events(json.stdout).filter { $0["event"] as? String == "warning" }
    XCTAssertEqual(warnings.count, warningLines.count, json.stdout)
    let byKind = Dictionary(grouping: warnings) { $0["kind"] as? String ?? "" }
    XCTAssertEqual(Set(byKind.keys), ["upscale", "no-match", "empty-job"], json.stdout)
    let upscale = try XCTUnwrap(byKind["upscale"]?.first)
    XCTAssertEqual(upscale["path"] as? String, "big/kite.jpg")
    XCTAssertEqual(upscale["source"] as? String, "photos/kite.jpg")
    XCTAssertEqual(upscale["job"] as? String, "big")
    XCTAssertTrue((upscale["message"] as? String)?.hasPrefix("upscaling: ") ?? false, "\(upscale)")
    XCTAssertEqual(byKind["no-match"]?.first?["path"] as? String, "missing/*.jpg")
    XCTAssertEqual(byKind["empty-job"]?.first?["job"] as? String, "nightly")
    XCTAssertNil(byKind["empty-job"]?.first?["path"])
    // Each event's message is the text line's end.
    for warning in warnings {
      let message = try XCTUnwrap(warning["message"] as? String)
      XCTAssertTrue(warningLines.contains { $0.hasSuffix(": " + message) }, message)
    }
  }

  /// A crop found at run time (attention, entropy, faces) is marked as such in the plan, not
  /// given as the centred rectangle the planner starts from; every rectangle the plan does give
  /// is the one `run` records in the manifest.
  func testThePlanStatesOnlyTheRectanglesRunWrites() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "bridge.jpg", "cat.png", "ladybird.jpg"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        smart:
          sources: photos
          guide: {shape: square, size: 96}
          place: {focus: attention}
          outputs: [{path: "smart/{stem}.png"}]
        fixed:
          sources: photos
          guide: {shape: rect, width: 120, aspect: "3:2"}
          place: {focus: top-right, zoom: 1.3}
          outputs: [{path: "fixed/{stem}.png"}]
      """)
    let plan = try s.run(["plan", "job.yaml", "--format", "json"])
    XCTAssertEqual(plan.status, 0, plan.stderr)
    let planned = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["outputs"] as? [[String: Any]]
    )
    XCTAssertEqual(planned.count, 8)
    for output in planned {
      let smart = output["job"] as? String == "smart"
      XCTAssertEqual(output["cropFoundAtRunTime"] as? Bool, smart ? true : nil, "\(output)")
      XCTAssertEqual(output["crop"] == nil, smart, "\(output)")
      XCTAssertEqual(output["centre"] == nil, smart, "\(output)")
      XCTAssertNotNil(output["width"])
    }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    let manifest = try XCTUnwrap(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json"))))
        as? [String: Any])
    let written = Dictionary(
      uniqueKeysWithValues: (manifest["outputs"] as? [[String: Any]] ?? []).map {
        ($0["path"] as? String ?? "", ($0["geometry"] as? [String: Any])?["crop"] as? [String: Double])
      })
    for output in planned {
      guard let crop = output["crop"] as? [String: Double] else { continue }
      let recorded = try XCTUnwrap(written[output["path"] as? String ?? ""] ?? nil, "\(output)")
      for key in ["x", "y", "width", "height"] {
        XCTAssertEqual(crop[key] ?? .nan, recorded[key] ?? .nan, accuracy: 1e-9, "\(key) of \(output)")
      }
    }
  }
}
