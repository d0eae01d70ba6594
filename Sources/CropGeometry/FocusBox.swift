import Foundation

/// A box found in a photo that the placement keeps inside the guide: a detected face, or a
/// region stored in the file.
package struct FocusBox: Sendable, Hashable, Codable {
  /// Where a box comes from.
  package enum Origin: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Found by a detector (`faces`), named by the detector's name.
    case detector(String)
    /// Stored in the photo's metadata, with its name (if any) and type (`face`, `pet`, …).
    case region(name: String?, type: String)

    package var description: String {
      switch self {
      case .detector(let name): return "detector \(name)"
      case .region(let name, let type): return "region \(type)" + (name.map { " \"\($0)\"" } ?? "")
      }
    }
  }

  /// The box in oriented source pixels (full resolution, after EXIF orientation).
  package var rect: Rect
  package var origin: Origin
  /// The detector's confidence (larger is surer; its scale is the detector's), or 1 for a
  /// stored region.
  package var score: Double
  /// The detector's five landmarks (oriented source pixels): the eye on the image's left, the
  /// other eye, the nose tip, the mouth's left and right corners; nil for a stored region.
  package var landmarks: [Point]?

  /// Creates a box.
  package init(rect: Rect, origin: Origin, score: Double, landmarks: [Point]? = nil) {
    self.rect = rect
    self.origin = origin
    self.score = score
    self.landmarks = landmarks
  }

  /// The box grown by `padding` × its width on the left and on the right, and × its height
  /// at the top and at the bottom, then clipped to `photo` (nil when nothing is left). A box
  /// without area — a stored focus point (MWG `Focus` with no size), or a line — has nothing
  /// to grow on that axis and stays a point (or a line): nil only when it lies off the photo.
  package func padded(_ padding: Double, within photo: Rect) -> Rect? {
    let grown = Rect(
      x: rect.x - padding * rect.width, y: rect.y - padding * rect.height, width: rect.width * (1 + 2 * padding),
      height: rect.height * (1 + 2 * padding))
    guard rect.width == 0 || rect.height == 0 else { return grown.intersection(photo) }
    let x0 = max(grown.minX, photo.minX)
    let y0 = max(grown.minY, photo.minY)
    let x1 = min(grown.maxX, photo.maxX)
    let y1 = min(grown.maxY, photo.maxY)
    guard x1 >= x0, y1 >= y0 else { return nil }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
