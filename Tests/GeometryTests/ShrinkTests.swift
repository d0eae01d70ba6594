import CropGeometry
import TestSupport
import XCTest

final class ShrinkTests: XCTestCase {
  func testShrinkTrimsContainToThePhoto() {
    let r = Geometry.place(
      source: Size(width: 4000, height: 3000), guide: .square(400),
      placement: Placement(fit: .contain, overflow: .shrink))
    XCTAssertEqual(r.outputSize, PixelSize(width: 400, height: 300))
    assertPoint(r.transform.apply(.zero), .zero)
    assertPoint(r.transform.apply(Point(x: 4000, y: 3000)), Point(x: 400, y: 300))
    XCTAssertTrue(r.coversOutput)
    XCTAssertEqual(
      r.notes,
      [.shrunkToFootprint(from: PixelSize(side: 400), to: PixelSize(width: 400, height: 300))])
    assertRect(r.guideRect, Rect(x: 0, y: -50, width: 400, height: 400))
  }

  func testShrinkRoundsHalfPixelsInwards() {
    // Footprint rows 37.5…262.5: ties go inwards, so 38…262 (224 rows), fully covered.
    let r = Geometry.place(
      source: Size(width: 4000, height: 3000), guide: .square(300),
      placement: Placement(fit: .contain, overflow: .shrink))
    XCTAssertEqual(r.outputSize, PixelSize(width: 300, height: 224))
    XCTAssertTrue(r.coversOutput)
  }

  func testShrinkAfterADragOffTheEdge() {
    let r = Geometry.place(
      source: Size(width: 1000, height: 1000), guide: .square(100),
      placement: Placement(offset: Point(x: 30, y: 0), overflow: .shrink))
    XCTAssertEqual(r.outputSize, PixelSize(width: 70, height: 100))
    assertPoint(r.transform.apply(.zero), .zero)
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 0, width: 700, height: 1000))
    XCTAssertTrue(r.coversOutput)
  }

  func testShrinkDoesNothingWhenThePhotoCovers() {
    let r = Geometry.place(
      source: Size(width: 4032, height: 3024), guide: .circle(256),
      placement: Placement(overflow: .shrink))
    XCTAssertEqual(r.outputSize, PixelSize(side: 256))
    XCTAssertEqual(r.notes, [])
  }

  func testShrinkOfARotatedPhotoKeepsTheBoundingBox() {
    // 100x100 at 1:1 turned 45°: a diamond of half-diagonal 70.71 around (100, 100).
    let r = Geometry.place(
      source: Size(width: 100, height: 100), guide: .square(200),
      placement: Placement(fit: .none, rotate: 45, overflow: .shrink))
    XCTAssertEqual(r.outputSize, PixelSize(side: 142))
    XCTAssertFalse(r.coversOutput)
    assertPoint(r.transform.apply(Point(x: 50, y: 50)), Point(x: 71, y: 71), accuracy: 1e-9)
  }

  /// A shrunk output is a whole-pixel window of the fill output: same pixels, fewer of them.
  func testShrinkIsAWholePixelWindowOfFill() {
    var rng = SeededRandom(seed: 51)
    for _ in 0..<300 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      var placement = randomPlacement(&rng, overflows: [.fill])
      let k = randomOutputScale(&rng)
      let fill = Geometry.place(source: source, guide: guide, placement: placement, outputScale: k)
      placement.overflow = .shrink
      let shrink = Geometry.place(
        source: source, guide: guide, placement: placement, outputScale: k)
      let dx = fill.transform.tx - shrink.transform.tx
      let dy = fill.transform.ty - shrink.transform.ty
      XCTAssertEqual(dx, dx.rounded(), accuracy: 1e-6)
      XCTAssertEqual(dy, dy.rounded(), accuracy: 1e-6)
      XCTAssertGreaterThanOrEqual(dx.rounded(), 0)
      XCTAssertGreaterThanOrEqual(dy.rounded(), 0)
      XCTAssertEqual(shrink.transform.a, fill.transform.a)
      XCTAssertEqual(shrink.transform.d, fill.transform.d)
      XCTAssertLessThanOrEqual(Int(dx.rounded()) + shrink.outputSize.width, fill.outputSize.width)
      XCTAssertLessThanOrEqual(Int(dy.rounded()) + shrink.outputSize.height, fill.outputSize.height)
    }
  }
}
