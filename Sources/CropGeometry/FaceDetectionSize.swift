import Foundation

/// How large a copy of the photo the face detector sees (`focus: faces`, issue 23): large
/// enough that the smallest face that matters to the output is `smallestFace` pixels in it.
/// Since no face under 2 % of the photo's long side is looked for, the copy is never longer
/// than 20 / 0.02 = 1,000 px (`maxSide`, 1 megapixel for a square photo): the cost per photo
/// is bounded. Pure, so that the plan
/// (which limits the decode's shrink-on-load to it) and the run (which detects at it) agree.
package enum FaceDetectionSize {
  /// The copy's long side at least: faces from about 4 % of the photo's long side.
  package static let baseSide = 512
  /// The copy's long side at most: `smallestFace / smallestShareOfPhoto`.
  package static var maxSide: Int { Int((smallestFace / smallestShareOfPhoto).rounded()) }
  /// The face width, in pixels of the copy, that the detector finds reliably: a 48 px face
  /// (2 % of a 2,400 px photo) is found with score 74 at 15 px and 87 at 20 px.
  package static let smallestFace = 20.0
  /// Faces smaller than this share of the photo's long side are not looked for.
  package static let smallestShareOfPhoto = 0.02
  /// Faces smaller than this share of the output's footprint (its short side, in source
  /// pixels) are too small in the output to matter.
  package static let smallestShareOfFootprint = 0.1

  /// The copy's long side, in pixels, for a photo of `photo` (oriented source pixels) and an
  /// output that shows `footprint` of it. Two rules, the larger wins, never above 1,000 px:
  /// - the smallest face that matters, the larger of 2 % of the photo's long side and 10 % of the
  ///   footprint's short side, becomes 20 px;
  /// - zoomed in, cropjob looks as much closer: when the footprint is `z` times smaller than the
  ///   photo (the smaller of the two sides' ratios), the copy is at least `z` × 512 px long, so the
  ///   part of the photo the output shows gets the detail the whole photo gets at zoom 1.
  /// At least 512. The copy is never enlarged beyond the photo itself (the caller's rule).
  package static func longSide(photo: Size, footprint: Size) -> Int {
    let long = max(photo.width, photo.height)
    guard long > 0 else { return baseSide }
    let face = max(
      smallestShareOfPhoto * long, smallestShareOfFootprint * max(1, min(footprint.width, footprint.height)))
    let forSmallestFace = (long * smallestFace / face).rounded(.up)
    let zoom = max(
      1, min(photo.width / max(1, footprint.width), photo.height / max(1, footprint.height)))
    let forZoom = (Double(baseSide) * zoom).rounded(.up)
    return Int(min(Double(maxSide), max(Double(baseSide), forSmallestFace, forZoom)))
  }
}
