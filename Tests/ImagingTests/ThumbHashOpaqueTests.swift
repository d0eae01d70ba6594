import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 40, point 4: ThumbHash marked opaque outputs of some sizes (1100×733, 1200×800) as
/// transparent: their area-averaged copy held alphas a rounding error below 1, and the hash
/// took the alpha flag (32 characters instead of 28, a worse picture). Checked against the
/// reference implementation (evanw/thumbhash's JavaScript, Tests/Oracle/thumbhash_reference.js,
/// run by node) given the same copy in 8 bits, as the reference takes its input.
final class ThumbHashOpaqueTests: XCTestCase {
  /// An opaque picture: gradients and a disc, with (`bands` 4, alpha 255) or without alpha.
  func picture(width: Int, height: Int, bands: Int) -> Raster {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * bands)
    for y in 0..<height {
      for x in 0..<width {
        let dx = Double(x) - Double(width) * 0.4
        let dy = Double(y) - Double(height) * 0.55
        let disc = (dx * dx + dy * dy).squareRoot() < Double(height) * 0.3
        pixels += [UInt8(disc ? 230 : 30 + 180 * x / width), UInt8(200 - 150 * y / height), UInt8(disc ? 40 : 120)]
        if bands == 4 { pixels.append(255) }
      }
    }
    return Raster(width: width, height: height, bands: bands, pixels: pixels)
  }

  /// `raster` area-averaged to `w` × `h` in 8 bits (RGBA), as the reference takes it.
  func small(_ raster: Raster, width w: Int, height h: Int) -> [Int] {
    var out: [Int] = []
    for y in 0..<h {
      for x in 0..<w {
        let (x0, x1) = (Double(x) * Double(raster.width) / Double(w), Double(x + 1) * Double(raster.width) / Double(w))
        let (y0, y1) = (
          Double(y) * Double(raster.height) / Double(h), Double(y + 1) * Double(raster.height) / Double(h)
        )
        var sum = [0.0, 0.0, 0.0]
        var area = 0.0
        for sy in Int(y0)..<min(raster.height, Int(y1.rounded(.up))) {
          let wy = min(y1, Double(sy + 1)) - max(y0, Double(sy))
          for sx in Int(x0)..<min(raster.width, Int(x1.rounded(.up))) {
            let weight = (min(x1, Double(sx + 1)) - max(x0, Double(sx))) * wy
            let p = raster.pixel(x: sx, y: sy)
            for c in 0..<3 { sum[c] += Double(p[c]) * weight }
            area += weight
          }
        }
        out += sum.map { Int(($0 / area).rounded()) } + [255]
      }
    }
    return out
  }

  func testOpaqueOutputsHaveNoAlphaFlagAtAnySize() throws {
    let node = "/usr/bin/node"
    guard FileManager.default.isExecutableFile(atPath: node) else {
      return XCTFail("\(node) is not installed (scripts/install-deps.sh installs nodejs)")
    }
    for (width, height) in [(1100, 733), (1200, 800), (733, 1100), (1000, 667)] {
      for bands in [3, 4] {
        let raster = picture(width: width, height: height, bands: bands)
        let text = try XCTUnwrap(Placeholders.make(raster, spec: PlaceholderSpec(kinds: [.thumbhash])).thumbhash)
        let ours = try XCTUnwrap(Data(base64Encoded: text))
        // The copy is 32 pixels on the longer side (Placeholders.copySide).
        let long = max(width, height)
        let (w, h) =
          width >= height
          ? (32, max(1, Int((Double(height) * 32 / Double(long)).rounded())))
          : (max(1, Int((Double(width) * 32 / Double(long)).rounded())), 32)
        let rgba = small(raster, width: w, height: h)
        let input: [String: Any] = ["w": w, "h": h, "rgba": rgba, "hashes": [text]]
        let result = try Subprocess.run(
          node, [TestPaths.repoRoot.appendingPathComponent("Tests/Oracle/thumbhash_reference.js").path],
          input: try JSONSerialization.data(withJSONObject: input))
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let reference = try XCTUnwrap(Data(base64Encoded: report["reference"] as? String ?? ""))
        let label = "\(width)x\(height), \(bands) bands: ours \(text), reference \(reference.base64EncodedString())"
        XCTAssertEqual(reference[2] >> 7, 0, "the reference sees no alpha: \(label)")
        XCTAssertEqual(ours[2] >> 7, 0, "alpha flag: \(label)")
        XCTAssertEqual(text.count, 28, label)
        XCTAssertEqual(ours.count, reference.count, label)
        // Both decoded by the reference decoder, compared with the picture the hash stands
        // for (the 8-bit copy, at the decoded size by nearest sample), alpha included.
        let decoded = try XCTUnwrap(report["decoded"] as? [[String: Any]])
        func meanDifference(_ d: [String: Any]) -> Double {
          let (dw, dh) = (d["w"] as? Int ?? 1, d["h"] as? Int ?? 1)
          let px = d["rgba"] as? [Int] ?? []
          var total = 0
          for y in 0..<dh {
            for x in 0..<dw {
              let s = ((y * h / dh) * w + x * w / dw) * 4
              for c in 0..<4 { total += abs(px[(y * dw + x) * 4 + c] - rgba[s + c]) }
            }
          }
          return Double(total) / Double(dw * dh * 4)
        }
        let (theirs, mine) = (meanDifference(decoded[0]), meanDifference(decoded[1]))
        print("ThumbHash \(label): decoded mean |Δ| reference \(theirs), ours \(mine)")
        XCTAssertLessThanOrEqual(mine, theirs + 1, "decoded picture: \(label)")
      }
    }
  }
}
