import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 40, point 6: `plan --format json` says what the manifest says (`flip`), with
/// coordinates to 1e-6 px (scale and angle to 1e-9), without binary noise
/// (`"y": 0.5000000000000425`).
final class PlanJSONReportTests: XCTestCase {
  func plan(_ text: String) throws -> [[String: Any]] {
    let harness = try RunHarness(samples: ["bridge.jpg", "forest-path.jpg", "cat.png"], job: text)
    defer { harness.remove() }
    let json = PlanRenderer.render(try harness.plan(), format: .json)
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    return try XCTUnwrap(object["outputs"] as? [[String: Any]])
  }

  func testPlanJSONHasTheFlip() throws {
    let outputs = try plan(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: ["photos/bridge.jpg"]
          guide: {shape: square, size: 64}
          place: {flip: horizontal}
          outputs: [{path: "h/{stem}.jpg"}]
        b:
          sources: ["photos/bridge.jpg"]
          guide: {shape: square, size: 64}
          place: {flip: both}
          outputs: [{path: "b/{stem}.jpg"}]
        c:
          sources: ["photos/bridge.jpg"]
          guide: {shape: square, size: 64}
          outputs: [{path: "c/{stem}.jpg"}]
      """)
    let flips = Dictionary(uniqueKeysWithValues: outputs.map { ($0["path"] as? String ?? "", $0["flip"] as? String) })
    XCTAssertEqual(flips["h/bridge.jpg"], "horizontal")
    XCTAssertEqual(flips["b/bridge.jpg"], "horizontal+vertical")
    XCTAssertEqual(flips["c/bridge.jpg"] ?? nil, nil)
  }

  /// Many placements (zooms, offsets, angles, odd sizes): every coordinate is a decimal of
  /// at most 6 places, scale and angle of at most 9.
  func testCoordinatesCarryNoFloatNoise() throws {
    let outputs = try plan(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: ["photos"]
          guide: {aspect: "7:5", width: 333}
          place: {zoom: 1.37, offset: [0.013, -0.071], rotate: 3.3, focus: [0.31, 0.67]}
          outputs: [{path: "a/{stem}-{width}.jpg", widths: [97, 333, 701]}]
        b:
          sources: ["photos"]
          guide: {shape: circle, size: 77}
          place: {fit: contain, zoom: 0.9}
          outputs: [{path: "b/{stem}.png"}]
      """)
    XCTAssertEqual(outputs.count, 12)
    func decimals(_ value: Any?) -> Int {
      guard let number = value as? Double else { return 0 }
      // The shortest text that reads back as the number, as JSONSerialization writes it.
      let text = "\(number)"
      guard let dot = text.firstIndex(of: "."), !text.contains("e") else { return 0 }
      return text.distance(from: dot, to: text.endIndex) - 1
    }
    var worst = 0
    for output in outputs {
      let crop = output["crop"] as? [String: Any] ?? [:]
      let centre = output["centre"] as? [String: Any] ?? [:]
      for value in Array(crop.values) + Array(centre.values) {
        worst = max(worst, decimals(value))
        XCTAssertLessThanOrEqual(decimals(value), 6, "\(output["path"] ?? ""): \(value)")
      }
      XCTAssertLessThanOrEqual(decimals(output["scale"]), 9, "\(output["path"] ?? "")")
      XCTAssertLessThanOrEqual(decimals(output["angle"]), 9, "\(output["path"] ?? "")")
    }
    print("plan JSON: at most \(worst) decimals in a coordinate")
  }
}
