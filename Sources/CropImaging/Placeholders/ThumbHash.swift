import Foundation

/// ThumbHash (Evan Wallace, evanw/thumbhash, the reference `rgbaToThumbHash`): the image
/// composited over its alpha-weighted mean colour, in the LPQ colour space (luminance and
/// two chroma channels), each channel's low-frequency cosine transform (luminance up to 7
/// components on the longer side, 5 with alpha; chroma 3; alpha 5) quantised to 4 bits
/// beside a header of the DC values, scales, aspect and whether there is alpha.
enum ThumbHash {
  /// The hash of `copy` (at most 100 × 100 pixels, as the reference requires).
  static func encode(_ copy: PlaceholderCopy) -> [UInt8] {
    let (w, h) = (copy.width, copy.height)
    precondition(w <= 100 && h <= 100, "ThumbHash: \(w)x\(h) is larger than 100x100")
    // The reference's averages: colour weighted by alpha, over the sum of alpha.
    var avg = (0.0, 0.0, 0.0, 0.0)
    copy.pixels.withUnsafeBufferPointer { pixels in
      for p in stride(from: 0, to: pixels.count, by: 4) {
        avg.0 += pixels[p] / 255
        avg.1 += pixels[p &+ 1] / 255
        avg.2 += pixels[p &+ 2] / 255
        avg.3 += pixels[p &+ 3]
      }
    }
    if avg.3 > 0 {
      avg.0 /= avg.3
      avg.1 /= avg.3
      avg.2 /= avg.3
    }
    // The reference takes 8-bit RGBA: the image has alpha when some pixel's alpha is below
    // 255 in 8 bits. An area-averaged copy of an opaque image can hold alphas a rounding
    // error below 1 (1100 x 733 to 32 x 21), which must not set the flag (issue 40).
    let hasAlpha = !copy.isOpaque
    let lLimit = hasAlpha ? 5.0 : 7.0
    let lx = max(1, jsRound(lLimit * Double(w) / Double(max(w, h))))
    let ly = max(1, jsRound(lLimit * Double(h) / Double(max(w, h))))
    var l = [Double](repeating: 0, count: w * h)
    var pc = l
    var qc = l
    var a = l
    copy.pixels.withUnsafeBufferPointer { pixels in
      for i in 0..<(w * h) {
        let alpha = hasAlpha ? pixels[i &* 4 &+ 3] : 1
        let r = avg.0 * (1 - alpha) + pixels[i &* 4] / 255
        let g = avg.1 * (1 - alpha) + pixels[i &* 4 &+ 1] / 255
        let b = avg.2 * (1 - alpha) + pixels[i &* 4 &+ 2] / 255
        l[i] = (r + g + b) / 3
        pc[i] = (r + g) / 2 - b
        qc[i] = r - g
        a[i] = alpha
      }
    }
    let cosines = Cosines(w, h, count: max(7, lx, ly))
    let lChannel = channel(l, cosines, nx: max(3, lx), ny: max(3, ly))
    let pChannel = channel(pc, cosines, nx: 3, ny: 3)
    let qChannel = channel(qc, cosines, nx: 3, ny: 3)
    let aChannel = hasAlpha ? channel(a, cosines, nx: 5, ny: 5) : nil
    let isLandscape = w > h
    let header24 =
      jsRound(63 * lChannel.dc) | (jsRound(31.5 + 31.5 * pChannel.dc) << 6)
      | (jsRound(31.5 + 31.5 * qChannel.dc) << 12) | (jsRound(31 * lChannel.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
    let header16 =
      (isLandscape ? ly : lx) | (jsRound(63 * pChannel.scale) << 3) | (jsRound(63 * qChannel.scale) << 9)
      | ((isLandscape ? 1 : 0) << 15)
    var hash: [UInt8] = [
      UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16), UInt8(header16 & 255),
      UInt8(header16 >> 8),
    ]
    if let aChannel {
      hash.append(UInt8(jsRound(15 * aChannel.dc) | (jsRound(15 * aChannel.scale) << 4)))
    }
    var index = 0
    for ac in [lChannel.ac, pChannel.ac, qChannel.ac] + (aChannel.map { [$0.ac] } ?? []) {
      for f in ac {
        let nibble = UInt8(jsRound(15 * f))
        if index & 1 == 0 { hash.append(nibble) } else { hash[hash.count - 1] |= nibble << 4 }
        index += 1
      }
    }
    return hash
  }

  /// cos(π / w · cx · (x + ½)) and cos(π / h · cy · (y + ½)) for the first `count`
  /// components, computed once for every channel.
  struct Cosines {
    let w: Int
    let h: Int
    /// `across[cx * w + x]`, `down[cy * h + y]`.
    let across: [Double]
    let down: [Double]

    init(_ w: Int, _ h: Int, count: Int) {
      self.w = w
      self.h = h
      across = Placeholders.cosines(count: count, size: w, offset: 0.5)
      down = Placeholders.cosines(count: count, size: h, offset: 0.5)
    }
  }

  /// One channel's DC, its AC values mapped to 0...1 by their largest magnitude, and that
  /// magnitude (the reference's `encodeChannel`, with each row's sums done once).
  static func channel(_ values: [Double], _ cosines: Cosines, nx: Int, ny: Int) -> (
    dc: Double, ac: [Double], scale: Double
  ) {
    let (w, h) = (cosines.w, cosines.h)
    var dc = 0.0
    var ac: [Double] = []
    var scale = 0.0
    // Each row's sum against cos(cx) once, then the rows' against cos(cy).
    var rows = [Double](repeating: 0, count: nx * h)
    values.withUnsafeBufferPointer { v in
      cosines.across.withUnsafeBufferPointer { across in
        for cx in 0..<nx {
          for y in 0..<h {
            var row = 0.0
            for x in 0..<w { row += v[x &+ y &* w] * across[cx &* w &+ x] }
            rows[cx * h + y] = row
          }
        }
      }
    }
    for cy in 0..<ny {
      var cx = 0
      while cx * ny < nx * (ny - cy) {
        var f = 0.0
        for y in 0..<h { f += rows[cx * h + y] * cosines.down[cy * h + y] }
        f /= Double(w * h)
        if cx > 0 || cy > 0 {
          ac.append(f)
          scale = max(scale, abs(f))
        } else {
          dc = f
        }
        cx += 1
      }
    }
    if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
    return (dc, ac, scale)
  }

  /// JavaScript's `Math.round`: halves round up (towards +∞).
  static func jsRound(_ v: Double) -> Int { Int((v + 0.5).rounded(.down)) }
}
