import CropGeometry
import Foundation

/// The guide as the proof sheet draws it: the outline of the output's preimage, i.e. exactly
/// the part of the photo that becomes the output. A rect or square guide is a quadrilateral
/// (rotated when the placement rotates), a circle guide the circle inscribed in the frame.
package enum GuideOutline: Sendable, Equatable {
  /// Corners in the order that lands on the output's top-left, top-right, bottom-right,
  /// bottom-left.
  case polygon([Point])
  case circle(centre: Point, radius: Double)

  /// The outline in source pixels (after orientation), from the geometry `run` renders with.
  package static func of(_ geometry: PlacementResult, shape: GuideShape) -> GuideOutline {
    let inverse = geometry.inverse
    switch shape {
    case .circle:
      let frame = geometry.guideRect
      return .circle(centre: inverse.apply(frame.centre), radius: min(frame.width, frame.height) / 2 / geometry.scale)
    case .rect, .square:
      return .polygon(geometry.outputRect.corners.map(inverse.apply))
    }
  }

  /// The outline under `map`, a similarity (uniform scale, rotation, translation).
  package func mapped(by map: Affine) -> GuideOutline {
    switch self {
    case .polygon(let points): return .polygon(points.map(map.apply))
    case .circle(let centre, let radius):
      return .circle(centre: map.apply(centre), radius: radius * abs(map.determinant).squareRoot())
    }
  }

  package var boundingBox: Rect {
    switch self {
    case .polygon(let points): return Rect.boundingBox(of: points) ?? .zero
    case .circle(let c, let r): return Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
    }
  }

  /// Where the outline is best checked: the corners and edge midpoints of a polygon, the
  /// rightmost, lowest, leftmost and highest points of a circle. The drawn line is solid there
  /// (corner brackets; dashes are centred on edge midpoints and on a circle's extreme points).
  package var checkpoints: [Point] {
    switch self {
    case .polygon(let p):
      let mids = p.indices.map { i in
        let q = p[(i + 1) % p.count]
        return Point(x: (p[i].x + q.x) / 2, y: (p[i].y + q.y) / 2)
      }
      return p + mids
    case .circle(let c, let r):
      return [
        Point(x: c.x + r, y: c.y), Point(x: c.x, y: c.y + r), Point(x: c.x - r, y: c.y), Point(x: c.x, y: c.y - r),
      ]
    }
  }

  /// Signed distance to the outline: negative inside.
  package func signedDistance(_ p: Point) -> Double {
    switch self {
    case .circle(let c, let r):
      return Coverage.hypot(p.x - c.x, p.y - c.y) - r
    case .polygon(let points):
      return polygonDistance(p, points).signed
    }
  }

  /// Coverage (0…1) of the dashed line and of its halo at `p`.
  func stroke(_ p: Point) -> (line: Double, halo: Double) {
    let period = PreviewStyle.dash + PreviewStyle.gap
    switch self {
    case .circle(let c, let r):
      let d = Coverage.hypot(p.x - c.x, p.y - c.y) - r
      let halo = Coverage.stroke(d, width: PreviewStyle.lineWidth + 2 * PreviewStyle.haloWidth)
      guard halo > 0 else { return (0, 0) }
      var on = 1.0
      let count = 4 * max(1, Int((2 * Double.pi * r / (4 * period)).rounded()))
      if r > 6 {
        let step = 2 * Double.pi / Double(count)
        var u = atan2(p.y - c.y, p.x - c.x).truncatingRemainder(dividingBy: step)
        if u < 0 { u += step }
        on = min(1, max(0, PreviewStyle.dash / 2 - min(u, step - u) * r + 0.5))
      }
      return (Coverage.stroke(d, width: PreviewStyle.lineWidth) * on, halo)
    case .polygon(let points):
      let nearest = polygonDistance(p, points)
      let length = nearest.length
      let bracket = min(PreviewStyle.bracketLength, length * 0.3)
      let inBracket = nearest.along < bracket || nearest.along > length - bracket
      let width = inBracket ? PreviewStyle.bracketWidth : PreviewStyle.lineWidth
      let halo = Coverage.stroke(nearest.signed, width: width + 2 * PreviewStyle.haloWidth)
      guard halo > 0 else { return (0, 0) }
      var on = 1.0
      if !inBracket {
        // Dashes symmetric about the edge's midpoint, one centred on it.
        let phase = abs(nearest.along - length / 2).truncatingRemainder(dividingBy: period)
        on = min(1, max(0, PreviewStyle.dash / 2 - min(phase, period - phase) + 0.5))
      }
      return (Coverage.stroke(nearest.signed, width: width) * on, halo)
    }
  }

  /// Signed distance to a convex polygon, with the nearest edge's length and the position
  /// along it. (Runs for every pixel of a panel: no allocation.)
  private func polygonDistance(_ p: Point, _ points: [Point]) -> (signed: Double, along: Double, length: Double) {
    var bestDistance = Double.infinity
    var bestAlong = 0.0
    var bestLength = 0.0
    var area = 0.0
    var anyPositive = false
    var anyNegative = false
    let n = points.count
    for i in 0..<n {
      let a = points[i]
      let b = points[i + 1 == n ? 0 : i + 1]
      let dx = b.x - a.x
      let dy = b.y - a.y
      area += a.x * b.y - b.x * a.y
      let side = dx * (p.y - a.y) - dy * (p.x - a.x)
      if side > 0 { anyPositive = true } else if side < 0 { anyNegative = true }
      let length = (dx * dx + dy * dy).squareRoot()
      var t = 0.0
      if length > 0 { t = max(0, min(length, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length)) }
      let qx = length > 0 ? a.x + dx * t / length : a.x
      let qy = length > 0 ? a.y + dy * t / length : a.y
      let distance = ((p.x - qx) * (p.x - qx) + (p.y - qy) * (p.y - qy)).squareRoot()
      if distance < bestDistance {
        bestDistance = distance
        bestAlong = t
        bestLength = length
      }
    }
    let inside = area >= 0 ? !anyNegative : !anyPositive
    return (inside ? -bestDistance : bestDistance, bestAlong, bestLength)
  }
}

/// The focus point (yellow ring with ticks) and the smart-crop point (cyan diamond).
struct PointMarker {
  enum Kind { case focus, smart }
  var centre: Point
  var kind: Kind

  var colour: [UInt8] { kind == .focus ? PreviewStyle.focus : PreviewStyle.smart }
  var box: Rect { Rect(x: centre.x - 18, y: centre.y - 18, width: 36, height: 36) }

  /// Distance from `p` to the marker's strokes.
  func distance(_ p: Point) -> Double {
    let dx = p.x - centre.x
    let dy = p.y - centre.y
    switch kind {
    case .focus:
      var d = abs(Coverage.hypot(dx, dy) - 6)
      for (ux, uy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        let a = Point(x: centre.x + 9 * ux, y: centre.y + 9 * uy)
        let b = Point(x: centre.x + 14 * ux, y: centre.y + 14 * uy)
        d = min(d, Coverage.segment(p, a, b).distance)
      }
      return d
    case .smart:
      let diamond = abs(abs(dx) + abs(dy) - 9) / 2.0.squareRoot()
      return min(diamond, max(0, Coverage.hypot(dx, dy) - 1.5))
    }
  }

  func stroke(_ p: Point) -> (line: Double, halo: Double) {
    let d = distance(p)
    return (Coverage.stroke(d, width: 2), Coverage.stroke(d, width: 2 + 2 * PreviewStyle.haloWidth))
  }
}

/// A face or region box (solid, 2 px) and the same box grown by the padding used (1 px), in
/// body pixels; green when the placement kept it inside the guide, amber when it did not. A
/// box without area (a stored focus point) is drawn as a ring of radius `pointRadius` about it.
struct BoxMarker {
  var box: Rect
  var padded: Rect?
  var kept: Bool

  /// The ring's radius, in body pixels, for a box without area.
  static let pointRadius = 5.0
  var isPoint: Bool { box.width == 0 && box.height == 0 }

  var colour: [UInt8] { kept ? PreviewStyle.box : PreviewStyle.warning }
  /// Where it draws (both boxes and their halo).
  var area: Rect {
    let outer = padded ?? box
    let margin = isPoint ? Self.pointRadius + 4 : 4
    let x0 = min(outer.minX, box.minX) - margin
    let y0 = min(outer.minY, box.minY) - margin
    return Rect(
      x: x0, y: y0, width: max(outer.maxX, box.maxX) + margin - x0, height: max(outer.maxY, box.maxY) + margin - y0)
  }

  /// Distance from `p` to a rectangle's outline.
  static func distance(_ p: Point, _ r: Rect) -> Double {
    let dx = max(r.minX - p.x, 0, p.x - r.maxX)
    let dy = max(r.minY - p.y, 0, p.y - r.maxY)
    if dx > 0 || dy > 0 { return Coverage.hypot(dx, dy) }
    return min(p.x - r.minX, r.maxX - p.x, p.y - r.minY, r.maxY - p.y)
  }

  func stroke(_ p: Point) -> (line: Double, halo: Double) {
    let d = isPoint ? abs(Coverage.hypot(p.x - box.x, p.y - box.y) - Self.pointRadius) : Self.distance(p, box)
    var line = Coverage.stroke(d, width: 2)
    var halo = Coverage.stroke(d, width: 2 + 2 * PreviewStyle.haloWidth)
    if let padded {
      let e = Self.distance(p, padded)
      line = max(line, Coverage.stroke(e, width: 1))
      halo = max(halo, Coverage.stroke(e, width: 1 + 2 * PreviewStyle.haloWidth))
    }
    return (line, halo)
  }
}
