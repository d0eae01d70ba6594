import Foundation

/// Something worth telling the user about a placement. Notes never stop a placement; the
/// planner decides which ones are warnings.
package enum PlacementNote: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `upscale: false` and the request needed more than one output pixel per source pixel:
  /// the output was shrunk from `requested` to `actual` (scale exactly 1, or just under).
  case upscaleCapped(requested: PixelSize, actual: PixelSize)
  /// `upscale: true` and the output has `factor` (> 1) output pixels per source pixel.
  case upscaling(factor: Double)
  /// The photo does not cover every output pixel: the background (or transparency) shows.
  case guideNotCovered
  /// The crop's aspect differs from the guide's by more than 1 %: the crop's aspect wins and
  /// the output height becomes `round(crop.height × guide.width / crop.width)`.
  case cropAspectMismatch(cropAspect: Double, guideAspect: Double)
  /// An explicit crop reaches outside the photo; that part is filled with the background.
  case cropOutsidePhoto
  /// `overflow: shrink` trimmed the output from `from` to `to` pixels.
  case shrunkToFootprint(from: PixelSize, to: PixelSize)
  /// `over_budget: shrink`: the output did not fit `maxBytes` even at its lowest quality and
  /// was written at `to` pixels instead of `from` (decided when it is encoded).
  case downsizedToBudget(from: PixelSize, to: PixelSize, maxBytes: Int)
  /// `encode.target`: even the highest quality allowed (`quality`, or with `withinBudget` the
  /// highest whose file fits `max_bytes`) scored `score`, under the target `ssim`; the output
  /// was written at that quality (decided when it is encoded).
  case qualityTargetNotReached(ssim: Double, score: Double, quality: Int, withinBudget: Bool)
  /// The `boxes` found (faces, regions) do not fit the guide together at the job's zoom, even
  /// with no padding: `kept` of them are kept inside, larger and surer first
  /// (`Geometry.placeAboutBoxes`).
  case focusBoxesDoNotFit(boxes: Int, kept: Int)
  /// The boxes kept fit the guide only with less padding than `face_padding`: `to` was used.
  case facePaddingReduced(from: Double, to: Double)
  /// The box placed about is larger than the guide even with no padding: it is cut off,
  /// placed about its eyes-to-chin centre.
  case focusBoxCutOff

  /// A one-line human description.
  package var description: String {
    switch self {
    case .upscaleCapped(let requested, let actual):
      return "upscale is off: output capped from \(requested) to \(actual)"
    case .upscaling(let factor):
      return "upscaling: \(formatted(factor)) output pixels per source pixel"
    case .guideNotCovered:
      return "the photo does not cover the whole output; the background shows"
    case .cropAspectMismatch(let crop, let guide):
      return
        "crop aspect \(formatted(crop)) differs from guide aspect \(formatted(guide)); "
        + "output height follows the crop"
    case .cropOutsidePhoto:
      return "the crop reaches outside the photo; that part is filled with the background"
    case .shrunkToFootprint(let from, let to):
      return "output trimmed from \(from) to \(to) to fit the photo"
    case .downsizedToBudget(let from, let to, let maxBytes):
      return "output downsized from \(from) to \(to) to fit max_bytes \(maxBytes)"
    case .qualityTargetNotReached(let ssim, let score, let quality, let withinBudget):
      return
        "target ssim \(formatted(ssim, digits: 4)) not reached: \(formatted(score, digits: 4)) at quality \(quality), "
        + (withinBudget ? "the highest whose file fits max_bytes" : "the highest allowed (quality)")
    case .focusBoxesDoNotFit(let boxes, let kept):
      return "the \(boxes) boxes found do not fit the guide together: \(kept) kept inside (larger, surer first)"
    case .facePaddingReduced(let from, let to):
      return "face_padding \(formatted(from)) reduced to \(formatted(to)) so that the boxes kept fit the guide"
    case .focusBoxCutOff:
      return
        "the box placed about is larger than the guide even without padding: it is cut off about its eyes-to-chin centre"
    }
  }
}

/// `String(format: "%.<digits>f", v)` (`fixedPointText`).
private func formatted(_ v: Double, digits: Int = 3) -> String { fixedPointText(v, digits: digits) }
