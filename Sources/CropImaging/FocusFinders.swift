import CropGeometry
import CropSpec

/// The box finders of `focus` searches, by name: each returns the boxes it finds in a decoded
/// source, in oriented full-resolution source pixels, in a deterministic order.
enum FocusFinders {
  /// `regions`: the boxes the plan read from the file (`PlannedOutput.regionBoxes`), so that
  /// run and plan agree; none when the plan read none.
  static func boxes(_ finder: BoxFinder, decoded: DecodedSource, place: PlaceSpec, regions: [FocusBox]?)
    throws(ImagingError) -> [FocusBox]
  {
    switch finder {
    case .faces:
      // Once per decode: its outputs share the detection (two threads asking at once may both
      // detect; the boxes are the same).
      if let cached = decoded.faces.withLock({ $0 }) { return cached }
      let found = try FaceDetector.faces(in: decoded)
      decoded.faces.withLock { $0 = found }
      return found
    case .regions:
      return regions ?? []
    }
  }
}
