import CropGeometry

/// A found box as `plan --format json` writes it (and the manifest can): the rectangle in
/// oriented source pixels, where it comes from, and its score.
public struct FocusBoxRecord: Codable, Sendable, Hashable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  /// `region` (stored in the photo) or `detector`.
  public var origin: String
  /// A region's type (`face`, `pet`, `focus`, `barcode`).
  public var type: String?
  /// A region's name, or the detector's name.
  public var name: String?
  /// 1 for a stored region; the detector's confidence otherwise.
  public var score: Double

  public init(_ box: FocusBox) {
    x = box.rect.x
    y = box.rect.y
    width = box.rect.width
    height = box.rect.height
    score = box.score
    switch box.origin {
    case .region(let name, let type):
      origin = "region"
      self.type = type
      self.name = name
    case .detector(let detector):
      origin = "detector"
      name = detector
    }
  }
}
