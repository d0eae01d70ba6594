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
    func level(_ v: Double) -> Int { min(levels - 1, Int(v / step)) }
    copy.pixels.withUnsafeBufferPointer { pixels in
      counts.withUnsafeMutableBufferPointer { counts in
        sums.withUnsafeMutableBufferPointer { sums in
          for p in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = pixels[p &+ 3]
            guard alpha >= minimumAlpha else { continue }
            let straight = 1 / alpha
            let r = min(255, pixels[p] * straight)
            let g = min(255, pixels[p &+ 1] * straight)
            let b = min(255, pixels[p &+ 2] * straight)
            let cell = (level(r) &* levels &+ level(g)) &* levels &+ level(b)
            counts[cell] &+= 1
            sums[cell &* 3] += r
            sums[cell &* 3 &+ 1] += g
            sums[cell &* 3 &+ 2] += b
          }
        }
      }
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
