import CropGeometry

/// A found box as `plan --format json` writes it, with the fields and spellings of the
/// manifest's box record (`Manifest.BoxRecord`): the box in oriented source pixels, the box
/// grown by `face_padding`, its origin, its score, and whether the placement keeps it inside
/// the guide.
package struct FocusBoxRecord: Codable, Sendable, Hashable {
  package var rect: Rect
  /// Grown by the padding used (`face_padding`, or less when the boxes fit only with less)
  /// and clipped to the photo; absent when off the photo.
  package var padded: Rect?
  /// `region <type> "<name>"` or `detector <name>` (`FocusBox.Origin.description`).
  package var origin: String
  /// 1 for a stored region.
  package var score: Double
  /// Whether the plan's placement keeps it inside the guide; absent when the plan did not
  /// place the photo about these boxes (another finder comes first, or none was found).
  package var kept: Bool?
  /// Why the plan's placement left it out (`BoxDrop`); absent when kept or not placed.
  package var dropped: String?

  package init(_ box: FocusBox, padded: Rect?, kept: Bool?, dropped: BoxDrop? = nil) {
    rect = box.rect
    self.padded = padded
    origin = box.origin.description
    score = box.score
    self.kept = kept
    self.dropped = dropped?.description
  }
}
