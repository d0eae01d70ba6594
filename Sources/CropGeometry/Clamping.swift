import Foundation

extension Geometry {
  /// Moves `centre` (the source point at the guide centre) the least so that the guide's
  /// preimage lies inside the photo `[0, W] × [0, H]`.
  ///
  /// `linear` is the linear part source → guide (scale, rotation, flip). The preimage of the
  /// guide is the rotated rectangle `centre + c_i` with `c_i = linear⁻¹(guide corner − g/2)`;
  /// the valid centres form the box `[max_i(−c_i.x), W − max_i(c_i.x)]` (same for y). On an
  /// axis where that box is empty (the photo is smaller than the guide there) the photo is
  /// centred on that axis.
  public static func clampCentre(
    _ centre: Point, source: Size, guide: Size, linear: Affine
  ) -> Point {
    guard let back = linear.inverted() else { return centre }
    let half = guide.centre
    let corners = Rect(size: guide).corners.map { back.applyLinear($0 - half) }
    func clampAxis(_ value: Double, _ extent: Double, _ coords: [Double]) -> Double {
      let lo = coords.map { -$0 }.max()!
      let hi = extent - coords.max()!
      guard lo <= hi else { return extent / 2 }
      return min(max(value, lo), hi)
    }
    return Point(
      x: clampAxis(centre.x, source.width, corners.map(\.x)),
      y: clampAxis(centre.y, source.height, corners.map(\.y)))
  }
}
