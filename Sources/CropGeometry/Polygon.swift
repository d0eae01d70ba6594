import Foundation

/// Convex-polygon helpers used to measure footprints and sampled regions.
public enum Polygon {
  /// Clips a convex polygon (vertices in order) to an axis-aligned rectangle
  /// (Sutherland–Hodgman). Returns the vertices of the intersection, possibly empty.
  public static func clip(_ polygon: [Point], to rect: Rect) -> [Point] {
    var pts = polygon
    // Each edge: a predicate "inside" and the intersection with the boundary line.
    let edges: [(inside: (Point) -> Bool, cut: (Point, Point) -> Point)] = [
      ({ $0.x >= rect.minX }, { crossX($0, $1, rect.minX) }),
      ({ $0.x <= rect.maxX }, { crossX($0, $1, rect.maxX) }),
      ({ $0.y >= rect.minY }, { crossY($0, $1, rect.minY) }),
      ({ $0.y <= rect.maxY }, { crossY($0, $1, rect.maxY) }),
    ]
    for edge in edges {
      guard !pts.isEmpty else { break }
      var out: [Point] = []
      for i in pts.indices {
        let cur = pts[i]
        let prev = pts[(i + pts.count - 1) % pts.count]
        let curIn = edge.inside(cur)
        let prevIn = edge.inside(prev)
        if curIn {
          if !prevIn { out.append(edge.cut(prev, cur)) }
          out.append(cur)
        } else if prevIn {
          out.append(edge.cut(prev, cur))
        }
      }
      pts = out
    }
    return pts
  }

  /// Area of a simple polygon (shoelace), non-negative.
  public static func area(_ polygon: [Point]) -> Double {
    guard polygon.count >= 3 else { return 0 }
    var sum = 0.0
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      sum += p.x * q.y - q.x * p.y
    }
    return abs(sum) / 2
  }

  private static func crossX(_ p: Point, _ q: Point, _ x: Double) -> Point {
    let t = (x - p.x) / (q.x - p.x)
    return Point(x: x, y: p.y + t * (q.y - p.y))
  }

  private static func crossY(_ p: Point, _ q: Point, _ y: Double) -> Point {
    let t = (y - p.y) / (q.y - p.y)
    return Point(x: p.x + t * (q.x - p.x), y: y)
  }
}
