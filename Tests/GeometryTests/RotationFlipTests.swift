import CropGeometry
import TestSupport
import XCTest

final class RotationFlipTests: XCTestCase {
  let source = Size(width: 4000, height: 3000)

  func testRotate90MapsSourceCornersClockwise() {
    let r = Geometry.place(
      source: source, guide: .rect(width: 300, height: 400), placement: Placement(rotate: 90))
    XCTAssertEqual(r.outputSize, PixelSize(width: 300, height: 400))
    XCTAssertEqual(r.scale, 0.1, accuracy: 1e-15)
    XCTAssertEqual(r.angle, 90)
    // Clockwise quarter turn: top-left → top-right, top-right → bottom-right, …
    assertPoint(r.transform.apply(Point(x: 0, y: 0)), Point(x: 300, y: 0))
    assertPoint(r.transform.apply(Point(x: 4000, y: 0)), Point(x: 300, y: 400))
    assertPoint(r.transform.apply(Point(x: 4000, y: 3000)), Point(x: 0, y: 400))
    assertPoint(r.transform.apply(Point(x: 0, y: 3000)), Point(x: 0, y: 0))
    XCTAssertEqual(r.sourceRegion, Rect(size: source))
    XCTAssertTrue(r.coversOutput)
  }

  func testRotate90AtFitNoneIsExactlyExifOrientation6() {
    let r = Geometry.place(
      source: source, guide: .rect(width: 3000, height: 4000),
      placement: Placement(fit: .none, rotate: 90))
    XCTAssertEqual(r.transform, Geometry.orientationTransform(stored: source, orientation: 6))
  }

  func testRotateMinus90IsExifOrientation8() {
    let r = Geometry.place(
      source: source, guide: .rect(width: 3000, height: 4000),
      placement: Placement(fit: .none, rotate: -90))
    XCTAssertEqual(r.transform, Geometry.orientationTransform(stored: source, orientation: 8))
  }

  func testRotate180EqualsFlippingBothWays() {
    let a = Geometry.place(source: source, guide: .square(256), placement: Placement(rotate: 180))
    let b = Geometry.place(
      source: source, guide: .square(256),
      placement: Placement(flipHorizontal: true, flipVertical: true))
    assertAffine(a.transform, b.transform)
  }

  func testFlipHorizontalMirrorsTheOutput() {
    let r = Geometry.place(
      source: source, guide: .square(300), placement: Placement(flipHorizontal: true))
    // Region 3000x3000 at x = 500; its top-left lands on the output's top-right.
    assertPoint(r.transform.apply(Point(x: 500, y: 0)), Point(x: 300, y: 0))
    assertPoint(r.transform.apply(Point(x: 3500, y: 3000)), Point(x: 0, y: 300))
    XCTAssertEqual(r.sourceRegion, Rect(x: 500, y: 0, width: 3000, height: 3000))
  }

  /// Flip mirrors the finished output about the guide's axes: mirroring a flipped result
  /// again gives the unflipped one (flip twice is identity), with the same sampled region,
  /// for any rotation, zoom, focus, overflow and scale. The drag is on-screen, so it is
  /// mirrored too.
  func testFlipTwiceIsIdentity() {
    var rng = SeededRandom(seed: 12)
    for _ in 0..<500 {
      let guide = randomGuide(&rng)
      let src = randomSource(&rng)
      var placement = randomPlacement(&rng, overflows: [.clamp, .fill])
      placement.flipHorizontal = false
      placement.flipVertical = false
      let k = randomOutputScale(&rng)
      let offset = placement.offset
      let plain = Geometry.place(source: src, guide: guide, placement: placement, outputScale: k)
      let w = Double(plain.outputSize.width)
      let h = Double(plain.outputSize.height)
      for (fh, fv) in [(true, false), (false, true), (true, true)] {
        placement.flipHorizontal = fh
        placement.flipVertical = fv
        placement.offset = Point(x: fh ? -offset.x : offset.x, y: fv ? -offset.y : offset.y)
        let flipped = Geometry.place(
          source: src, guide: guide, placement: placement, outputScale: k)
        let mirror = Affine(
          a: fh ? -1 : 1, b: 0, c: 0, d: fv ? -1 : 1, tx: fh ? w : 0, ty: fv ? h : 0)
        assertAffine(mirror * flipped.transform, plain.transform, accuracy: 1e-9)
        XCTAssertEqual(flipped.outputSize, plain.outputSize)
        assertRect(flipped.sourceRegion, plain.sourceRegion, accuracy: 1e-6)
        XCTAssertEqual(flipped.coversOutput, plain.coversOutput)
        assertPoint(flipped.centre, plain.centre, accuracy: 1e-7)
      }
    }
  }

  func testFlipKeepsTheDragOnScreen() {
    let base = Geometry.place(
      source: source, guide: .square(300), placement: Placement(zoom: 2, flipHorizontal: true))
    let dragged = Geometry.place(
      source: source, guide: .square(300),
      placement: Placement(zoom: 2, offset: Point(x: 30, y: 10), flipHorizontal: true))
    let p = Point(x: 2100, y: 1600)
    assertPoint(dragged.transform.apply(p), base.transform.apply(p) + Point(x: 30, y: 10))
  }

  func testRotationIsAboutTheFocusAndRotatedCoverStillCovers() {
    let r = Geometry.place(
      source: source, guide: .rect(width: 1600, height: 900), placement: Placement(rotate: -2))
    XCTAssertTrue(r.coversOutput)
    XCTAssertEqual(r.angle, -2)
    assertPoint(r.transform.apply(Point(x: 2000, y: 1500)), Point(x: 800, y: 450), accuracy: 1e-9)
    // Cover at −2° needs more than the unrotated 0.4.
    let expected = max(
      (1600 * cos(2 * Double.pi / 180) + 900 * sin(2 * Double.pi / 180)) / 4000,
      (1600 * sin(2 * Double.pi / 180) + 900 * cos(2 * Double.pi / 180)) / 3000)
    XCTAssertEqual(r.scale, expected, accuracy: 1e-12)
  }

  func testRotated45FillLeavesCornersUncovered() {
    let r = Geometry.place(
      source: Size(width: 100, height: 100), guide: .square(100),
      placement: Placement(fit: .contain, rotate: 45, overflow: .fill))
    XCTAssertFalse(r.coversOutput)
    // The photo's corners touch the middle of each guide edge.
    assertPoint(r.transform.apply(.zero), Point(x: 50, y: 0), accuracy: 1e-9)
    assertPoint(r.transform.apply(Point(x: 100, y: 0)), Point(x: 100, y: 50), accuracy: 1e-9)
  }
}
