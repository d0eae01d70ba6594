import CropGeometry

/// A found box as `plan --format json` writes it, with the fields and spellings of the
/// manifest's box record (`Manifest.BoxRecord`): the box in oriented source pixels, the box
/// grown by `face_padding`, its origin, its score, and whether the placement keeps it inside
/// the guide.
public struct FocusBoxRecord: Codable, Sendable, Hashable {
  public var rect: Rect
  /// Grown by the padding used (`face_padding`, or less when the boxes fit only with less)
  /// and clipped to the photo; absent when off the photo.
  public var padded: Rect?
  /// `region <type> "<name>"` or `detector <name>` (`FocusBox.Origin.description`).
  public var origin: String
  /// 1 for a stored region.
  public var score: Double
  /// Whether the plan's placement keeps it inside the guide; absent when the plan did not
  /// place the photo about these boxes (another finder comes first, or none was found).
  public var kept: Bool?
  /// Why the plan's placement left it out (`BoxDrop`); absent when kept or not placed.
  public var dropped: String?

  public init(_ box: FocusBox, padded: Rect?, kept: Bool?, dropped: BoxDrop? = nil) {
    rect = box.rect
    self.padded = padded
    origin = box.origin.description
    score = box.score
    self.kept = kept
    self.dropped = dropped?.description
  }
}
