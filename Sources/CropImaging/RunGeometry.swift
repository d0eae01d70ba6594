internal import CVipsShim
import CropGeometry
import CropPlan
import CropSpec

/// What a run-time focus found: which strategy placed the photo, the point it found (before
/// clamping moves the centre), and the boxes.
package struct FoundFocus: Sendable, Hashable {
  /// The strategy that placed the photo: `faces`, `regions`, `attention`, `entropy`, or the
  /// fixed fallback's name.
  package var strategy: String
  /// The point found, in oriented source pixels: the smart-crop point, or the centre of the
  /// kept padded boxes; nil when a fixed fallback placed the photo.
  package var point: Point?
  /// The boxes of the finder that placed the photo (empty otherwise), with their padded boxes
  /// and which ones were kept inside the guide (`BoxFocus`).
  package var boxes: [FocusBox] = []
  package var padded: [Rect?] = []
  package var kept: [Int] = []
  /// Per box: why it was left out (`BoxFocus.dropped`), nil where kept.
  package var dropped: [BoxDrop?] = []
  /// The padding used (`BoxFocus.padding`); nil when no box placed the photo.
  package var padding: Double? = nil
}

/// The geometry an output is rendered with, and what its focus found at run time.
package struct RunGeometry: Sendable {
  package var geometry: PlacementResult
  /// nil with a fixed focus or an explicit crop.
  package var found: FoundFocus?

}

extension PlannedOutput {
  /// The geometry `run` renders this output with: the plan's own, or, with a focus found at
  /// run time, the placement about what the strategies find in `decoded` (tried in order:
  /// finders, then the fallback). The executor and `preview` both call this.
  package func runGeometry(decoded: DecodedSource) throws(ImagingError) -> RunGeometry {
    // An explicit crop ignores the focus: nothing to locate.
    guard let focus = smartFocus, place.crop == nil else { return RunGeometry(geometry: geometry, found: nil) }
    let header = decoded.header
    let photo = Size(width: Double(header.width), height: Double(header.height))
    let p = place
    var placement = Placement(
      fit: p.fit, zoom: p.zoom, offset: p.offset, focus: NamedPosition.centre.point, rotate: p.rotate,
      flipHorizontal: p.flipHorizontal, flipVertical: p.flipVertical, crop: p.crop, overflow: p.overflow,
      upscale: p.upscale)
    var strategy = focus
    if case .search(let search) = focus {
      for finder in search.finders {
        let boxes = try FocusFinders.boxes(
          finder, decoded: decoded, place: place, regions: regionBoxes,
          faceSide: faceDetectionSide(photo: photo) ?? FaceDetectionSize.baseSide)
        if let result = Geometry.placeAboutBoxes(
          boxes, padding: p.effectiveFacePadding, source: photo, guide: guide, placement: placement,
          outputScale: outputScale)
        {
          var resolved = result.geometry
          resolved.notes += result.notes
          let point = Point(x: result.focus.x * photo.width, y: result.focus.y * photo.height)
          return RunGeometry(
            geometry: resolved,
            found: FoundFocus(
              strategy: finder.rawValue, point: point, boxes: boxes, padded: result.padded, kept: result.kept,
              dropped: result.dropped, padding: result.padding))
        }
      }
      strategy = search.fallback
    }
    var point: Point? = nil
    switch strategy {
    case .named(let name): placement.focus = name.point
    case .point(let q): placement.focus = q
    case .smart(let smart):
      let g = geometry
      let window = Size(width: Double(g.outputSize.width) / g.scale, height: Double(g.outputSize.height) / g.scale)
      placement.focus = try SmartFocus.locate(decoded, strategy: smart, window: window)
      point = Point(x: placement.focus.x * photo.width, y: placement.focus.y * photo.height)
    case .search: preconditionFailure("a search's fallback is never a search")
    }
    let resolved = Geometry.place(source: photo, guide: guide, placement: placement, outputScale: outputScale)
    return RunGeometry(geometry: resolved, found: FoundFocus(strategy: strategy.name, point: point))
  }
}

extension DecodedSource {
  /// The pixels `output` would have, rendered from `source` in memory as `run` renders it
  /// (smart focus resolved) but not encoded: a stand-in, at `path` with `header`, for the
  /// file an earlier job has not written yet (`preview` of `from:` jobs).
  package static func rendering(
    _ output: PlannedOutput, from source: DecodedSource, header: SourceHeader, path: String
  ) throws(ImagingError) -> DecodedSource {
    let geometry = try output.runGeometry(decoded: source).geometry
    let image = try Renderer.render(source, geometry: geometry, style: output.style)
    let memory = try image.derive("render \(output.path)") { cj_copy_memory($0, $1) }
    return DecodedSource(image: memory, header: header, path: path)
  }
}
