import Foundation

/// An axis-aligned rectangle `[x, x + width] × [y, y + height]` in continuous coordinates.
package struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Left edge.
  package var x: Double
  /// Top edge.
  package var y: Double
  /// Horizontal extent.
  package var width: Double
  /// Vertical extent.
  package var height: Double

  /// Creates a rectangle from its top-left corner and size.
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Creates a rectangle from its top-left corner and size.
  package init(origin: Point, size: Size) {
    self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
  }

  /// The rectangle `[0, size.width] × [0, size.height]`.
  package init(size: Size) {
    self.init(x: 0, y: 0, width: size.width, height: size.height)
  }

  /// The empty rectangle at the origin.
  package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  package var minX: Double { x }
  package var minY: Double { y }
  package var maxX: Double { x + width }
  package var maxY: Double { y + height }
  /// Top-left corner.
  package var origin: Point { Point(x: x, y: y) }
  /// Width and height.
  package var size: Size { Size(width: width, height: height) }
  /// The centre point.
  package var centre: Point { Point(x: x + width / 2, y: y + height / 2) }

  /// Corners in the order top-left, top-right, bottom-right, bottom-left.
  package var corners: [Point] {
    [
      Point(x: minX, y: minY), Point(x: maxX, y: minY),
      Point(x: maxX, y: maxY), Point(x: minX, y: maxY),
    ]
  }

  /// `true` when the rectangle has no area.
  package var isEmpty: Bool { !(width > 0 && height > 0) }

  /// `true` when `p` lies in the closed rectangle grown by `tolerance` on every side.
  package func contains(_ p: Point, tolerance: Double = 0) -> Bool {
    p.x >= minX - tolerance && p.x <= maxX + tolerance && p.y >= minY - tolerance
      && p.y <= maxY + tolerance
  }

  /// `true` when `other` lies in this rectangle grown by `tolerance` on every side.
  package func contains(_ other: Rect, tolerance: Double = 0) -> Bool {
    other.corners.allSatisfy { contains($0, tolerance: tolerance) }
  }

  /// The common part of two rectangles, or `nil` when they do not overlap with positive area.
  package func intersection(_ other: Rect) -> Rect? {
    let x0 = max(minX, other.minX)
    let y0 = max(minY, other.minY)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    guard x1 > x0, y1 > y0 else { return nil }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The rectangle moved by `delta`.
  package func offsetBy(_ delta: Point) -> Rect {
    Rect(x: x + delta.x, y: y + delta.y, width: width, height: height)
  }

  /// The smallest rectangle holding every point, or `nil` for no points.
  package static func boundingBox(of points: [Point]) -> Rect? {
    guard let first = points.first else { return nil }
    var x0 = first.x
    var y0 = first.y
    var x1 = first.x
    var y1 = first.y
    for p in points.dropFirst() {
      x0 = min(x0, p.x)
      y0 = min(y0, p.y)
      x1 = max(x1, p.x)
      y1 = max(y1, p.y)
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// `true` when every edge is within `tolerance` of `other`'s.
  package func isApproximatelyEqual(to other: Rect, tolerance: Double = 1e-9) -> Bool {
    abs(minX - other.minX) <= tolerance && abs(minY - other.minY) <= tolerance
      && abs(maxX - other.maxX) <= tolerance && abs(maxY - other.maxY) <= tolerance
  }

  package var description: String { "{x: \(x), y: \(y), width: \(width), height: \(height)}" }
}

extension Double {
  /// The decimal of at most `places` places nearest to this value (reports: plan JSON and the
  /// manifest give coordinates to 1e-6 px, without binary noise such as 0.5000000000000425).
  package func roundedForReport(places: Int = 6) -> Double {
    guard isFinite else { return self }
    let factor = [1.0, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][min(max(places, 0), 9)]
    let rounded = (self * factor).rounded() / factor
    return rounded == 0 ? 0 : rounded
  }
}

extension Rect {
  /// Each coordinate `roundedForReport`.
  package func roundedForReport(places: Int = 6) -> Rect {
    Rect(
      x: x.roundedForReport(places: places), y: y.roundedForReport(places: places),
      width: width.roundedForReport(places: places), height: height.roundedForReport(places: places))
  }
}

extension Point {
  /// Each coordinate `roundedForReport`.
  package func roundedForReport(places: Int = 6) -> Point {
    Point(x: x.roundedForReport(places: places), y: y.roundedForReport(places: places))
  }
}
