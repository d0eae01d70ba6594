import CropGeometry

/// A region a photo manager stored in the photo's XMP: an MWG region (`mwg-rs:Regions`,
/// written by Lightroom, digiKam, Picasa exports) or a Microsoft people-tagging rectangle
/// (`MP:RegionInfo`). See docs/job-file.md, "Regions stored in the photo".
package struct StoredRegion: Sendable, Hashable, Codable {
  /// What the region marks: MWG's `mwg-rs:Type`; Microsoft's rectangles are people (faces).
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case face, pet, focus, barcode
  }

  /// Which schema the region was read from.
  package enum Schema: String, Sendable, Hashable, Codable {
    /// Metadata Working Group regions: `mwg-rs:Regions/mwg-rs:RegionList`.
    case mwg
    /// Microsoft Photo people tagging: `MP:RegionInfo/MPRI:Regions`.
    case microsoft
  }

  /// nil when the region names no type (or one outside MWG's four).
  package var kind: Kind?
  /// `mwg-rs:Name` or `MPReg:PersonDisplayName`, when present.
  package var name: String?
  package var schema: Schema
  /// Normalised, top-left based: (x, y) is the top-left corner and (width, height) the size,
  /// as fractions of the frame the writer measured in (`frame`).
  package var area: Rect
  /// MWG `mwg-rs:AppliedToDimensions` (stDim:w × stDim:h, pixels), when present.
  package var appliedTo: Size?

  package init(kind: Kind?, name: String?, schema: Schema, area: Rect, appliedTo: Size? = nil) {
    self.kind = kind
    self.name = name
    self.schema = schema
    self.area = area
    self.appliedTo = appliedTo
  }

  /// Which image the normalised area is measured in.
  package enum Frame: String, Sendable, Hashable, Codable {
    /// The photo as displayed, after EXIF orientation (what MWG's writers use; the default).
    case oriented
    /// The pixels as stored: recognised only when `AppliedToDimensions` equals the stored
    /// size of a non-square photo whose orientation (5–8) swaps the axes.
    case stored
  }

  /// The frame this region's area refers to in a photo with `header`: `.stored` only when
  /// AppliedToDimensions names the stored size and not the oriented one (orientations 5–8,
  /// non-square); every other case, including no AppliedToDimensions and orientations 2–4,
  /// where the sizes cannot tell, is `.oriented`.
  package func frame(in header: SourceHeader) -> Frame {
    guard let applied = appliedTo, (5...8).contains(header.orientation), header.storedWidth != header.storedHeight
    else { return .oriented }
    let stored = Size(width: Double(header.storedWidth), height: Double(header.storedHeight))
    return Self.sameAspect(applied, stored)
      && !Self.sameAspect(applied, Size(width: stored.height, height: stored.width))
      ? .stored : .oriented
  }

  /// The area in oriented source pixels (after EXIF orientation, the coordinates every
  /// geometry uses), clipped to the photo. A stored-frame area goes through the orientation
  /// transform (docs/geometry.md §3); AppliedToDimensions only chooses the frame: a photo
  /// resized after tagging keeps its normalised regions.
  package func orientedRect(in header: SourceHeader) -> Rect {
    let oriented = Size(width: Double(header.width), height: Double(header.height))
    let photo = Rect(size: oriented)
    let rect: Rect
    switch frame(in: header) {
    case .oriented:
      rect = Rect(
        x: area.x * oriented.width, y: area.y * oriented.height, width: area.width * oriented.width,
        height: area.height * oriented.height)
    case .stored:
      let stored = Size(width: Double(header.storedWidth), height: Double(header.storedHeight))
      let pixels = Rect(
        x: area.x * stored.width, y: area.y * stored.height, width: area.width * stored.width,
        height: area.height * stored.height)
      let transform = Geometry.orientationTransform(stored: stored, orientation: header.orientation)
      rect = Rect.boundingBox(of: pixels.corners.map(transform.apply)) ?? .zero
    }
    // Each edge clamped into the photo (a point region stays a point).
    let x0 = min(max(rect.minX, photo.minX), photo.maxX)
    let x1 = min(max(rect.maxX, photo.minX), photo.maxX)
    let y0 = min(max(rect.minY, photo.minY), photo.maxY)
    let y1 = min(max(rect.maxY, photo.minY), photo.maxY)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Aspects equal within 1 % (a writer may round the dimensions it records).
  static func sameAspect(_ a: Size, _ b: Size) -> Bool {
    guard a.width > 0, a.height > 0, b.width > 0, b.height > 0 else { return false }
    return abs(a.width / a.height - b.width / b.height) <= 0.01 * (b.width / b.height)
  }
}
