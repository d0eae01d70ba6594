import CropGeometry
import CropSupport

/// The circle's coverage masks (`Geometry.circleMask`), computed once per output size and
/// circle frame and shared by every output of that size (CONVENTIONS.md, "Small outputs on a
/// raster"): a batch of 96 px avatars computes one.
enum CircleMasks {
  private struct Key: Hashable {
    var size: PixelSize
    var frame: Rect
  }

  /// At most this many masks are kept (a job has a few output sizes; `over_budget: shrink`
  /// tries others): past it the table starts again.
  static let limit = 64

  private static let masks = LockedBox([Key: [UInt8]]())

  /// The mask of the circle inscribed in `frame` on an output of `size`.
  static func mask(size: PixelSize, frame: Rect) -> [UInt8] {
    let key = Key(size: size, frame: frame)
    if let known = masks.withLock({ $0[key] }) { return known }
    let mask = Geometry.circleMask(outputSize: size, frame: frame)
    masks.withLock {
      if $0.count >= limit { $0.removeAll() }
      $0[key] = mask
    }
    return mask
  }
}
