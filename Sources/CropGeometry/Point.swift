import Foundation

/// A point (or a 2-D vector) in continuous pixel coordinates, y down.
///
/// Pixel `(i, j)` covers `[i, i+1) × [j, j+1)`; its centre is `(i + 0.5, j + 0.5)`.
package struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Horizontal coordinate, growing to the right.
  package var x: Double
  /// Vertical coordinate, growing downwards.
  package var y: Double

  /// Creates a point.
  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin `(0, 0)`.
  package static let zero = Point(x: 0, y: 0)

  /// The centre of pixel `(i, j)`: `(i + 0.5, j + 0.5)`.
  package static func pixelCentre(_ i: Int, _ j: Int) -> Point {
    Point(x: Double(i) + 0.5, y: Double(j) + 0.5)
  }

  /// Euclidean length of the point seen as a vector.
  package var length: Double { (x * x + y * y).squareRoot() }

  /// Euclidean distance to `other`.
  package func distance(to other: Point) -> Double { (self - other).length }

  /// `true` when both coordinates are finite.
  package var isFinite: Bool { x.isFinite && y.isFinite }

  package var description: String { "(\(x), \(y))" }

  package static func + (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
  }
  package static func - (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
  }
  package static prefix func - (p: Point) -> Point { Point(x: -p.x, y: -p.y) }
  package static func * (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x * rhs, y: lhs.y * rhs) }
  package static func * (lhs: Double, rhs: Point) -> Point { rhs * lhs }
  package static func / (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x / rhs, y: lhs.y / rhs) }
}
