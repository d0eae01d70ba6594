import CropGeometry
import CropImaging

/// Drawing on an RGB raster: fills, blits, masks and antialiased shapes given by a coverage
/// function. Coordinates are continuous, pixel (i, j) has its centre at (i + 0.5, j + 0.5).
extension Raster {
  /// Fills a pixel rectangle (clipped) with an opaque colour.
  mutating func fill(x: Int, y: Int, width w: Int, height h: Int, colour: [UInt8]) {
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(width, x + w)
    let y1 = min(height, y + h)
    guard x0 < x1, y0 < y1 else { return }
    for row in y0..<y1 {
      var i = (row * width + x0) * bands
      for _ in x0..<x1 {
        for b in 0..<bands { pixels[i + b] = colour[b] }
        i += bands
      }
    }
  }

  /// Blends `colour` over pixel (x, y) with opacity `alpha` (0…1); outside pixels are ignored.
  mutating func blend(x: Int, y: Int, colour: [UInt8], alpha: Double) {
    guard alpha > 0, x >= 0, y >= 0, x < width, y < height else { return }
    let i = (y * width + x) * bands
    let a = min(1, alpha)
    for b in 0..<Swift.min(3, bands) {
      let v = Double(pixels[i + b]) * (1 - a) + Double(colour[b]) * a
      pixels[i + b] = UInt8(max(0, min(255, v.rounded())))
    }
  }

  /// A checkerboard (transparency) over a pixel rectangle.
  mutating func checkerboard(x: Int, y: Int, width w: Int, height h: Int, cell: Int = 8) {
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(width, x + w)
    let y1 = min(height, y + h)
    guard x0 < x1, y0 < y1 else { return }
    for row in y0..<y1 {
      for col in x0..<x1 {
        let light = ((col - x) / cell + (row - y) / cell) % 2 == 0
        let colour = light ? PreviewStyle.checkerLight : PreviewStyle.checkerDark
        let i = (row * width + col) * bands
        for b in 0..<3 { pixels[i + b] = colour[b] }
      }
    }
  }

  /// Draws `image` (1 grey, 3 RGB or 4 RGBA bands, not premultiplied) with its top-left at (x, y).
  mutating func draw(_ image: Raster, x: Int, y: Int) {
    for row in 0..<image.height {
      let ty = y + row
      guard ty >= 0, ty < height else { continue }
      for col in 0..<image.width {
        let tx = x + col
        guard tx >= 0, tx < width else { continue }
        let s = (row * image.width + col) * image.bands
        let t = (ty * width + tx) * bands
        switch image.bands {
        case 1:
          for b in 0..<3 { pixels[t + b] = image.pixels[s] }
        case 2:
          let a = Int(image.pixels[s + 1])
          for b in 0..<3 { pixels[t + b] = mix(pixels[t + b], image.pixels[s], a) }
        case 3:
          for b in 0..<3 { pixels[t + b] = image.pixels[s + b] }
        default:
          let a = Int(image.pixels[s + 3])
          if a == 255 {
            for b in 0..<3 { pixels[t + b] = image.pixels[s + b] }
          } else if a > 0 {
            for b in 0..<3 { pixels[t + b] = mix(pixels[t + b], image.pixels[s + b], a) }
          }
        }
      }
    }
  }

  /// `under` and `over` mixed by `alpha` (0…255), rounded.
  @inline(__always)
  private func mix(_ under: UInt8, _ over: UInt8, _ alpha: Int) -> UInt8 {
    UInt8((Int(under) * (255 - alpha) + Int(over) * alpha + 127) / 255)
  }

  /// Paints `colour` through a one-band ink mask with its top-left at (x, y), clipped to
  /// `clipWidth` columns from x when given.
  mutating func draw(mask: Raster, x: Int, y: Int, colour: [UInt8], clipWidth: Int? = nil) {
    let columns = min(mask.width, clipWidth ?? mask.width)
    for row in 0..<mask.height {
      for col in 0..<columns {
        let v = mask.pixels[row * mask.width + col]
        if v > 0 { blend(x: x + col, y: y + row, colour: colour, alpha: Double(v) / 255) }
      }
    }
  }

  /// Blends `colour` with the opacity `coverage(p)` (0…1, p = pixel centre) over the pixels of
  /// `box` (clipped to the raster).
  mutating func paint(in box: Rect, colour: [UInt8], opacity: Double = 1, coverage: (Point) -> Double) {
    let (cols, rows) = pixels(in: box)
    for row in rows {
      for col in cols {
        let c = coverage(Point(x: Double(col) + 0.5, y: Double(row) + 0.5))
        if c > 0 { blend(x: col, y: row, colour: colour, alpha: c * opacity) }
      }
    }
  }

  /// The columns and rows of the pixels `box` touches, clipped to the raster (empty ranges
  /// when it misses).
  func pixels(in box: Rect) -> (cols: Range<Int>, rows: Range<Int>) {
    let x0 = max(0, Int(box.minX.rounded(.down)))
    let y0 = max(0, Int(box.minY.rounded(.down)))
    let x1 = min(width, Int(box.maxX.rounded(.up)))
    let y1 = min(height, Int(box.maxY.rounded(.up)))
    return (x0..<max(x0, x1), y0..<max(y0, y1))
  }

  /// Multiplies the pixels of `box` by `factor(p)` (1 = unchanged).
  mutating func scaleBrightness(in box: Rect, factor: (Point) -> Double) {
    let (cols, rows) = pixels(in: box)
    for row in rows {
      for col in cols {
        let f = factor(Point(x: Double(col) + 0.5, y: Double(row) + 0.5))
        guard f < 1 else { continue }
        let i = (row * width + col) * bands
        for b in 0..<3 { pixels[i + b] = UInt8((Double(pixels[i + b]) * max(0, f)).rounded()) }
      }
    }
  }

  /// A copy of the pixel rectangle (clipped).
  func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Raster {
    var out = Raster(width: w, height: h, colour: Array(repeating: 0, count: bands))
    for row in 0..<h where y + row >= 0 && y + row < height {
      for col in 0..<w where x + col >= 0 && x + col < width {
        let s = ((y + row) * width + x + col) * bands
        let t = (row * w + col) * bands
        for b in 0..<bands { out.pixels[t + b] = pixels[s + b] }
      }
    }
    return out
  }
}

/// Coverage helpers: antialiased from a signed distance (negative inside).
enum Coverage {
  /// Coverage of a band of `width` centred on a curve at distance `d`.
  static func stroke(_ d: Double, width: Double) -> Double {
    min(1, max(0, width / 2 - abs(d) + 0.5))
  }

  /// Coverage of the inside of a shape at signed distance `d`.
  static func fill(_ d: Double) -> Double {
    min(1, max(0, 0.5 - d))
  }

  /// Distance from `p` to the segment `a`–`b`, and the position of the nearest point along it
  /// (0 at a, the segment's length at b).
  static func segment(_ p: Point, _ a: Point, _ b: Point) -> (distance: Double, along: Double) {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0 else { return (hypot(p.x - a.x, p.y - a.y), 0) }
    let t = max(0, min(length, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
    let qx = a.x + dx * t / length
    let qy = a.y + dy * t / length
    return (hypot(p.x - qx, p.y - qy), t)
  }

  static func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
}
