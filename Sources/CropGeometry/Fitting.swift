import Foundation

extension Geometry {
  /// Base scale `s0` (guide pixels per source pixel) before `zoom`, for a `source` photo
  /// rotated by `degrees` under a guide frame of size `guide`:
  ///
  /// - cover: `max((gw|cos|+gh|sin|)/W, (gw|sin|+gh|cos|)/H)` — the smallest scale at which
  ///   the rotated photo covers the frame;
  /// - contain: `min(gw/(W|cos|+H|sin|), gh/(W|sin|+H|cos|))` — the largest scale at which the
  ///   whole rotated photo fits in the frame;
  /// - none: `1`.
  package static func baseScale(fit: Fit, source: Size, guide: Size, degrees: Double) -> Double {
    let (cs, sn) = Angle.cosSin(degrees: degrees)
    let c = abs(cs)
    let s = abs(sn)
    let w = source.width
    let h = source.height
    let gw = guide.width
    let gh = guide.height
    switch fit {
    case .cover:
      return max((gw * c + gh * s) / w, (gw * s + gh * c) / h)
    case .contain:
      return min(gw / (w * c + h * s), gh / (w * s + h * c))
    case .none:
      return 1
    }
  }
}
