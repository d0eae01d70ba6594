import CropGeometry
import XCTest

final class CircleMaskTests: XCTestCase {
  func testCentreIsOpaqueAndCornersAreTransparent() {
    let size = PixelSize(side: 256)
    let mask = Geometry.circleMask(outputSize: size)
    XCTAssertEqual(mask.count, 256 * 256)
    XCTAssertEqual(mask[128 * 256 + 128], 255)
    XCTAssertEqual(mask[127 * 256 + 127], 255)
    for (x, y) in [(0, 0), (255, 0), (0, 255), (255, 255), (20, 20)] {
      XCTAssertEqual(mask[y * 256 + x], 0, "(\(x), \(y))")
    }
  }

  func testMaskIsSymmetric() {
    for side in [255, 256, 31] {
      let mask = Geometry.circleMask(outputSize: PixelSize(side: side))
      for y in 0..<side {
        for x in 0..<side {
          let v = mask[y * side + x]
          XCTAssertEqual(v, mask[y * side + (side - 1 - x)])
          XCTAssertEqual(v, mask[(side - 1 - y) * side + x])
          XCTAssertEqual(v, mask[x * side + y])
        }
      }
    }
  }

  func testEdgeIsAntialiasedAndMonotonic() {
    let side = 256
    let mask = Geometry.circleMask(outputSize: PixelSize(side: side))
    XCTAssertTrue(mask.contains { $0 > 0 && $0 < 255 })
    // Along the diagonal from the centre outwards, alpha never increases.
    var previous: UInt8 = 255
    for i in stride(from: 128, to: 256, by: 1) {
      let v = mask[i * side + i]
      XCTAssertLessThanOrEqual(v, previous)
      previous = v
    }
    // Total coverage is the disc's area.
    let total = mask.reduce(0.0) { $0 + Double($1) / 255 }
    XCTAssertEqual(total, Double.pi * 128 * 128, accuracy: Double.pi * 128 * 128 * 0.002)
  }

  func testCoverageFormula() {
    let size = PixelSize(side: 10)
    // Pixel (9, 4): centre (9.5, 4.5), 4.5 from the centre (5, 5) horizontally, 0.5 vertically.
    let d = (4.5 * 4.5 + 0.5 * 0.5).squareRoot()
    XCTAssertEqual(
      Geometry.circleCoverage(outputSize: size, x: 9, y: 4), 5 - d + 0.5, accuracy: 1e-12)
    XCTAssertEqual(Geometry.circleCoverage(outputSize: size, x: 5, y: 5), 1)
    XCTAssertEqual(Geometry.circleCoverage(outputSize: size, x: 0, y: 0), 0)
  }

  func testNonSquareOutputUsesTheShortSide() {
    let mask = Geometry.circleMask(outputSize: PixelSize(width: 300, height: 200))
    for y in 0..<200 {
      XCTAssertEqual(mask[y * 300 + 0], 0)
      XCTAssertEqual(mask[y * 300 + 299], 0)
      XCTAssertEqual(mask[y * 300 + 49], 0)
    }
    XCTAssertEqual(mask[100 * 300 + 150], 255)
    XCTAssertEqual(mask[100 * 300 + 50], 255)
  }

  func testMaskFollowsTheGuideFrameAfterShrink() {
    // The guide's upper half was trimmed away: the output's top edge is the circle's diameter.
    let frame = Rect(x: 0, y: -50, width: 100, height: 100)
    let mask = Geometry.circleMask(outputSize: PixelSize(width: 100, height: 50), frame: frame)
    XCTAssertEqual(mask[0 * 100 + 50], 255)
    XCTAssertEqual(mask[0 * 100 + 0], 254)  // 50 − 49.5025 + 0.5 = 0.9975
    XCTAssertEqual(mask[49 * 100 + 50], 254)
    XCTAssertEqual(mask[49 * 100 + 0], 0)
  }
}
