import Foundation

/// Why `Geometry.placeAboutBoxes` left a found box out of the guide.
package enum BoxDrop: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Its score is below `Geometry.weakScoreRatio` of the best box's: a likely stray, never
  /// placed at the expense of a surer face.
  case lowScore(score: Double, best: Double)
  /// It does not fit beside the boxes kept before it (larger and surer first), even with no
  /// padding.
  case doesNotFit
  /// Nothing of it, padded, lies on the photo.
  case offPhoto

  package var description: String {
    switch self {
    case .lowScore(let score, let best):
      return "score \(Self.number(score)) is below \(Self.number(Geometry.weakScoreRatio * 100)) % of the best "
        + "(\(Self.number(best)))"
    case .doesNotFit: return "does not fit beside the larger, surer boxes kept"
    case .offPhoto: return "off the photo"
    }
  }

  private static func number(_ v: Double) -> String {
    v == v.rounded() ? String(Int(v)) : String(format: "%.2f", v)
  }
}
