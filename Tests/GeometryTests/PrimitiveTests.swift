import CropGeometry
import XCTest

final class PrimitiveTests: XCTestCase {
  func testPixelSizeRoundingIsNearestWithMinimumOne() {
    XCTAssertEqual(
      PixelSize(rounding: Size(width: 640.4, height: 360.5)), PixelSize(width: 640, height: 361))
    XCTAssertEqual(PixelSize(rounding: Size(width: 0.2, height: 0)), PixelSize(width: 1, height: 1))
    XCTAssertEqual(PixelSize(side: 7).area, 49)
  }

  func testRectBasics() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    XCTAssertEqual(r.maxX, 40)
    XCTAssertEqual(r.maxY, 60)
    XCTAssertEqual(r.centre, Point(x: 25, y: 40))
    XCTAssertEqual(r.corners.count, 4)
    XCTAssertEqual(r.corners[2], Point(x: 40, y: 60))
    XCTAssertTrue(r.contains(Point(x: 10, y: 60)))
    XCTAssertFalse(r.contains(Point(x: 9.99, y: 30)))
    XCTAssertTrue(r.contains(Point(x: 9.99, y: 30), tolerance: 0.02))
    XCTAssertFalse(r.isEmpty)
    XCTAssertTrue(Rect.zero.isEmpty)
  }

  func testRectIntersection() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    XCTAssertEqual(
      a.intersection(Rect(x: 5, y: -5, width: 10, height: 10)),
      Rect(x: 5, y: 0, width: 5, height: 5))
    XCTAssertNil(a.intersection(Rect(x: 10, y: 0, width: 5, height: 5)))
  }

  func testBoundingBox() {
    let box = Rect.boundingBox(of: [Point(x: 3, y: -1), Point(x: -2, y: 4), Point(x: 0, y: 0)])
    XCTAssertEqual(box, Rect(x: -2, y: -1, width: 5, height: 5))
    XCTAssertNil(Rect.boundingBox(of: []))
  }

  func testPolygonClipAndArea() {
    let square = Rect(x: 0, y: 0, width: 10, height: 10)
    // A diamond centred on the square's corner keeps one quarter.
    let diamond = [Point(x: 0, y: -5), Point(x: 5, y: 0), Point(x: 0, y: 5), Point(x: -5, y: 0)]
    let clipped = Polygon.clip(diamond, to: square)
    XCTAssertEqual(Polygon.area(diamond), 50, accuracy: 1e-12)
    XCTAssertEqual(Polygon.area(clipped), 12.5, accuracy: 1e-12)
    XCTAssertTrue(
      Polygon.clip([Point(x: 20, y: 20), Point(x: 30, y: 20), Point(x: 30, y: 30)], to: square)
        .isEmpty)
    XCTAssertEqual(Polygon.area(Polygon.clip(square.corners, to: square)), 100, accuracy: 1e-12)
  }

  func testNamedPositionPoints() {
    XCTAssertEqual(NamedPosition.centre.point, Point(x: 0.5, y: 0.5))
    XCTAssertEqual(NamedPosition.topRight.point, Point(x: 1, y: 0))
    XCTAssertEqual(NamedPosition.bottomLeft.point, Point(x: 0, y: 1))
    XCTAssertEqual(NamedPosition(rawValue: "bottom-right"), .bottomRight)
    XCTAssertEqual(NamedPosition.allCases.count, 9)
    XCTAssertEqual(Set(NamedPosition.allCases.map(\.point)).count, 9)
  }

  func testCropRectHelpers() {
    let crop = CropRect(x: 10, y: 20, width: 100, height: 50)
    XCTAssertEqual(crop.centre, Point(x: 60, y: 45))
    XCTAssertEqual(crop.rect, Rect(x: 10, y: 20, width: 100, height: 50))
    XCTAssertEqual(crop.regionCorners, crop.rect.corners)
    let turned = CropRect(x: 0, y: 0, width: 4, height: 2, angle: 90)
    // Photo turned 90° clockwise ⇒ the sampled region is the rect turned 90° anticlockwise.
    assertPoint(turned.regionCorners[0], Point(x: 1, y: 3))
    assertPoint(turned.regionCorners[1], Point(x: 1, y: -1))
  }
}
