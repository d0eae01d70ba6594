import Foundation

extension Geometry {
  /// Antialiased coverage (0…1) of pixel `(x, y)` by a circle inscribed in `frame`
  /// (diameter `min(frame.width, frame.height)`, centred on the frame):
  /// `clamp(r − distance(pixel centre, circle centre) + 0.5, 0, 1)`.
  package static func circleCoverage(frame: Rect, x: Int, y: Int) -> Double {
    let r = min(frame.width, frame.height) / 2
    let d = Point.pixelCentre(x, y).distance(to: frame.centre)
    return min(max(r - d + 0.5, 0), 1)
  }

  /// Coverage of pixel `(x, y)` by the circle of diameter `min(w, h)` centred in an output of
  /// `outputSize`.
  package static func circleCoverage(outputSize: PixelSize, x: Int, y: Int) -> Double {
    circleCoverage(frame: Rect(size: Size(outputSize)), x: x, y: y)
  }

  /// An 8-bit alpha mask, row-major (`index = y * width + x`), of the circle inscribed in
  /// `frame` (default: the whole output): `round(coverage × 255)`. Pass
  /// `PlacementResult.guideRect` as `frame` to keep the circle on the guide after a shrink.
  package static func circleMask(outputSize: PixelSize, frame: Rect? = nil) -> [UInt8] {
    let f = frame ?? Rect(size: Size(outputSize))
    var mask = [UInt8](repeating: 0, count: outputSize.width * outputSize.height)
    for y in 0..<outputSize.height {
      for x in 0..<outputSize.width {
        let cov = circleCoverage(frame: f, x: x, y: y)
        mask[y * outputSize.width + x] = UInt8((cov * 255).rounded())
      }
    }
    return mask
  }
}
