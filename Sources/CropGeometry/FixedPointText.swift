import Foundation

/// `String(format: "%.<digits>f", v)`: the exact binary value of `v` rounded to `digits`
/// decimals, half to even (as the C library's `printf` rounds in the default rounding mode),
/// `-` kept on negative values and negative zero. Worked out with integers for a finite,
/// normal `v` below 2^62 and `digits` 0...9 (a batch's upscale warnings make one per
/// output); anything else goes through the C library.
package func fixedPointText(_ v: Double, digits: Int) -> String {
  guard v.isNormal || v == 0, (0...9).contains(digits), v.magnitude < 0x1p62 else {
    return String(format: "%.\(digits)f", v)
  }
  var power: UInt64 = 1
  for _ in 0..<digits { power *= 10 }
  // |v| = significand × 2^exponent, the significand an integer below 2^53.
  let significand: UInt64 = v == 0 ? 0 : (1 << 52) | v.significandBitPattern
  let exponent = v == 0 ? 0 : Int(v.exponent) - 52
  let scaled = UInt128(significand) * UInt128(power)  // below 2^53 × 10^9 < 2^83
  var units: UInt128
  if exponent >= 0 {
    units = scaled << exponent  // below 2^62 × 10^9 < 2^92
  } else if -exponent >= 100 {
    units = 0  // below half a unit: |v| × 10^9 < 2^-17
  } else {
    let shift = -exponent
    units = scaled >> shift
    let rest = scaled - (units << shift)
    let half = UInt128(1) << (shift - 1)
    if rest > half || (rest == half && units & 1 == 1) { units += 1 }
  }
  var text = v.sign == .minus ? "-" : ""
  text += String(units / UInt128(power))
  guard digits > 0 else { return text }
  let fraction = String(units % UInt128(power))
  text += "."
  text += String(repeating: "0", count: digits - fraction.count)
  text += fraction
  return text
}
