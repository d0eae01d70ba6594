import Foundation

/// A continuous size in pixels (source pixels, guide pixels or output pixels, by context).
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Horizontal extent.
  public var width: Double
  /// Vertical extent.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The continuous size of a whole-pixel size.
  public init(_ pixels: PixelSize) {
    self.init(width: Double(pixels.width), height: Double(pixels.height))
  }

  /// `width / height`.
  public var aspect: Double { width / height }

  /// The point half way across and down: `(width / 2, height / 2)`.
  public var centre: Point { Point(x: width / 2, y: height / 2) }

  /// `true` when both sides are finite and strictly positive.
  public var isPositiveFinite: Bool {
    width.isFinite && height.isFinite && width > 0 && height > 0
  }

  public var description: String { "\(width)x\(height)" }

  /// Scales both sides.
  public static func * (lhs: Size, rhs: Double) -> Size {
    Size(width: lhs.width * rhs, height: lhs.height * rhs)
  }
}
