import CropGeometry
import CropSpec

extension PlannedOutput {
  /// The long side of the copy the face detector sees for this output
  /// (`FaceDetectionSize.longSide` of the photo and the plan's footprint, which the focus
  /// moves but never resizes); nil when the output's focus does not look for faces.
  package func faceDetectionSide(photo: Size) -> Int? {
    guard case .search(let search) = smartFocus, search.finders.contains(.faces), place.crop == nil else {
      return nil
    }
    let g = geometry
    let footprint = Size(
      width: Double(g.outputSize.width) / g.scale, height: Double(g.outputSize.height) / g.scale)
    return FaceDetectionSize.longSide(photo: photo, footprint: footprint)
  }
}
