import Foundation

/// Recognises an ICC profile that describes sRGB (docs/decoding.md): an RGB matrix/shaper
/// profile (no A2B lookup tables, which a colour transform would use instead) whose three
/// primaries are sRGB's (D50-adapted, as every ICC v2/v4 sRGB profile stores them) within
/// 0.003 in XYZ, and whose three tone curves follow sRGB's transfer function within 0.002 over
/// 0...1. Recognised by content, not by name: "sRGB IEC61966-2.1" (HP/Microsoft, Apple, Adobe),
/// "sRGB built-in" and Android's "sRGB" pass; a profile merely named sRGB with other primaries
/// or curves does not. Converting such a source to sRGB moves its pixels by rounding only, so
/// the direct JPEG decode may treat it as untagged.
enum SRGBProfile {
  /// sRGB's primaries adapted to D50 (IEC 61966-2-1, Bradford), as the rXYZ/gXYZ/bXYZ tags hold them.
  private static let primaries: [String: [Double]] = [
    "rXYZ": [0.4361, 0.2225, 0.0139], "gXYZ": [0.3851, 0.7169, 0.0971], "bXYZ": [0.1431, 0.0606, 0.7141],
  ]

  static func isSRGB(_ profile: [UInt8]) -> Bool {
    guard profile.count >= 132, text(profile, 16) == "RGB ", text(profile, 20) == "XYZ " else { return false }
    guard let count = u32(profile, 128), count <= 256, 132 + 12 * count <= profile.count else { return false }
    var tags: [String: (offset: Int, size: Int)] = [:]
    for i in 0..<count {
      let at = 132 + 12 * i
      guard let offset = u32(profile, at + 4), let size = u32(profile, at + 8), offset + size <= profile.count else {
        return false
      }
      tags[text(profile, at)] = (offset, size)
    }
    if ["A2B0", "A2B1", "A2B2", "D2B0", "D2B1", "D2B2"].contains(where: { tags[$0] != nil }) { return false }
    for (name, expected) in primaries {
      guard let tag = tags[name], tag.size >= 20, text(profile, tag.offset) == "XYZ " else { return false }
      for axis in 0..<3 {
        guard let value = s15(profile, tag.offset + 8 + 4 * axis), abs(value - expected[axis]) <= 0.003 else {
          return false
        }
      }
    }
    for name in ["rTRC", "gTRC", "bTRC"] {
      guard let tag = tags[name], let curve = toneCurve(profile, tag.offset, tag.size) else { return false }
      for step in 0...255 {
        let x = Double(step) / 255
        if abs(curve(x) - srgb(x)) > 0.002 { return false }
      }
    }
    return true
  }

  /// sRGB's transfer function (encoded value to linear light).
  private static func srgb(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }

  /// A 'curv' (table of at least two entries, linearly interpolated) or 'para' tag as a function.
  private static func toneCurve(_ p: [UInt8], _ offset: Int, _ size: Int) -> ((Double) -> Double)? {
    switch text(p, offset) {
    case "curv":
      guard let n = u32(p, offset + 8), n >= 2, 12 + 2 * n <= size else { return nil }
      let table = (0..<n).map { Double(Int(p[offset + 12 + 2 * $0]) << 8 | Int(p[offset + 13 + 2 * $0])) / 65535 }
      return { x in
        let position = x * Double(n - 1)
        let i = min(n - 2, Int(position))
        let t = position - Double(i)
        return table[i] * (1 - t) + table[i + 1] * t
      }
    case "para":
      guard offset + 12 <= p.count else { return nil }
      let type = Int(p[offset + 8]) << 8 | Int(p[offset + 9])
      let counts = [1, 3, 4, 5, 7]
      guard type < counts.count, 12 + 4 * counts[type] <= size else { return nil }
      let v = (0..<counts[type]).compactMap { s15(p, offset + 12 + 4 * $0) }
      guard v.count == counts[type] else { return nil }
      let g = v[0]
      switch type {
      case 0: return { pow($0, g) }
      case 1: return { $0 >= -v[2] / v[1] ? pow(v[1] * $0 + v[2], g) : 0 }
      case 2: return { $0 >= -v[2] / v[1] ? pow(v[1] * $0 + v[2], g) + v[3] : v[3] }
      case 3: return { $0 >= v[4] ? pow(v[1] * $0 + v[2], g) : v[3] * $0 }
      default: return { $0 >= v[4] ? pow(v[1] * $0 + v[2], g) + v[5] : v[3] * $0 + v[6] }
      }
    default:
      return nil
    }
  }

  private static func text(_ p: [UInt8], _ at: Int) -> String {
    guard at >= 0, at + 4 <= p.count else { return "" }
    return String(decoding: p[at..<at + 4], as: UTF8.self)
  }

  private static func u32(_ p: [UInt8], _ at: Int) -> Int? {
    guard at >= 0, at + 4 <= p.count else { return nil }
    return Int(p[at]) << 24 | Int(p[at + 1]) << 16 | Int(p[at + 2]) << 8 | Int(p[at + 3])
  }

  private static func s15(_ p: [UInt8], _ at: Int) -> Double? {
    guard let raw = u32(p, at) else { return nil }
    return Double(Int32(bitPattern: UInt32(raw))) / 65536
  }
}
