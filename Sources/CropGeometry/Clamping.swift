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
  package static func clampCentre(
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

extension Geometry {
  /// Whether `overflow: clamp` leaves the photo no room to move although it does not fill the
  /// guide: on each axis the rotated, scaled photo is no larger than the guide frame, and on
  /// one it is smaller, so `clampCentre` centres it, the background shows, and the placement's
  /// `focus` and `offset` have no effect (`fit: contain` at zoom ≤ 1 on a photo of another
  /// aspect, cover at a zoom that no longer covers). An exact fit (a square photo, cover, a
  /// square guide) is not reported: there is nothing to choose. false for an explicit crop or
  /// another overflow.
  package static func clampPinsCentre(source: Size, guide: Guide, placement: Placement) -> Bool {
    guard placement.crop == nil, placement.overflow == .clamp else { return false }
    let frame = Size(guide.size)
    let scale =
      baseScale(fit: placement.fit, source: source, guide: frame, degrees: placement.rotate) * placement.zoom
    guard scale > 0, let back = Affine.rotation(degrees: placement.rotate).inverted() else { return false }
    let half = frame.centre
    let corners = Rect(size: frame).corners.map { back.applyLinear($0 - half) * (1 / scale) }
    // The valid-centre box on each axis has width W − 2·max(c.x); pinned when it is empty or
    // a single point (within a millionth of a pixel) on both axes, and empty on one.
    let slack = 1e-6
    let freeX = source.width - 2 * corners.map(\.x).max()!
    let freeY = source.height - 2 * corners.map(\.y).max()!
    return freeX <= slack && freeY <= slack && min(freeX, freeY) < -slack
  }
}
