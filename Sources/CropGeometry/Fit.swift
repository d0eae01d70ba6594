import Foundation

/// How the photo is first sized under the guide, before `zoom`.
package enum Fit: String, Sendable, Hashable, Codable, CaseIterable {
  /// Smallest scale at which the (rotated) photo covers the whole guide ("aspect-fill").
  case cover
  /// Largest scale at which the whole (rotated) photo fits in the guide ("aspect-fit").
  case contain
  /// One guide pixel per source pixel.
  case none
}
