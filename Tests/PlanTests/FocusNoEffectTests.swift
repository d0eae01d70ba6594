import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Under `overflow: clamp` a photo that fits inside the guide on both axes is centred, so a
/// focus or offset the job asks for does nothing: the plan says so (docs/job-file.md).
final class FocusNoEffectTests: XCTestCase {
  /// The warnings of one job on `sample` (cat.png: 451×300) under a 300×300 guide with `place`.
  func warnings(_ place: String, sample: String = "cat.png") throws -> [String] {
    let yaml = """
      version: 1
      output: out
      jobs:
        j:
          sources: ["\(TestPaths.sample(sample))"]
          guide: {shape: square, size: 300}
          place: \(place)
          outputs: [{path: "{stem}.png"}]
      """
    let loaded = JobFileLoader.load(bytes: Array(yaml.utf8), path: "inline.yaml")
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    let plan = Planner().plan(file)
    XCTAssertEqual(plan.outputs.count, 1)
    return plan.issues.filter { $0.severity == .warning }.map(\.message)
  }

  func noEffect(_ messages: [String]) -> [String] { messages.filter { $0.contains("no effect") } }

  func testContainUnderClampWarnsAboutFocusAndOffset() throws {
    XCTAssertEqual(
      noEffect(try warnings("{fit: contain, focus: top-left}")),
      [
        "focus has no effect: the photo fits inside the guide on both axes, so overflow: clamp centres it "
          + "(use overflow: fill or shrink to place it, or a larger zoom)"
      ])
    XCTAssertEqual(noEffect(try warnings("{fit: contain, offset: [20, 0]}")).first?.hasPrefix("offset has"), true)
    XCTAssertEqual(
      noEffect(try warnings("{fit: contain, focus: attention, offset: [0, 5]}")).first?.hasPrefix(
        "focus and offset have"), true)
    // Cover at half zoom fits inside on both axes too.
    XCTAssertEqual(noEffect(try warnings("{fit: cover, zoom: 0.5, focus: [0.2, 0.2]}")).count, 1)
  }

  func testNoWarningWhenThePhotoCanMoveOrNothingWasAsked() throws {
    // contain at zoom 1.2: 360×239.5 on 300×300, free on x, so focus moves it.
    XCTAssertEqual(noEffect(try warnings("{fit: contain, zoom: 1.2, focus: left}")), [])
    // Nothing asked: centre focus, no offset.
    XCTAssertEqual(noEffect(try warnings("{fit: contain}")), [])
    // fill and shrink place the photo where the focus says.
    XCTAssertEqual(noEffect(try warnings("{fit: contain, overflow: fill, focus: top-left}")), [])
    // An exact fit (cameraman.png is 512×512, cover, a square guide): nothing to choose.
    XCTAssertEqual(noEffect(try warnings("{fit: cover, focus: attention}", sample: "cameraman.png")), [])
    // cover: the photo is larger than the guide on x.
    XCTAssertEqual(noEffect(try warnings("{fit: cover, focus: left}")), [])
  }

  /// The pinned test against the clamp itself: when `clampPinsCentre` is true, every focus
  /// and offset gives the same transform.
  func testPinnedMeansEveryFocusGivesTheSameCrop() {
    let source = Size(width: 451, height: 300)
    let guide = Guide.square(300)
    for (fit, zoom, pinned) in [
      (Fit.contain, 1.0, true), (.contain, 0.7, true), (.contain, 1.2, false), (.cover, 1, false),
    ] {
      let base = Placement(fit: fit, zoom: zoom)
      XCTAssertEqual(Geometry.clampPinsCentre(source: source, guide: guide, placement: base), pinned, "\(fit) \(zoom)")
      let a = Geometry.place(source: source, guide: guide, placement: base)
      var moved = base
      moved.focus = Point(x: 0, y: 0)
      moved.offset = Point(x: 40, y: -30)
      let b = Geometry.place(source: source, guide: guide, placement: moved)
      XCTAssertEqual(a.transform == b.transform, pinned, "\(fit) \(zoom)")
    }
  }
}
