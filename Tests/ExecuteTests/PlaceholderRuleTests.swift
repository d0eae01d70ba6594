import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The placeholders' documented rules at their exact values (docs/job-file.md,
/// "placeholders"), on rasters small enough that the placeholder copy is the raster itself:
///
/// - `dominant`: the fullest cell of the 8-level histogram; on a tie the lowest red, then
///   green, then blue level; the mean of the cell's pixels, rounded; only pixels at least half
///   opaque, by their straight colour; with none, the alpha-weighted mean colour.
/// - ThumbHash of a transparent image against the reference implementation (evanw/thumbhash's
///   JavaScript, Tests/Oracle/thumbhash_reference.js, run by node): the same length (its alpha
///   channel's DC, scale and 14 AC terms included), every header field and AC nibble within one
///   quantisation step, and both hashes decoded by the reference decoder to the same picture
///   (mean difference within 3 levels a channel, alpha included).
final class PlaceholderRuleTests: XCTestCase {
  func dominant(_ pixels: [[UInt8]], width: Int? = nil) throws -> String {
    let w = width ?? pixels.count
    let raster = Raster(width: w, height: pixels.count / w, bands: 4, pixels: pixels.flatMap { $0 })
    return try XCTUnwrap(Placeholders.make(raster, spec: PlaceholderSpec(kinds: [.dominant])).dominant)
  }

  func testDominantTiesGoToTheLowestRedThenGreenThenBlueLevel() throws {
    let red: [UInt8] = [200, 10, 10, 255]
    let green: [UInt8] = [10, 200, 10, 255]
    let blue: [UInt8] = [10, 10, 200, 255]
    let dark: [UInt8] = [10, 10, 10, 255]
    // One pixel each: a tie, in either order of the pixels.
    XCTAssertEqual(try dominant([red, green]), "#0ac80a", "lowest red level wins")
    XCTAssertEqual(try dominant([green, red]), "#0ac80a", "lowest red level wins")
    XCTAssertEqual(try dominant([green, blue]), "#0a0ac8", "same red level: lowest green wins")
    XCTAssertEqual(try dominant([blue, dark]), "#0a0a0a", "same red and green: lowest blue wins")
    XCTAssertEqual(try dominant([red, green, blue, dark]), "#0a0a0a", "four-way tie")
    // More pixels win over any tie rule.
    XCTAssertEqual(try dominant([red, green, red, blue]), "#c80a0a")
  }

  func testDominantIsTheRoundedMeanOfTheCellsOpaqueEnoughPixels() throws {
    // 0 and 1 share the cell [0, 32): mean 0.5, rounded half up.
    XCTAssertEqual(try dominant([[0, 0, 0, 255], [1, 1, 1, 255]]), "#010101")
    // 30 and 33 are in different cells: a tie, and the lower cell's own mean (30), not 31.5.
    XCTAssertEqual(try dominant([[30, 30, 30, 255], [33, 33, 33, 255]]), "#1e1e1e")
    // Three white pixels under half opaque (127 / 255) do not count; one black pixel wins.
    let faint: [UInt8] = [255, 255, 255, 127]
    XCTAssertEqual(try dominant([faint, faint, faint, [0, 0, 0, 255]]), "#000000")
    // Half opaque (128 / 255 ≥ ½) counts, by its straight colour.
    XCTAssertEqual(try dominant([[200, 100, 50, 128], [200, 100, 50, 128], [0, 0, 0, 255]]), "#c86432")
    // Nothing at least half opaque: the alpha-weighted mean colour, (200·3 + 40·1) / 4 = 160.
    XCTAssertEqual(try dominant([[200, 200, 200, 90], [40, 40, 40, 30]]), "#a0a0a0")
  }

  /// A transparent picture: an opaque disc with a colour gradient, transparent corners and a
  /// half-transparent band, none of it symmetric.
  func transparentRaster(width: Int, height: Int) -> Raster {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        // Off-centre, so that no cosine term is zero by symmetry (a term of exactly zero is
        // quantised to 7 or 8 by rounding noise alone).
        let dx = Double(x) + 0.5 - Double(width) * 0.43
        let dy = Double(y) + 0.5 - Double(height) * 0.56
        let inside = (dx * dx + dy * dy).squareRoot() < Double(min(width, height)) * 0.37
        let alpha: UInt8 = inside ? 255 : (y < height / 4 && x < width * 2 / 3 ? 128 : 0)
        pixels += [UInt8(40 + 200 * x / width), UInt8(220 - 180 * y / height), 90, alpha]
      }
    }
    return Raster(width: width, height: height, bands: 4, pixels: pixels)
  }

  func testThumbHashOfATransparentImageMatchesTheReferenceImplementation() throws {
    let node = "/usr/bin/node"
    guard FileManager.default.isExecutableFile(atPath: node) else {
      return XCTFail("\(node) is not installed (scripts/install-deps.sh installs nodejs)")
    }
    for (width, height) in [(32, 24), (20, 32)] {
      let raster = transparentRaster(width: width, height: height)
      let ours = try XCTUnwrap(
        Placeholders.make(raster, spec: PlaceholderSpec(kinds: [.thumbhash])).thumbhash.flatMap {
          Data(base64Encoded: $0)
        })
      let input: [String: Any] = [
        "w": width, "h": height, "rgba": raster.pixels.map(Int.init), "hashes": [ours.base64EncodedString()],
      ]
      let result = try Subprocess.run(
        node, [TestPaths.repoRoot.appendingPathComponent("Tests/Oracle/thumbhash_reference.js").path],
        input: try JSONSerialization.data(withJSONObject: input))
      XCTAssertEqual(result.status, 0, result.stderr)
      let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
      let reference = try XCTUnwrap(Data(base64Encoded: report["reference"] as? String ?? ""))
      let label = "\(width)x\(height): ours \(ours.base64EncodedString()), reference \(reference.base64EncodedString())"
      // Header (5 bytes), alpha's DC and scale (1 byte), then the AC nibbles of L, P, Q and
      // alpha (14 of them).
      XCTAssertEqual(ours.count, reference.count, label)
      XCTAssertEqual(reference[2] >> 7, 1, "the reference saw alpha: \(label)")
      XCTAssertEqual(ours[2] >> 7, 1, "hasAlpha: \(label)")
      // Header fields, each within one step of its quantisation.
      func fields(_ b: Data) -> [Int] {
        let h24 = Int(b[0]) | Int(b[1]) << 8 | Int(b[2]) << 16
        let h16 = Int(b[3]) | Int(b[4]) << 8
        return [
          h24 & 63, (h24 >> 6) & 63, (h24 >> 12) & 63, (h24 >> 18) & 31, h24 >> 23, h16 & 7, (h16 >> 3) & 63,
          (h16 >> 9) & 63, h16 >> 15, Int(b[5]) & 15, Int(b[5]) >> 4,
        ]
      }
      for (i, (a, b)) in zip(fields(ours), fields(reference)).enumerated() {
        XCTAssertLessThanOrEqual(abs(a - b), 1, "header field \(i): \(label)")
      }
      // Every AC nibble, alpha's last 14 included.
      let nibbles = { (b: Data) in b.dropFirst(6).flatMap { [Int($0 & 15), Int($0 >> 4)] } }
      XCTAssertEqual(nibbles(ours).count, nibbles(reference).count, label)
      for (i, (a, b)) in zip(nibbles(ours), nibbles(reference)).enumerated() {
        XCTAssertLessThanOrEqual(abs(a - b), 1, "AC nibble \(i): \(label)")
      }
      // Decoded by the reference decoder: the same picture, alpha included.
      let decoded = try XCTUnwrap(report["decoded"] as? [[String: Any]])
      XCTAssertEqual(decoded.count, 2)
      let pictures = decoded.map { ($0["rgba"] as? [Int]) ?? [] }
      XCTAssertEqual(pictures[0].count, pictures[1].count, label)
      // One nibble a step apart moves a decoded pixel by up to 2 × scale / 7.5: the mean
      // difference is what must stay small.
      var worst = [0, 0, 0, 0]
      var total = [0, 0, 0, 0]
      for (i, (a, b)) in zip(pictures[0], pictures[1]).enumerated() {
        worst[i % 4] = max(worst[i % 4], abs(a - b))
        total[i % 4] += abs(a - b)
      }
      let mean = total.map { Double($0) / Double(max(1, pictures[0].count / 4)) }
      XCTAssertLessThanOrEqual(worst.max() ?? .max, 40, "decoded RGBA differences \(worst): \(label)")
      XCTAssertLessThanOrEqual(mean.max() ?? .infinity, 3, "decoded RGBA mean differences \(mean): \(label)")
      // The decoded alpha is the picture's: transparent corners, an opaque centre.
      let w = try XCTUnwrap(decoded[1]["w"] as? Int)
      let h = try XCTUnwrap(decoded[1]["h"] as? Int)
      XCTAssertLessThan(pictures[1][((h - 1) * w) * 4 + 3], 100, "bottom-left corner: \(label)")
      XCTAssertGreaterThan(pictures[1][((h / 2) * w + w / 2) * 4 + 3], 200, "centre: \(label)")
    }
  }

  /// The LQIP's length at the default 16 px JPEG: 351–487 characters (docs/job-file.md,
  /// measured on job C's photos), on the 14 samples cut as a landscape and as a circle.
  func testSixteenPixelJPEGLQIPsAreTheDocumentedLength() throws {
    let samples = try FileManager.default.contentsOfDirectory(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples").path
    )
    .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
    XCTAssertEqual(samples.count, 14)
    let harness = try RunHarness(
      samples: samples,
      job: """
        version: 1
        output: out
        defaults:
          placeholders: [lqip]
        jobs:
          land:
            sources: ["photos"]
            guide: {width: 400, height: 300}
            outputs: [{path: "land/{stem}.jpg"}]
          circle:
            sources: ["photos"]
            guide: {shape: circle, size: 256}
            outputs: [{path: "circle/{stem}.png"}]
        """)
    defer { harness.remove() }
    XCTAssertEqual(try harness.run().0.failed, 0)
    let lengths = try manifest(harness).outputs.map { ($0.path, $0.placeholders?.lqip?.count ?? 0) }
    XCTAssertEqual(lengths.count, 28)
    print("LQIP lengths: \(lengths.map(\.1).sorted())")
    for (path, length) in lengths { XCTAssertTrue((351...487).contains(length), "\(path): \(length) characters") }
  }

}
