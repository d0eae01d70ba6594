import Foundation

/// An exact crop in source pixels, as interactive croppers save it: the rectangle
/// `{x, y, width, height}` and the rotation `angle` (degrees, clockwise on screen) about its
/// centre.
///
/// `angle` has the same meaning as `Placement.rotate`: it is the rotation applied to the photo
/// so that the crop comes out upright. The source region actually sampled is therefore the
/// rectangle turned by `−angle` about its centre (see `regionCorners`).
package struct CropRect: Sendable, Hashable, Codable {
  package var x: Double
  package var y: Double
  package var width: Double
  package var height: Double
  /// Rotation applied to the photo, degrees clockwise.
  package var angle: Double

  /// Creates a crop.
  package init(x: Double, y: Double, width: Double, height: Double, angle: Double = 0) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.angle = angle
  }

  /// Creates an unrotated crop from a rectangle.
  package init(_ rect: Rect, angle: Double = 0) {
    self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height, angle: angle)
  }

  /// The unrotated rectangle.
  package var rect: Rect { Rect(x: x, y: y, width: width, height: height) }

  /// The centre, which the rotation keeps in place.
  package var centre: Point { Point(x: x + width / 2, y: y + height / 2) }

  /// `width / height`.
  package var aspect: Double { width / height }

  /// Corners of the sampled source region, in the order that lands on the output's
  /// top-left, top-right, bottom-right, bottom-left (before any flip): the rectangle turned
  /// by `−angle` about its centre.
  package var regionCorners: [Point] {
    let back = Affine.rotation(degrees: -angle)
    let c = centre
    return rect.corners.map { c + back.applyLinear($0 - c) }
  }

  /// Whether the sampled region shares some area with the photo `0...width × 0...height`
  /// (separating axes of the two convex rectangles; touching edges share none).
  package func overlaps(photo: Size) -> Bool {
    let corners = regionCorners
    let photoCorners = [
      Point(x: 0, y: 0), Point(x: photo.width, y: 0), Point(x: photo.width, y: photo.height),
      Point(x: 0, y: photo.height),
    ]
    let axes = [Point(x: 1, y: 0), Point(x: 0, y: 1), corners[1] - corners[0], corners[3] - corners[0]]
    for axis in axes {
      let a = corners.map { $0.x * axis.x + $0.y * axis.y }
      let b = photoCorners.map { $0.x * axis.x + $0.y * axis.y }
      let gap = 1e-9 * max(1, abs(axis.x) + abs(axis.y)) * max(photo.width, photo.height, width, height)
      if a.max()! <= b.min()! + gap || b.max()! <= a.min()! + gap { return false }
    }
    return true
  }

  private enum CodingKeys: String, CodingKey { case x, y, width, height, angle }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      x: try c.decode(Double.self, forKey: .x),
      y: try c.decode(Double.self, forKey: .y),
      width: try c.decode(Double.self, forKey: .width),
      height: try c.decode(Double.self, forKey: .height),
      angle: try c.decodeIfPresent(Double.self, forKey: .angle) ?? 0)
  }
}
