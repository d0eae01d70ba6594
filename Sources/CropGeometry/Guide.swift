import Foundation

/// The shape of the guide frame drawn over the photo.
package enum GuideShape: String, Sendable, Hashable, Codable, CaseIterable {
  /// A rectangle of any aspect.
  case rect
  /// A square (width == height).
  case square
  /// A circle inscribed in the frame; pixels outside it are masked (see `Geometry.circleMask`).
  case circle
}

/// The guide frame: its shape and its size in guide pixels (the output size at scale 1).
package struct Guide: Sendable, Hashable, Codable {
  /// Frame shape; geometry only cares about it through the mask.
  package var shape: GuideShape
  /// Frame size in guide pixels.
  package var size: PixelSize

  /// Creates a guide.
  package init(shape: GuideShape, size: PixelSize) {
    self.shape = shape
    self.size = size
  }

  /// A rectangular guide.
  package static func rect(width: Int, height: Int) -> Guide {
    Guide(shape: .rect, size: PixelSize(width: width, height: height))
  }

  /// A square guide.
  package static func square(_ side: Int) -> Guide {
    Guide(shape: .square, size: PixelSize(side: side))
  }

  /// A circular guide of the given diameter.
  package static func circle(_ diameter: Int) -> Guide {
    Guide(shape: .circle, size: PixelSize(side: diameter))
  }
}
