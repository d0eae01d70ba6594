import CropGeometry
import TestSupport
import XCTest

final class AffineTests: XCTestCase {
  func testApplyUsesDocumentedCoefficients() {
    let m = Affine(a: 2, b: 3, c: 5, d: 7, tx: 11, ty: 13)
    assertPoint(m.apply(Point(x: 1, y: 10)), Point(x: 2 + 30 + 11, y: 5 + 70 + 13))
    assertPoint(m.applyLinear(Point(x: 1, y: 10)), Point(x: 32, y: 75))
  }

  func testIdentity() {
    let p = Point(x: 3.25, y: -8)
    XCTAssertEqual(Affine.identity.apply(p), p)
    XCTAssertEqual(Affine.identity.determinant, 1)
  }

  func testCompositionOrder() {
    let t = Affine.translation(x: 10, y: 0)
    let s = Affine.scale(2)
    let p = Point(x: 1, y: 1)
    // (t * s): scale first, then translate.
    assertPoint((t * s).apply(p), Point(x: 12, y: 2))
    assertPoint(s.then(t).apply(p), Point(x: 12, y: 2))
    // (s * t): translate first, then scale.
    assertPoint((s * t).apply(p), Point(x: 22, y: 2))
    assertPoint(t.then(s).apply(p), Point(x: 22, y: 2))
  }

  func testRotationIsClockwiseOnScreenAndExactForQuarterTurns() {
    // x axis turns towards +y (down): clockwise on a y-down screen.
    XCTAssertEqual(Affine.rotation(degrees: 90).apply(Point(x: 1, y: 0)), Point(x: 0, y: 1))
    XCTAssertEqual(Affine.rotation(degrees: 180).apply(Point(x: 1, y: 2)), Point(x: -1, y: -2))
    XCTAssertEqual(Affine.rotation(degrees: 270).apply(Point(x: 1, y: 0)), Point(x: 0, y: -1))
    XCTAssertEqual(Affine.rotation(degrees: -90), Affine.rotation(degrees: 270))
    XCTAssertEqual(Affine.rotation(degrees: 450), Affine.rotation(degrees: 90))
    XCTAssertEqual(Affine.rotation(degrees: 360), Affine.identity)
    let r30 = Affine.rotation(degrees: 30).apply(Point(x: 1, y: 0))
    assertPoint(r30, Point(x: 3.0.squareRoot() / 2, y: 0.5))
  }

  func testInverseRoundTrips() {
    var rng = SeededRandom(seed: 1)
    for _ in 0..<200 {
      let m = Affine(
        a: .random(in: -3...3, using: &rng), b: .random(in: -3...3, using: &rng),
        c: .random(in: -3...3, using: &rng), d: .random(in: -3...3, using: &rng),
        tx: .random(in: -100...100, using: &rng), ty: .random(in: -100...100, using: &rng))
      guard abs(m.determinant) > 0.01, let inv = m.inverted() else { continue }
      let p = Point(x: .random(in: -50...50, using: &rng), y: .random(in: -50...50, using: &rng))
      assertPoint(inv.apply(m.apply(p)), p, accuracy: 1e-6)
      assertAffine(m * inv, .identity, accuracy: 1e-9)
    }
  }

  func testSingularHasNoInverse() {
    XCTAssertNil(Affine(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted())
    XCTAssertNil(Affine.scale(0).inverted())
  }

  func testBoundingBoxOfRotatedRect() {
    let box = Affine.rotation(degrees: 90).boundingBox(of: Rect(x: 0, y: 0, width: 4, height: 2))
    assertRect(box, Rect(x: -2, y: 0, width: 2, height: 4))
  }

  func testPixelIndexCoordinates() {
    // Mirror of a 10-pixel row: pixel i ↦ pixel 9 − i in index space.
    let mirror = Affine(a: -1, b: 0, c: 0, d: 1, tx: 10, ty: 0)
    let idx = mirror.inPixelIndexCoordinates
    assertPoint(idx.apply(Point(x: 0, y: 0)), Point(x: 9, y: 0))
    assertPoint(idx.apply(Point(x: 9, y: 3)), Point(x: 0, y: 3))
    // A pure scale by 2 in index space: centre of pixel 0 (0.5) goes to 1.0 = index 0.5.
    assertPoint(Affine.scale(2).inPixelIndexCoordinates.apply(.zero), Point(x: 0.5, y: 0.5))
  }
}
