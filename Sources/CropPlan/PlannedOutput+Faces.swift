import CropGeometry
import CropSpec

extension PlannedOutput {
  /// The long side of the copy the face detector sees for this output
  /// (`FaceDetectionSize.longSide` of the photo and the plan's footprint, which the focus
  /// moves but never resizes); nil when the output's focus does not look for faces.
  public func faceDetectionSide(photo: Size) -> Int? {
    guard case .search(let search) = smartFocus, search.finders.contains(.faces), place.crop == nil else {
      return nil
    }
    let g = geometry
    let footprint = Size(
      width: Double(g.outputSize.width) / g.scale, height: Double(g.outputSize.height) / g.scale)
    return FaceDetectionSize.longSide(photo: photo, footprint: footprint)
  }

  /// The scale its source is decoded at, at least: the geometry's, or, when it looks for
  /// faces, the scale of the detector's copy (the decode keeps at least those pixels).
  func decodeScale(header: SourceHeader) -> Double {
    var scale = geometry.scale
    if let side = faceDetectionSide(photo: Size(width: Double(header.width), height: Double(header.height))) {
      scale = max(scale, Double(side) / Double(max(header.width, header.height)))
    }
    return scale
  }
}
