import Foundation

/// A 2-D affine map `p ↦ (a·x + b·y + tx, c·x + d·y + ty)`, i.e. the matrix
/// `[a b tx; c d ty; 0 0 1]` acting on column vectors.
package struct Affine: Sendable, Hashable, Codable, CustomStringConvertible {
  package var a: Double
  package var b: Double
  package var c: Double
  package var d: Double
  package var tx: Double
  package var ty: Double

  /// Creates a map from its six coefficients.
  package init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The identity map.
  package static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// Translation by `(x, y)`.
  package static func translation(x: Double, y: Double) -> Affine {
    Affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  /// Translation by the vector `v`.
  package static func translation(_ v: Point) -> Affine { translation(x: v.x, y: v.y) }

  /// Scaling about the origin by `x` horizontally and `y` vertically.
  package static func scale(x: Double, y: Double) -> Affine {
    Affine(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
  }

  /// Uniform scaling about the origin.
  package static func scale(_ s: Double) -> Affine { scale(x: s, y: s) }

  /// Rotation about the origin by `degrees`, clockwise on screen (y down):
  /// `[cos −sin; sin cos]`. Exact for multiples of 90°.
  package static func rotation(degrees: Double) -> Affine {
    let (cs, sn) = Angle.cosSin(degrees: degrees)
    return Affine(a: cs, b: -sn, c: sn, d: cs, tx: 0, ty: 0)
  }

  /// Applies the map to a point.
  package func apply(_ p: Point) -> Point {
    Point(x: a * p.x + b * p.y + tx, y: c * p.x + d * p.y + ty)
  }

  /// Applies only the linear part (no translation), for vectors such as offsets.
  package func applyLinear(_ v: Point) -> Point {
    Point(x: a * v.x + b * v.y, y: c * v.x + d * v.y)
  }

  /// The map that applies `self` first and then `next`: `x ↦ next(self(x))`.
  package func then(_ next: Affine) -> Affine { next * self }

  /// Composition as matrix product: `(lhs * rhs).apply(p) == lhs.apply(rhs.apply(p))`.
  package static func * (lhs: Affine, rhs: Affine) -> Affine {
    Affine(
      a: lhs.a * rhs.a + lhs.b * rhs.c,
      b: lhs.a * rhs.b + lhs.b * rhs.d,
      c: lhs.c * rhs.a + lhs.d * rhs.c,
      d: lhs.c * rhs.b + lhs.d * rhs.d,
      tx: lhs.a * rhs.tx + lhs.b * rhs.ty + lhs.tx,
      ty: lhs.c * rhs.tx + lhs.d * rhs.ty + lhs.ty)
  }

  /// `a·d − b·c`; its absolute value is the area scale factor.
  package var determinant: Double { a * d - b * c }

  /// The inverse map, or `nil` when the map is singular (or not finite).
  package func inverted() -> Affine? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let ia = d / det
    let ib = -b / det
    let ic = -c / det
    let id = a / det
    return Affine(
      a: ia, b: ib, c: ic, d: id,
      tx: -(ia * tx + ib * ty),
      ty: -(ic * tx + id * ty))
  }

  /// The bounding box of the image of `rect` (the image of its four corners).
  package func boundingBox(of rect: Rect) -> Rect {
    Rect.boundingBox(of: rect.corners.map(apply))!
  }

  /// The same map expressed in pixel-index coordinates, where pixel `i` sits at `i` rather
  /// than covering `[i, i+1)`: `q ↦ self(q + ½) − ½`. Use it with resamplers that address
  /// pixel centres by their integer index.
  package var inPixelIndexCoordinates: Affine {
    Affine.translation(x: -0.5, y: -0.5) * self * Affine.translation(x: 0.5, y: 0.5)
  }

  /// `true` when every coefficient is within `tolerance` of `other`'s.
  package func isApproximatelyEqual(to other: Affine, tolerance: Double = 1e-9) -> Bool {
    abs(a - other.a) <= tolerance && abs(b - other.b) <= tolerance
      && abs(c - other.c) <= tolerance && abs(d - other.d) <= tolerance
      && abs(tx - other.tx) <= tolerance && abs(ty - other.ty) <= tolerance
  }

  package var description: String { "[\(a) \(b) \(tx); \(c) \(d) \(ty)]" }
}
