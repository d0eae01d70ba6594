import CropGeometry
import CropSpec

/// The box finders of `focus` searches, by name: each returns the boxes it finds in a decoded
/// source, in oriented full-resolution source pixels, in a deterministic order.
enum FocusFinders {
  /// `regions`: the boxes the plan read from the file (`PlannedOutput.regionBoxes`), so that
  /// run and plan agree; none when the plan read none.
  /// `faceSide`: the long side of the copy the face detector sees
  /// (`PlannedOutput.faceDetectionSide`).
  static func boxes(
    _ finder: BoxFinder, decoded: DecodedSource, place: PlaceSpec, regions: [FocusBox]?, faceSide: Int
  ) throws(ImagingError) -> [FocusBox] {
    switch finder {
    case .faces:
      // Once per decode and size: outputs asking for the same size share the detection (two
      // threads asking at once may both detect; the boxes are the same).
      if let cached = decoded.faces.withLock({ $0[faceSide] }) { return cached }
      let found = try FaceDetector.faces(in: decoded, longSide: faceSide)
      decoded.faces.withLock { $0[faceSide] = found }
      return found
    case .regions:
      return regions ?? []
    }
  }
}
