import CropGeometry
import XCTest

final class OrientationTests: XCTestCase {
  let stored = Size(width: 4032, height: 3024)

  func testOrientedSizeSwapsForFiveToEight() {
    for o in [1, 2, 3, 4, 0, 9, -1] {
      XCTAssertEqual(Geometry.orientedSize(stored: stored, orientation: o), stored, "\(o)")
    }
    for o in 5...8 {
      XCTAssertEqual(
        Geometry.orientedSize(stored: stored, orientation: o), Size(width: 3024, height: 4032))
    }
    XCTAssertEqual(
      Geometry.orientedSize(stored: PixelSize(width: 3, height: 2), orientation: 6),
      PixelSize(width: 2, height: 3))
  }

  func testTransformMapsTheStoredRectOntoTheOrientedRect() {
    for o in 1...8 {
      let t = Geometry.orientationTransform(stored: stored, orientation: o)
      let oriented = Geometry.orientedSize(stored: stored, orientation: o)
      XCTAssertEqual(t.boundingBox(of: Rect(size: stored)), Rect(size: oriented), "\(o)")
      XCTAssertEqual(abs(t.determinant), 1)
    }
  }

  /// Where the stored top-left pixel ends up, per the EXIF definitions (0th row / 0th column).
  func testStoredTopLeftPixelGoesWhereExifSays() {
    let small = Size(width: 3, height: 2)
    let expected: [Int: Point] = [
      1: .pixelCentre(0, 0), 2: .pixelCentre(2, 0), 3: .pixelCentre(2, 1), 4: .pixelCentre(0, 1),
      5: .pixelCentre(0, 0), 6: .pixelCentre(1, 0), 7: .pixelCentre(1, 2), 8: .pixelCentre(0, 2),
    ]
    for (o, p) in expected {
      let t = Geometry.orientationTransform(stored: small, orientation: o)
      XCTAssertEqual(t.apply(.pixelCentre(0, 0)), p, "orientation \(o)")
    }
    // Orientation 6: the stored first row becomes the right-hand column, top to bottom.
    let six = Geometry.orientationTransform(stored: small, orientation: 6)
    XCTAssertEqual(six.apply(.pixelCentre(2, 0)), .pixelCentre(1, 2))
    XCTAssertEqual(six.apply(.pixelCentre(0, 1)), .pixelCentre(0, 0))
  }

  func testInverseOrientationsUndoEachOther() {
    // 6 (turn clockwise) and 8 (turn anticlockwise) are inverses once sizes swap.
    let six = Geometry.orientationTransform(stored: stored, orientation: 6)
    let eight = Geometry.orientationTransform(
      stored: Geometry.orientedSize(stored: stored, orientation: 6), orientation: 8)
    XCTAssertEqual(eight * six, .identity)
    for o in [2, 3, 4] {
      let t = Geometry.orientationTransform(stored: stored, orientation: o)
      XCTAssertEqual(t * t, .identity)
    }
  }

  func testUnknownOrientationIsIdentity() {
    XCTAssertEqual(Geometry.orientationTransform(stored: stored, orientation: 0), .identity)
    XCTAssertEqual(Geometry.orientationTransform(stored: stored, orientation: 42), .identity)
  }

  func testComposingOrientationWithPlacement() {
    // A portrait shot stored landscape (orientation 6), centred-cover on a square.
    let oriented = Geometry.orientedSize(stored: stored, orientation: 6)
    let r = Geometry.place(source: oriented, guide: .square(300), placement: Placement())
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 504, width: 3024, height: 3024))
    let full = r.transform * Geometry.orientationTransform(stored: stored, orientation: 6)
    // Stored (504, 3024) is oriented (0, 504): the output's top-left.
    assertPoint(full.apply(Point(x: 504, y: 3024)), .zero, accuracy: 1e-9)
  }
}
