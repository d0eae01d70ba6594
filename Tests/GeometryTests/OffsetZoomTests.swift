import CropGeometry
import TestSupport
import XCTest

final class OffsetZoomTests: XCTestCase {
  let source = Size(width: 4000, height: 3000)

  func testOffsetMovesThePhotoByExactlyThatManyOutputPixels() {
    let base = Geometry.place(source: source, guide: .square(300), placement: Placement(zoom: 2))
    let moved = Geometry.place(
      source: source, guide: .square(300),
      placement: Placement(zoom: 2, offset: Point(x: 30, y: -20)))
    // s = 0.2: region 1500x1500 at (1250, 750); the drag shifts it by (−150, +100).
    XCTAssertEqual(base.sourceRegion, Rect(x: 1250, y: 750, width: 1500, height: 1500))
    XCTAssertEqual(moved.sourceRegion, Rect(x: 1100, y: 850, width: 1500, height: 1500))
    for p in [Point.zero, Point(x: 1234, y: 987), Point(x: 4000, y: 3000)] {
      assertPoint(moved.transform.apply(p), base.transform.apply(p) + Point(x: 30, y: -20))
    }
  }

  /// The drag is in guide pixels and on-screen direction, whatever the rotation and flips.
  func testOffsetIsIndependentOfRotationAndFlip() {
    var rng = SeededRandom(seed: 3)
    var exact = 0
    for _ in 0..<300 {
      var placement = randomPlacement(&rng, overflows: [.fill])
      let offset = placement.offset
      placement.offset = .zero
      let guide = randomGuide(&rng)
      let k = [1.0, 2, 0.5].randomElement(using: &rng)!
      placement.upscale = true
      let base = Geometry.place(source: source, guide: guide, placement: placement, outputScale: k)
      placement.offset = offset
      let moved = Geometry.place(source: source, guide: guide, placement: placement, outputScale: k)
      let p = Point(x: .random(in: 0...4000, using: &rng), y: .random(in: 0...3000, using: &rng))
      let shift = moved.transform.apply(p) - base.transform.apply(p)
      // Output pixels per guide pixel: k where the guide times k is a whole number of pixels
      // (else the rounded size's sub-pixel fit moves it slightly, within 7 %).
      let whole = [guide.size.width, guide.size.height].allSatisfy { (Double($0) * k).rounded() == Double($0) * k }
      if whole {
        assertPoint(shift, offset * k, accuracy: 1e-6)
        exact += 1
      } else {
        XCTAssertEqual(shift.x, offset.x * k, accuracy: abs(offset.x * k) * 0.07 + 1e-6)
        XCTAssertEqual(shift.y, offset.y * k, accuracy: abs(offset.y * k) * 0.07 + 1e-6)
      }
    }
    XCTAssertGreaterThan(exact, 150, "most cases must have the exact expectation")
  }

  func testZoomAboutTheFocusPoint() {
    let focus = Point(x: 0.3, y: 0.4)
    let r = Geometry.place(
      source: source, guide: .rect(width: 400, height: 300),
      placement: Placement(zoom: 2, focus: focus))
    XCTAssertEqual(r.scale, 0.2, accuracy: 1e-15)
    XCTAssertEqual(r.sourceRegion, Rect(x: 200, y: 450, width: 2000, height: 1500))
    assertPoint(r.transform.apply(Point(x: 1200, y: 1200)), Point(x: 200, y: 150))
  }

  /// Double-tap zoom: doubling zoom keeps the focus on the output centre and doubles scale.
  func testZoomKeepsTheFocusFixed() {
    var rng = SeededRandom(seed: 4)
    for _ in 0..<200 {
      let focus = Point(x: .random(in: 0...1, using: &rng), y: .random(in: 0...1, using: &rng))
      let angle = Double.random(in: -180...180, using: &rng)
      let z = Double.random(in: 0.5...3, using: &rng)
      let guide = Guide.rect(width: 500, height: 400)
      let a = Geometry.place(
        source: source, guide: guide,
        placement: Placement(zoom: z, focus: focus, rotate: angle, overflow: .fill))
      let b = Geometry.place(
        source: source, guide: guide,
        placement: Placement(zoom: 2 * z, focus: focus, rotate: angle, overflow: .fill))
      let f = Point(x: focus.x * 4000, y: focus.y * 3000)
      assertPoint(a.transform.apply(f), Point(x: 250, y: 200), accuracy: 1e-7)
      assertPoint(b.transform.apply(f), Point(x: 250, y: 200), accuracy: 1e-7)
      XCTAssertEqual(b.scale / a.scale, 2, accuracy: 1e-12)
    }
  }

  func testFocusOutsideThePhotoIsClampedBack() {
    let r = Geometry.place(
      source: source, guide: .square(300), placement: Placement(zoom: 2, focus: Point(x: 5, y: -3)))
    XCTAssertEqual(r.sourceRegion, Rect(x: 2500, y: 0, width: 1500, height: 1500))
  }
}
