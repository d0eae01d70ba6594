import Foundation

/// How a photo sits under the guide: the declarative form of pinch, drag, double-tap,
/// rotate and flip on a crop screen, or an exact `crop` saved from one.
///
/// Every field has a default, so `Placement()` is a centred cover crop. When decoding,
/// missing keys take their defaults.
package struct Placement: Sendable, Hashable, Codable {
  /// Initial sizing before `zoom`.
  package var fit: Fit
  /// Multiplier on the fitted scale (pinch zoom). Must be > 0.
  package var zoom: Double
  /// Drag, in guide pixels: the photo moves by exactly this on the guide (before clamping).
  package var offset: Point
  /// Normalised source point (0…1) that lands on the guide centre, already resolved
  /// (named positions and smart strategies are resolved by the caller).
  package var focus: Point
  /// Rotation of the photo in degrees, clockwise on screen.
  package var rotate: Double
  /// Mirror the result left-right (about the guide's vertical axis).
  package var flipHorizontal: Bool
  /// Mirror the result top-bottom (about the guide's horizontal axis).
  package var flipVertical: Bool
  /// Exact crop; when set it replaces `fit`, `zoom`, `focus`, `offset` and `rotate`.
  package var crop: CropRect?
  /// What happens where the photo does not reach the guide's edge.
  package var overflow: Overflow
  /// When `false`, never produce more than one output pixel per source pixel: the output
  /// shrinks instead (see `PlacementNote.upscaleCapped`).
  package var upscale: Bool

  /// Creates a placement; every argument has the default of a centred cover crop.
  package init(
    fit: Fit = .cover, zoom: Double = 1, offset: Point = .zero,
    focus: Point = Point(x: 0.5, y: 0.5), rotate: Double = 0,
    flipHorizontal: Bool = false, flipVertical: Bool = false,
    crop: CropRect? = nil, overflow: Overflow = .clamp, upscale: Bool = true
  ) {
    self.fit = fit
    self.zoom = zoom
    self.offset = offset
    self.focus = focus
    self.rotate = rotate
    self.flipHorizontal = flipHorizontal
    self.flipVertical = flipVertical
    self.crop = crop
    self.overflow = overflow
    self.upscale = upscale
  }

  private enum CodingKeys: String, CodingKey {
    case fit, zoom, offset, focus, rotate, flipHorizontal, flipVertical, crop, overflow, upscale
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let d = Placement()
    self.init(
      fit: try c.decodeIfPresent(Fit.self, forKey: .fit) ?? d.fit,
      zoom: try c.decodeIfPresent(Double.self, forKey: .zoom) ?? d.zoom,
      offset: try c.decodeIfPresent(Point.self, forKey: .offset) ?? d.offset,
      focus: try c.decodeIfPresent(Point.self, forKey: .focus) ?? d.focus,
      rotate: try c.decodeIfPresent(Double.self, forKey: .rotate) ?? d.rotate,
      flipHorizontal: try c.decodeIfPresent(Bool.self, forKey: .flipHorizontal)
        ?? d.flipHorizontal,
      flipVertical: try c.decodeIfPresent(Bool.self, forKey: .flipVertical) ?? d.flipVertical,
      crop: try c.decodeIfPresent(CropRect.self, forKey: .crop),
      overflow: try c.decodeIfPresent(Overflow.self, forKey: .overflow) ?? d.overflow,
      upscale: try c.decodeIfPresent(Bool.self, forKey: .upscale) ?? d.upscale)
  }
}
