import Foundation

/// BlurHash (woltapp/blurhash, the reference encoder's algorithm): the image's cosine
/// transform in linear light, `x` × `y` components, the DC as 24-bit sRGB and each AC
/// quantised to 19 levels a channel, square-root companded, in base 83.
enum BlurHash {
  static let alphabet = Array(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

  /// Linear light of each 8-bit sRGB level.
  static let linearLevels = (0..<256).map { sRGBToLinear(Double($0) / 255) }

  /// The hash of `rgb` (straight sRGB, 0...255, 3 values a pixel, `width` × `height`), with
  /// `x` components across and `y` down (1...9 each). The values are rounded to whole levels,
  /// as the 8-bit pixels the reference encoder takes.
  static func encode(rgb: [Double], width: Int, height: Int, x: Int, y: Int) -> String {
    precondition((1...9).contains(x) && (1...9).contains(y) && rgb.count == width * height * 3)
    let linear = rgb.withUnsafeBufferPointer { rgb in
      Self.linearLevels.withUnsafeBufferPointer { levels in
        rgb.map { levels[max(0, min(255, Int(($0 + 0.5).rounded(.down))))] }
      }
    }
    // basis(i, px) = cos(π i px / width), as the reference (no half-pixel offset); flat tables.
    let cosX = Placeholders.cosines(count: x, size: width, offset: 0)
    let cosY = Placeholders.cosines(count: y, size: height, offset: 0)
    // Separable: each row's sum against cos(i) first, then the rows' against cos(j).
    var rowSums = [Double](repeating: 0, count: x * height * 3)
    linear.withUnsafeBufferPointer { linear in
      cosX.withUnsafeBufferPointer { cosX in
        rowSums.withUnsafeMutableBufferPointer { rowSums in
          for row in 0..<height {
            for i in 0..<x {
              var sum = (0.0, 0.0, 0.0)
              for px in 0..<width {
                let p = (row &* width &+ px) &* 3
                let c = cosX[i &* width &+ px]
                sum.0 += linear[p] * c
                sum.1 += linear[p &+ 1] * c
                sum.2 += linear[p &+ 2] * c
              }
              let o = (i * height + row) * 3
              (rowSums[o], rowSums[o + 1], rowSums[o + 2]) = sum
            }
          }
        }
      }
    }
    var factors: [(Double, Double, Double)] = []
    for j in 0..<y {
      for i in 0..<x {
        var sum = (0.0, 0.0, 0.0)
        for row in 0..<height {
          let o = (i * height + row) * 3
          let c = cosY[j * height + row]
          sum.0 += rowSums[o] * c
          sum.1 += rowSums[o + 1] * c
          sum.2 += rowSums[o + 2] * c
        }
        let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(width * height)
        factors.append((sum.0 * scale, sum.1 * scale, sum.2 * scale))
      }
    }
    var hash = base83((x - 1) + (y - 1) * 9, length: 1)
    let ac = factors.dropFirst()
    var maximum = 1.0
    if ac.isEmpty {
      hash += base83(0, length: 1)
    } else {
      let largest = ac.map { max(abs($0.0), abs($0.1), abs($0.2)) }.max()!
      let quantised = max(0, min(82, Int((largest * 166 - 0.5).rounded(.down))))
      maximum = Double(quantised + 1) / 166
      hash += base83(quantised, length: 1)
    }
    let dc = factors[0]
    hash += base83((linearToSRGB(dc.0) << 16) + (linearToSRGB(dc.1) << 8) + linearToSRGB(dc.2), length: 4)
    for f in ac {
      func q(_ v: Double) -> Int { max(0, min(18, Int((signPow(v / maximum, 0.5) * 9 + 9.5).rounded(.down)))) }
      hash += base83(q(f.0) * 19 * 19 + q(f.1) * 19 + q(f.2), length: 2)
    }
    return hash
  }

  static func base83(_ value: Int, length: Int) -> String {
    var digits: [UInt8] = []
    var divisor = 1
    for _ in 1..<length { divisor *= 83 }
    for _ in 0..<length {
      digits.append(alphabet[(value / divisor) % 83])
      divisor /= 83
    }
    return String(decoding: digits, as: UTF8.self)
  }

  static func sRGBToLinear(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
  }

  static func linearToSRGB(_ value: Double) -> Int {
    let v = max(0, min(1, value))
    return v <= 0.0031308 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
  }

  static func signPow(_ value: Double, _ exponent: Double) -> Double {
    (value < 0 ? -1 : 1) * pow(abs(value), exponent)
  }
}
