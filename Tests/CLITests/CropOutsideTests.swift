import Foundation
import TestSupport
import XCTest

/// Issue 28.7: a crop wholly outside its photo fails that photo (it wrote a blank avatar and
/// exited 0), the others are made; `plan --format json` gives the crop asked for
/// (`cropRequested`) beside the sampled box clipped to the photo (`crop`).
final class CropOutsideTests: XCTestCase {
  func testCropOutsideThePhotoFailsThatPhotoAlone() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "bridge.jpg"])
    let size = try Subprocess.run("/usr/bin/vipsheader", ["-f", "width", s.path("photos/kite.jpg")])
    let width = try XCTUnwrap(Int(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    try s.write(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: ["photos"]
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.jpg"}]
      overrides:
        - {source: photos/kite.jpg, crop: {x: \(width + 10), y: 0, width: 100, height: 100}}
        - {source: photos/bridge.jpg, crop: {x: -50, y: -20, width: 200, height: 100}}
      """)
    let plan = try s.run(["plan", "job.yaml", "--format", "json"])
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
    let outputs = try XCTUnwrap(object["outputs"] as? [[String: Any]])
    XCTAssertEqual(outputs.map { $0["path"] as? String }, ["bridge.jpg"])
    let requested = try XCTUnwrap(outputs[0]["cropRequested"] as? [String: Double])
    XCTAssertEqual(requested["x"], -50)
    XCTAssertEqual(requested["width"], 200)
    let crop = try XCTUnwrap(outputs[0]["crop"] as? [String: Double])
    XCTAssertEqual([crop["x"], crop["y"], crop["width"], crop["height"]], [0, 0, 150, 80])
    let issues = (object["issues"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    XCTAssertTrue(
      issues.contains { $0.contains("lies wholly outside the \(width)x") && $0.contains("photo") }, "\(issues)")

    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("(from photos/kite.jpg)") && run.stderr.contains("wholly outside"), run.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: s.path("out/bridge.jpg")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out/kite.jpg")))
  }
}
