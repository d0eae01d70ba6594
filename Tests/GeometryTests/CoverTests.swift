import CropGeometry
import XCTest

final class CoverTests: XCTestCase {
  func testCentredCoverCropOfAPhoneLandscapeOnASquare() {
    let r = Geometry.place(
      source: Size(width: 4032, height: 3024), guide: .circle(256), placement: Placement())
    XCTAssertEqual(r.outputSize, PixelSize(side: 256))
    XCTAssertEqual(r.sourceRegion, Rect(x: 504, y: 0, width: 3024, height: 3024))
    XCTAssertEqual(r.scale, 256.0 / 3024, accuracy: 1e-15)
    XCTAssertEqual(r.centre, Point(x: 2016, y: 1512))
    XCTAssertEqual(r.angle, 0)
    XCTAssertTrue(r.coversOutput)
    XCTAssertEqual(r.notes, [])
    assertPoint(r.transform.apply(Point(x: 504, y: 0)), .zero)
    assertPoint(r.transform.apply(Point(x: 3528, y: 3024)), Point(x: 256, y: 256))
    assertRect(r.guideRect, Rect(x: 0, y: 0, width: 256, height: 256))
  }

  func testCentredCoverCropOfAPortraitOnABanner() {
    let r = Geometry.place(
      source: Size(width: 3000, height: 4000), guide: .rect(width: 1600, height: 900),
      placement: Placement())
    // s = max(1600/3000, 900/4000) = 0.5333…; region 3000 x 1687.5 centred vertically.
    XCTAssertEqual(r.outputSize, PixelSize(width: 1600, height: 900))
    assertRect(r.sourceRegion, Rect(x: 0, y: 1156.25, width: 3000, height: 1687.5))
    XCTAssertTrue(r.coversOutput)
  }

  func testCoverOfExactlyMatchingAspectUsesWholePhoto() {
    let r = Geometry.place(
      source: Size(width: 4000, height: 2250), guide: .rect(width: 1600, height: 900),
      placement: Placement())
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 0, width: 4000, height: 2250))
    XCTAssertEqual(r.scale, 0.4, accuracy: 1e-15)
    XCTAssertEqual(r.notes, [])
  }

  func testNamedPositionsPinTheMatchingEdges() {
    // Zoom 2 leaves room on both axes: region 1500x1500 in a 4000x3000 photo.
    let source = Size(width: 4000, height: 3000)
    for position in NamedPosition.allCases {
      let r = Geometry.place(
        source: source, guide: .square(100),
        placement: Placement(zoom: 2, focus: position.point))
      let p = position.point
      let expected = Rect(x: p.x * 2500, y: p.y * 1500, width: 1500, height: 1500)
      assertRect(r.sourceRegion, expected, accuracy: 1e-9, position.rawValue)
      XCTAssertTrue(r.coversOutput)
    }
  }

  func testTopAndBottomOnAPortrait() {
    let source = Size(width: 3000, height: 4000)
    let top = Geometry.place(
      source: source, guide: .square(300), placement: Placement(focus: NamedPosition.top.point))
    XCTAssertEqual(top.sourceRegion, Rect(x: 0, y: 0, width: 3000, height: 3000))
    let bottom = Geometry.place(
      source: source, guide: .square(300), placement: Placement(focus: NamedPosition.bottom.point))
    XCTAssertEqual(bottom.sourceRegion, Rect(x: 0, y: 1000, width: 3000, height: 3000))
    let left = Geometry.place(
      source: source, guide: .square(300), placement: Placement(focus: NamedPosition.left.point))
    XCTAssertEqual(left.sourceRegion.x, 0)
    XCTAssertEqual(left.sourceRegion.y, 500)
  }

  func testFitNoneIsOneGuidePixelPerSourcePixel() {
    let r = Geometry.place(
      source: Size(width: 4000, height: 3000), guide: .rect(width: 640, height: 480),
      placement: Placement(fit: .none))
    XCTAssertEqual(r.scale, 1)
    XCTAssertEqual(r.sourceRegion, Rect(x: 1680, y: 1260, width: 640, height: 480))
    assertAffine(r.transform, .translation(x: -1680, y: -1260))
  }
}
