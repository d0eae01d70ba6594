import CropGeometry
import Foundation
import TestSupport
import XCTest

/// `Geometry.boxInside` for a circle guide, against numbers worked out by hand: a box counts
/// as inside when the ellipse inscribed in it (a face in its box) is inside the circle. The
/// expected verdict samples that ellipse densely in output pixels through a transform written
/// here from the placement's definition (a cover fit of a square photo, zoom about the focus),
/// not through the code's transform; cases within a pixel of the edge are left out.
final class BoxInsideCircleTests: XCTestCase {
  /// Source 1000 x 1000 under a 200 px circle: cover at zoom 1 shows it all at 0.2; at zoom 2
  /// about the focus (0.3, 0.6) it shows x 50...550, y 350...850 at 0.4.
  func testCircleVerdictIsTheInscribedEllipseInsideTheCircle() {
    let source = Size(width: 1000, height: 1000)
    let guide = Guide(shape: .circle, size: PixelSize(width: 200, height: 200))
    let cases: [(Placement, scale: Double, origin: Point)] = [
      (Placement(), 0.2, Point(x: 0, y: 0)),
      (Placement(zoom: 2, focus: Point(x: 0.3, y: 0.6)), 0.4, Point(x: 50, y: 350)),
    ]
    var random = SeededRandom(seed: 20_261_203)
    var counted = (inside: 0, outside: 0)
    for (placement, scale, origin) in cases {
      let geometry = Geometry.place(source: source, guide: guide, placement: placement)
      for _ in 0..<2_000 {
        let width = Double.random(in: 10...400, using: &random)
        let height = Double.random(in: 10...400, using: &random)
        let box = Rect(
          x: Double.random(in: origin.x - 100...origin.x + 100 / scale * 2, using: &random),
          y: Double.random(in: origin.y - 100...origin.y + 100 / scale * 2, using: &random), width: width,
          height: height)
        // The ellipse in output pixels, sampled every 0.1 degree; the circle: centre (100, 100), r 100.
        var farthest = 0.0
        for step in 0..<3_600 {
          let angle = Double(step) / 3_600 * 2 * Double.pi
          let x = (box.x + width / 2 + width / 2 * cos(angle) - origin.x) * scale
          let y = (box.y + height / 2 + height / 2 * sin(angle) - origin.y) * scale
          farthest = max(farthest, ((x - 100) * (x - 100) + (y - 100) * (y - 100)).squareRoot())
        }
        guard abs(farthest - 100) > 1 else { continue }
        let expected = farthest < 100
        XCTAssertEqual(
          Geometry.boxInside(box, geometry: geometry, shape: .circle), expected,
          "\(box) at zoom \(placement.zoom): farthest point \(farthest) px from the centre")
        if expected { counted.inside += 1 } else { counted.outside += 1 }
      }
    }
    XCTAssertGreaterThan(counted.inside, 100)
    XCTAssertGreaterThan(counted.outside, 100)
  }
}
