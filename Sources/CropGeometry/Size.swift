import Foundation

/// A continuous size in pixels (source pixels, guide pixels or output pixels, by context).
package struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Horizontal extent.
  package var width: Double
  /// Vertical extent.
  package var height: Double

  /// Creates a size.
  package init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The continuous size of a whole-pixel size.
  package init(_ pixels: PixelSize) {
    self.init(width: Double(pixels.width), height: Double(pixels.height))
  }

  /// `width / height`.
  package var aspect: Double { width / height }

  /// The point half way across and down: `(width / 2, height / 2)`.
  package var centre: Point { Point(x: width / 2, y: height / 2) }

  /// `true` when both sides are finite and strictly positive.
  package var isPositiveFinite: Bool {
    width.isFinite && height.isFinite && width > 0 && height > 0
  }

  package var description: String { "\(width)x\(height)" }

  /// Scales both sides.
  package static func * (lhs: Size, rhs: Double) -> Size {
    Size(width: lhs.width * rhs, height: lhs.height * rhs)
  }
}
