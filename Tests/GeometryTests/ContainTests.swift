import CropGeometry
import TestSupport
import XCTest

final class ContainTests: XCTestCase {
  func testContainLetterboxes() {
    let r = Geometry.place(
      source: Size(width: 4000, height: 3000), guide: .square(300),
      placement: Placement(fit: .contain))
    XCTAssertEqual(r.scale, 0.075, accuracy: 1e-15)
    XCTAssertEqual(r.outputSize, PixelSize(side: 300))
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 0, width: 4000, height: 3000))
    assertPoint(r.transform.apply(.zero), Point(x: 0, y: 37.5))
    assertPoint(r.transform.apply(Point(x: 4000, y: 3000)), Point(x: 300, y: 262.5))
    XCTAssertFalse(r.coversOutput)
    XCTAssertEqual(r.notes, [.guideNotCovered])
  }

  /// With an output scale that rounds the two sides differently (a 301 x 100 guide at 0.5:
  /// 151 x 50 pixels, 151 / 301 across, 0.5 down), contain fits by the smaller factor, so the
  /// whole photo stays inside the output.
  func testContainFitsByTheSmallerRoundedFactor() {
    let source = Size(width: 3010, height: 1000)
    let r = Geometry.place(
      source: source, guide: .rect(width: 301, height: 100), placement: Placement(fit: .contain), outputScale: 0.5)
    XCTAssertEqual(r.outputSize, PixelSize(width: 151, height: 50))
    XCTAssertEqual(r.scale, 0.1 * 0.5, accuracy: 1e-15)
    for corner in Rect(size: source).corners {
      let p = r.transform.apply(corner)
      XCTAssertTrue(p.x >= -1e-9 && p.x <= 151 + 1e-9 && p.y >= -1e-9 && p.y <= 50 + 1e-9, "\(corner) → \(p)")
    }
  }

  func testContainIgnoresFocusBecauseThePhotoIsCentred() {
    let source = Size(width: 4000, height: 3000)
    let a = Geometry.place(source: source, guide: .square(300), placement: Placement(fit: .contain))
    let b = Geometry.place(
      source: source, guide: .square(300),
      placement: Placement(fit: .contain, focus: NamedPosition.topLeft.point))
    assertAffine(a.transform, b.transform)
  }

  func testContainWithFillKeepsTheFocusOnTheGuideCentre() {
    let r = Geometry.place(
      source: Size(width: 4000, height: 3000), guide: .square(300),
      placement: Placement(fit: .contain, focus: NamedPosition.topLeft.point, overflow: .fill))
    assertPoint(r.transform.apply(.zero), Point(x: 150, y: 150))
  }

  /// Contain never cuts the photo: all four corners land inside the output, for any angle,
  /// zoom ≤ 1, flip, focus, overflow and output scale.
  func testContainNeverCutsThePhoto() {
    var rng = SeededRandom(seed: 11)
    for _ in 0..<500 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      var placement = randomPlacement(&rng, fits: [.contain], overflows: [.clamp])
      placement.zoom = Double.random(in: 0.2...1, using: &rng)
      let k = randomOutputScale(&rng)
      let r = Geometry.place(source: source, guide: guide, placement: placement, outputScale: k)
      for corner in Rect(size: source).corners {
        XCTAssertTrue(
          r.outputRect.contains(r.transform.apply(corner), tolerance: 1e-6),
          "\(source) \(guide.size) \(placement) k=\(k)")
      }
      XCTAssertTrue(r.sourceRegion.isApproximatelyEqual(to: Rect(size: source), tolerance: 1e-6))
    }
  }
}
