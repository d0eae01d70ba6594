import Foundation

/// Named focus points; each stands for a normalised source point (0…1 on both axes).
package enum NamedPosition: String, Sendable, Hashable, Codable, CaseIterable {
  case centre
  case top
  case bottom
  case left
  case right
  case topLeft = "top-left"
  case topRight = "top-right"
  case bottomLeft = "bottom-left"
  case bottomRight = "bottom-right"

  /// The normalised source point: `(0, 0)` is the photo's top-left, `(1, 1)` its bottom-right.
  /// With `fit: cover` and `overflow: clamp`, `top` puts the photo's top edge on the guide's
  /// top edge, `top-left` its corner on the guide's corner, and so on.
  package var point: Point {
    switch self {
    case .centre: return Point(x: 0.5, y: 0.5)
    case .top: return Point(x: 0.5, y: 0)
    case .bottom: return Point(x: 0.5, y: 1)
    case .left: return Point(x: 0, y: 0.5)
    case .right: return Point(x: 1, y: 0.5)
    case .topLeft: return Point(x: 0, y: 0)
    case .topRight: return Point(x: 1, y: 0)
    case .bottomLeft: return Point(x: 0, y: 1)
    case .bottomRight: return Point(x: 1, y: 1)
    }
  }
}
