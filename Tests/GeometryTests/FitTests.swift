import CropGeometry
import TestSupport
import XCTest

final class FitTests: XCTestCase {
  let photo = Size(width: 4032, height: 3024)
  let square = Size(width: 256, height: 256)

  func testCoverContainNoneUnrotated() {
    XCTAssertEqual(
      Geometry.baseScale(fit: .cover, source: photo, guide: square, degrees: 0), 256.0 / 3024)
    XCTAssertEqual(
      Geometry.baseScale(fit: .contain, source: photo, guide: square, degrees: 0), 256.0 / 4032)
    XCTAssertEqual(Geometry.baseScale(fit: .none, source: photo, guide: square, degrees: 0), 1)
  }

  func testQuarterTurnSwapsTheAxes() {
    let landscape = Size(width: 4000, height: 3000)
    let portraitGuide = Size(width: 300, height: 400)
    for degrees in [90.0, 270, -90] {
      XCTAssertEqual(
        Geometry.baseScale(fit: .cover, source: landscape, guide: portraitGuide, degrees: degrees),
        0.1)
      XCTAssertEqual(
        Geometry.baseScale(
          fit: .contain, source: landscape, guide: portraitGuide, degrees: degrees), 0.1)
    }
    XCTAssertEqual(
      Geometry.baseScale(fit: .cover, source: landscape, guide: portraitGuide, degrees: 0),
      400.0 / 3000)
  }

  func testFortyFiveDegreesOnASquare() {
    let s = Size(width: 100, height: 100)
    XCTAssertEqual(
      Geometry.baseScale(fit: .cover, source: s, guide: s, degrees: 45), 2.0.squareRoot(),
      accuracy: 1e-12)
    XCTAssertEqual(
      Geometry.baseScale(fit: .contain, source: s, guide: s, degrees: 45), 1 / 2.0.squareRoot(),
      accuracy: 1e-12)
  }

  /// Cover is the smallest covering scale: at zoom 1 the guide is covered and its preimage
  /// touches the photo's edge; at zoom 0.99 it can no longer be covered.
  func testCoverIsTightForAnyAngle() {
    var rng = SeededRandom(seed: 7)
    for _ in 0..<300 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      let angle = Double.random(in: -180...180, using: &rng)
      let tight = Geometry.place(
        source: source, guide: guide, placement: Placement(fit: .cover, rotate: angle))
      XCTAssertTrue(tight.coversOutput, "\(source) \(guide.size) \(angle)")
      let pre = outputPreimage(tight)
      let touches = pre.contains { p in
        [p.x, p.y, source.width - p.x, source.height - p.y].contains {
          abs($0) < 1e-6 * max(source.width, source.height)
        }
      }
      XCTAssertTrue(touches, "cover at zoom 1 should be tight: \(pre)")
      let smaller = Geometry.place(
        source: source, guide: guide, placement: Placement(fit: .cover, zoom: 0.99, rotate: angle))
      XCTAssertFalse(smaller.coversOutput)
    }
  }

  /// Contain is the largest fitting scale: every photo corner is in the output and one
  /// touches its edge.
  func testContainIsTightForAnyAngle() {
    var rng = SeededRandom(seed: 8)
    for _ in 0..<300 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      let angle = Double.random(in: -180...180, using: &rng)
      let r = Geometry.place(
        source: source, guide: guide, placement: Placement(fit: .contain, rotate: angle))
      let corners = Rect(size: source).corners.map(r.transform.apply)
      let out = Size(r.outputSize)
      XCTAssertTrue(corners.allSatisfy { r.outputRect.contains($0, tolerance: 1e-6) })
      let touches = corners.contains { p in
        [p.x, p.y, out.width - p.x, out.height - p.y].contains { abs($0) < 1e-6 }
      }
      XCTAssertTrue(touches, "contain should be tight: \(corners) in \(out)")
    }
  }
}
