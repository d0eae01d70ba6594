import Foundation

/// What happens where the photo does not reach the edge of the guide.
package enum Overflow: String, Sendable, Hashable, Codable, CaseIterable {
  /// Move the photo the least so that it covers the guide (on each axis where it can);
  /// like a crop screen that springs back when dragged too far. Never moves an explicit crop.
  case clamp
  /// Leave the photo where it was put; uncovered output pixels get the background.
  case fill
  /// Leave the photo where it was put and trim the output to the part the photo covers.
  case shrink
}
