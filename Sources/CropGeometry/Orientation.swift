import Foundation

extension Geometry {
  /// The photo size after EXIF orientation: orientations 5…8 swap width and height; every
  /// other value (1…4, and unknown values, treated as 1) keeps it.
  package static func orientedSize(stored: Size, orientation: Int) -> Size {
    (5...8).contains(orientation)
      ? Size(width: stored.height, height: stored.width) : stored
  }

  /// Whole-pixel variant of `orientedSize(stored:orientation:)`.
  package static func orientedSize(stored: PixelSize, orientation: Int) -> PixelSize {
    (5...8).contains(orientation)
      ? PixelSize(width: stored.height, height: stored.width) : stored
  }

  /// Stored pixels → oriented pixels for an EXIF orientation (continuous coordinates, so
  /// pixel centres map to pixel centres). Compose with a placement transform to resample
  /// once from the stored pixels: `placement.transform * orientationTransform(...)`.
  ///
  /// | EXIF | meaning | (x, y) ↦ |
  /// |---|---|---|
  /// | 1 | as stored | (x, y) |
  /// | 2 | mirrored left-right | (W − x, y) |
  /// | 3 | rotated 180° | (W − x, H − y) |
  /// | 4 | mirrored top-bottom | (x, H − y) |
  /// | 5 | transposed | (y, x) |
  /// | 6 | needs 90° clockwise | (H − y, x) |
  /// | 7 | transversed | (H − y, W − x) |
  /// | 8 | needs 90° anticlockwise | (y, W − x) |
  ///
  /// `W × H` is the stored size. Unknown values are treated as 1.
  package static func orientationTransform(stored: Size, orientation: Int) -> Affine {
    let w = stored.width
    let h = stored.height
    switch orientation {
    case 2: return Affine(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
    case 3: return Affine(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
    case 4: return Affine(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
    case 5: return Affine(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
    case 6: return Affine(a: 0, b: -1, c: 1, d: 0, tx: h, ty: 0)
    case 7: return Affine(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
    case 8: return Affine(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: w)
    default: return .identity
    }
  }
}
