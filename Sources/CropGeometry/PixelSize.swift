import Foundation

/// A whole-pixel size (an image or output size).
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Number of columns.
  public var width: Int
  /// Number of rows.
  public var height: Int

  /// Creates a pixel size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// A square pixel size.
  public init(side: Int) {
    self.init(width: side, height: side)
  }

  /// Rounds a continuous size to the nearest whole pixels (halves away from zero), at least 1x1.
  public init(rounding size: Size) {
    self.init(
      width: max(1, Int(size.width.rounded())),
      height: max(1, Int(size.height.rounded())))
  }

  /// `width * height`.
  public var area: Int { width * height }

  public var description: String { "\(width)x\(height)" }
}
