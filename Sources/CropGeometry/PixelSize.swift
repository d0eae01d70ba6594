import Foundation

/// A whole-pixel size (an image or output size).
package struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Number of columns.
  package var width: Int
  /// Number of rows.
  package var height: Int

  /// Creates a pixel size.
  package init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// A square pixel size.
  package init(side: Int) {
    self.init(width: side, height: side)
  }

  /// Rounds a continuous size to the nearest whole pixels (halves away from zero), at least 1x1.
  package init(rounding size: Size) {
    self.init(
      width: max(1, Int(size.width.rounded())),
      height: max(1, Int(size.height.rounded())))
  }

  /// `width * height`.
  package var area: Int { width * height }

  package var description: String { "\(width)x\(height)" }
}
