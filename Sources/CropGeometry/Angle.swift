import Foundation

/// Angle helpers. Angles are in degrees, positive = clockwise on screen (y down).
package enum Angle {
  /// Cosine and sine of `degrees`, exact (0, ±1) for multiples of 90°, so quarter turns map
  /// pixel grids onto pixel grids without rounding noise.
  package static func cosSin(degrees: Double) -> (cos: Double, sin: Double) {
    var d = degrees.truncatingRemainder(dividingBy: 360)
    if d < 0 { d += 360 }
    switch d {
    case 0: return (1, 0)
    case 90: return (0, 1)
    case 180: return (-1, 0)
    case 270: return (0, -1)
    default:
      let r = d * .pi / 180
      return (cos(r), sin(r))
    }
  }
}
