internal import CVipsShim
import CropGeometry
import CropPlan

extension PlannedOutput {
  /// The geometry `run` renders this output with: the plan's own, or, with a smart focus,
  /// the placement about the point libvips' smart crop finds in `decoded` (a window of the
  /// output's footprint in source pixels). `smartPoint` is that point, normalised (0…1),
  /// or nil without a smart focus (or with an explicit crop, which ignores the focus). The
  /// executor and `preview` both call this.
  public func runGeometry(decoded: DecodedSource) throws(ImagingError) -> (
    geometry: PlacementResult, smartPoint: Point?
  ) {
    // An explicit crop ignores the focus: nothing to locate.
    guard let strategy = smartFocus, place.crop == nil else { return (geometry, nil) }
    let g = geometry
    let window = Size(width: Double(g.outputSize.width) / g.scale, height: Double(g.outputSize.height) / g.scale)
    let focus = try SmartFocus.locate(decoded, strategy: strategy, window: window)
    let p = place
    let placement = Placement(
      fit: p.fit, zoom: p.zoom, offset: p.offset, focus: focus, rotate: p.rotate, flipHorizontal: p.flipHorizontal,
      flipVertical: p.flipVertical, crop: p.crop, overflow: p.overflow, upscale: p.upscale)
    let header = decoded.header
    let resolved = Geometry.place(
      source: Size(width: Double(header.width), height: Double(header.height)), guide: guide, placement: placement,
      outputScale: outputScale)
    return (resolved, focus)
  }
}

extension DecodedSource {
  /// The pixels `output` would have, rendered from `source` in memory as `run` renders it
  /// (smart focus resolved) but not encoded: a stand-in, at `path` with `header`, for the
  /// file an earlier job has not written yet (`preview` of `from:` jobs).
  public static func rendering(
    _ output: PlannedOutput, from source: DecodedSource, header: SourceHeader, path: String
  ) throws(ImagingError) -> DecodedSource {
    let geometry = try output.runGeometry(decoded: source).geometry
    let image = try Renderer.render(source, geometry: geometry, style: output.style)
    let memory = try image.derive("render \(output.path)") { cj_copy_memory($0, $1) }
    return DecodedSource(image: memory, header: header, path: path)
  }
}
