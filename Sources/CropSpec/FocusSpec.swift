import CropGeometry

/// Which source point sits at the guide's centre.
package enum FocusSpec: Sendable, Hashable, Codable {
  case named(NamedPosition)
  case point(Point)
  case smart(SmartStrategy)
  /// Finders tried in order at run time (`focus: [regions, faces, attention]`); the first that
  /// finds a box places the photo, and `fallback` decides when none does.
  indirect case search(FocusSearch)

  /// The focus as the job file writes it (`faces, attention` for a search).
  package var name: String {
    switch self {
    case .named(let n): return n.rawValue
    case .point(let p): return "[\(p.x), \(p.y)]"
    case .smart(let s): return s.rawValue
    case .search(let search): return (search.finders.map(\.rawValue) + [search.fallback.name]).joined(separator: ", ")
    }
  }

  /// Whether the focus is found from the pixels (or the file's regions) at run time.
  package var isFoundAtRunTime: Bool {
    switch self {
    case .named, .point: return false
    case .smart, .search: return true
    }
  }
}

/// A list of box finders and the strategy that decides when none finds a box.
package struct FocusSearch: Sendable, Hashable, Codable {
  /// Distinct, at least one, in the order they are tried.
  package var finders: [BoxFinder]
  /// A named position, a point or a smart strategy (never a search): what places the photo
  /// when no finder finds a box. `attention` unless the list ends with another.
  package var fallback: FocusSpec

  /// `fallback` must not be a search.
  package init(finders: [BoxFinder], fallback: FocusSpec) {
    if case .search = fallback { preconditionFailure("a search's fallback cannot be a search") }
    self.finders = finders
    self.fallback = fallback
  }

  /// What a list without a final fixed or smart strategy falls back to.
  package static let defaultFallback = FocusSpec.smart(.attention)
}

/// What finds boxes to keep in the picture.
package enum BoxFinder: String, Sendable, Hashable, Codable, CaseIterable {
  /// Regions stored in the photo's metadata (XMP MWG, Microsoft Photo), filtered by `regions`.
  case regions
  /// Faces found by the face detector (libfacedetection's YuNet CNN).
  case faces
}

/// libvips' smart-crop strategies.
package enum SmartStrategy: String, Sendable, Hashable, Codable, CaseIterable {
  case attention, entropy
}

/// The types of regions a photo's metadata may store (MWG's Face, Pet, Focus, BarCode).
package enum RegionType: String, Sendable, Hashable, Codable, CaseIterable {
  case face, pet, focus, barcode
}
