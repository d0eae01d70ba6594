/// The dominant colour: the most populated cell of a coarse colour histogram, averaged
/// within the cell. Pixels of the placeholder copy whose alpha is at least one half count,
/// each once, by their straight (un-premultiplied) colour; the histogram has 8 levels a
/// channel (cells of 32 values: 512 cells); the cell with the most pixels wins (on a tie,
/// the one with the lowest red, then green, then blue level), and its colour is the mean of
/// its pixels, rounded. With no pixel at least half opaque, the alpha-weighted mean colour.
enum DominantColour {
  static let levels = 8
  static let minimumAlpha = 0.5

  /// `#rrggbb` (lowercase) of `copy`'s dominant colour.
  static func hex(_ copy: PlaceholderCopy) -> String {
    let cells = levels * levels * levels
    var counts = [Int](repeating: 0, count: cells)
    var sums = [Double](repeating: 0, count: cells * 3)
    let step = 256.0 / Double(levels)
    for p in stride(from: 0, to: copy.pixels.count, by: 4) {
      let alpha = copy.pixels[p + 3]
      guard alpha >= minimumAlpha else { continue }
      let rgb = (0..<3).map { min(255, copy.pixels[p + $0] / alpha) }
      let cell = rgb.reduce(0) { $0 * levels + min(levels - 1, Int($1 / step)) }
      counts[cell] += 1
      for c in 0..<3 { sums[cell * 3 + c] += rgb[c] }
    }
    var best = 0
    for cell in 1..<cells where counts[cell] > counts[best] { best = cell }
    let colour: [Double]
    if counts[best] > 0 {
      colour = (0..<3).map { sums[best * 3 + $0] / Double(counts[best]) }
    } else {
      let m = copy.mean
      colour = [m.red, m.green, m.blue]
    }
    return "#" + colour.map { hexByte(Int(($0 + 0.5).rounded(.down))) }.joined()
  }

  static func hexByte(_ value: Int) -> String {
    let digits = Array("0123456789abcdef")
    let v = max(0, min(255, value))
    return String([digits[v >> 4], digits[v & 15]])
  }
}
