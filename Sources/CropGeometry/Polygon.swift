import Foundation

/// Convex-polygon helpers used to measure footprints and sampled regions.
package enum Polygon {
  /// Clips a convex polygon (vertices in order) to an axis-aligned rectangle
  /// (Sutherland–Hodgman). Returns the vertices of the intersection, possibly empty. The
  /// edges are taken in turn (left, right, bottom, top) into one buffer swapped with the
  /// polygon's: two arrays however many edges (it runs for every planned output).
  package static func clip(_ polygon: [Point], to rect: Rect) -> [Point] {
    var pts = polygon
    var out: [Point] = []
    out.reserveCapacity(polygon.count + 4)
    for edge in Edge.allCases {
      guard let last = pts.last else { break }
      out.removeAll(keepingCapacity: true)
      var prev = last
      var prevIn = edge.holds(prev, rect)
      for cur in pts {
        let curIn = edge.holds(cur, rect)
        if curIn != prevIn { out.append(edge.cut(prev, cur, rect)) }
        if curIn { out.append(cur) }
        (prev, prevIn) = (cur, curIn)
      }
      swap(&pts, &out)
    }
    return pts
  }

  /// A side of the clipping rectangle: which points it keeps, and where a segment crosses it.
  private enum Edge: CaseIterable {
    case minX, maxX, minY, maxY

    func holds(_ p: Point, _ rect: Rect) -> Bool {
      switch self {
      case .minX: p.x >= rect.minX
      case .maxX: p.x <= rect.maxX
      case .minY: p.y >= rect.minY
      case .maxY: p.y <= rect.maxY
      }
    }

    func cut(_ p: Point, _ q: Point, _ rect: Rect) -> Point {
      switch self {
      case .minX: crossX(p, q, rect.minX)
      case .maxX: crossX(p, q, rect.maxX)
      case .minY: crossY(p, q, rect.minY)
      case .maxY: crossY(p, q, rect.maxY)
      }
    }
  }

  /// Area of a simple polygon (shoelace), non-negative.
  package static func area(_ polygon: [Point]) -> Double {
    guard polygon.count >= 3 else { return 0 }
    var sum = 0.0
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      sum += p.x * q.y - q.x * p.y
    }
    return abs(sum) / 2
  }

  fileprivate static func crossX(_ p: Point, _ q: Point, _ x: Double) -> Point {
    let t = (x - p.x) / (q.x - p.x)
    return Point(x: x, y: p.y + t * (q.y - p.y))
  }

  fileprivate static func crossY(_ p: Point, _ q: Point, _ y: Double) -> Point {
    let t = (y - p.y) / (q.y - p.y)
    return Point(x: p.x + t * (q.x - p.x), y: y)
  }
}
