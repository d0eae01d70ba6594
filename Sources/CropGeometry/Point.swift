import Foundation

/// A point (or a 2-D vector) in continuous pixel coordinates, y down.
///
/// Pixel `(i, j)` covers `[i, i+1) × [j, j+1)`; its centre is `(i + 0.5, j + 0.5)`.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Horizontal coordinate, growing to the right.
  public var x: Double
  /// Vertical coordinate, growing downwards.
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin `(0, 0)`.
  public static let zero = Point(x: 0, y: 0)

  /// The centre of pixel `(i, j)`: `(i + 0.5, j + 0.5)`.
  public static func pixelCentre(_ i: Int, _ j: Int) -> Point {
    Point(x: Double(i) + 0.5, y: Double(j) + 0.5)
  }

  /// Euclidean length of the point seen as a vector.
  public var length: Double { (x * x + y * y).squareRoot() }

  /// Euclidean distance to `other`.
  public func distance(to other: Point) -> Double { (self - other).length }

  /// `true` when both coordinates are finite.
  public var isFinite: Bool { x.isFinite && y.isFinite }

  public var description: String { "(\(x), \(y))" }

  public static func + (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
  }
  public static func - (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
  }
  public static prefix func - (p: Point) -> Point { Point(x: -p.x, y: -p.y) }
  public static func * (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x * rhs, y: lhs.y * rhs) }
  public static func * (lhs: Double, rhs: Point) -> Point { rhs * lhs }
  public static func / (lhs: Point, rhs: Double) -> Point { Point(x: lhs.x / rhs, y: lhs.y / rhs) }
}
