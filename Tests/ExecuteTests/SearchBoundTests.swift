import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The searches at their documented figures, on a wide quality range (README, "Byte budgets";
/// docs/job-file.md, "Perceptual quality target"):
///
/// - `max_bytes` writes the highest quality in [min_quality, quality] whose file fits: the
///   budgets are the sizes of the files written at fixed qualities 5…95 by the same encoder
///   (one run), and the quality expected is worked out from those sizes, not from the search;
///   at most 1 + ⌈log2(quality − min_quality + 1)⌉ encodes (a bisection over the
///   quality − min_quality qualities below the ceiling probes at most ⌈log2(that + 1)⌉ of
///   them), reached when every quality below the ceiling fits.
/// - `target` takes at most as many encodes, and one more for the file written where the
///   candidates were JPEGs made the fast way (no `max_bytes`).
final class SearchBoundTests: XCTestCase {
  static let qualities = Array(5...95)

  /// ⌈log2(n)⌉ for n ≥ 1.
  func ceilLog2(_ n: Int) -> Int { n <= 1 ? 0 : Int.bitWidth - (n - 1).leadingZeroBitCount }

  func testMaxBytesWritesTheHighestQualityThatFitsOnAWideRange() throws {
    // JPEG over mountains, WebP over kite: every quality from 5 to 95, one run.
    let pairs = [("mountains", ("jpeg", "jpg")), ("kite", ("webp", "webp"))]
    let fixed = pairs.map { stem, f in
      """
        \(f.0):
          sources: ["photos/\(stem).jpg"]
          guide: {shape: rect, width: 320, height: 240}
          outputs:
      \(Self.qualities.map { q in "      - {path: \"q/{stem}-\(q).\(f.1)\", encode: {format: \(f.0), quality: \(q)}}" }.joined(separator: "\n"))
      """
    }
    let harness = try RunHarness(
      samples: ["mountains.jpg", "kite.jpg"],
      job: "version: 1\noutput: out\njobs:\n" + fixed.joined(separator: "\n") + "\n")
    defer { harness.remove() }
    XCTAssertEqual(try harness.run().0.failed, 0)
    func size(_ path: String) throws -> Int {
      (try FileManager.default.attributesOfItem(atPath: "\(harness.outputRoot)/\(path)")[.size] as! NSNumber).intValue
    }
    // Budgets between the sizes of neighbouring qualities, over the whole range.
    var cases: [(path: String, format: (String, String), budget: Int, expected: Int, stem: String)] = []
    for (stem, f) in pairs {
      let sizes = try Self.qualities.map { try size("q/\(stem)-\($0).\(f.1)") }
      for pick in [12, 33, 57, 71, 88] {
        let budget = sizes[Self.qualities.firstIndex(of: pick)!]
        // The highest quality whose own file fits (the files need not grow monotonically).
        let expected = try XCTUnwrap(zip(Self.qualities, sizes).filter { $0.1 <= budget }.last?.0)
        cases.append(("b/\(stem)-\(pick).\(f.1)", f, budget, expected, stem))
      }
    }
    // Each budget as its own job over one photo.
    try harness.writeJob(
      """
      version: 1
      output: out
      jobs:
      \(cases.indices.map { i in """
          b\(i):
            sources: ["photos/\(cases[i].stem).jpg"]
            guide: {shape: rect, width: 320, height: 240}
            outputs:
              - {path: "\(cases[i].path.replacingOccurrences(of: cases[i].stem, with: "{stem}"))", encode: {format: \(cases[i].format.0), quality: 95, min_quality: 5, max_bytes: \(cases[i].budget)}}
      """ }.joined(separator: "\n"))
      """)
    // The worst case of the bound: 64 qualities below the ceiling (30...93) all fitting takes
    // ⌈log2(64 + 1)⌉ = 7 probes after the ceiling's encode: 8 = 1 + ⌈log2(quality − min_quality
    // + 1)⌉, one more than 1 + ⌈log2(quality − min_quality)⌉ would allow.
    let mountains = try Self.qualities.map { try size("q/mountains-\($0).jpg") }
    let worst = mountains[Self.qualities.firstIndex(of: 93)!]
    XCTAssertLessThan(worst, mountains[Self.qualities.firstIndex(of: 94)!], "quality 94 should not fit")
    let extra = [
      "    worst:", "      sources: [\"photos/mountains.jpg\"]", "      guide: {shape: rect, width: 320, height: 240}",
      "      outputs:",
      "        - {path: \"worst/{stem}.jpg\", encode: {quality: 94, min_quality: 30, max_bytes: \(worst)}}",
    ]
    try harness.writeJob(
      (try String(contentsOfFile: harness.jobPath, encoding: .utf8)) + "\n" + extra.joined(separator: "\n") + "\n")
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let entries = Dictionary(uniqueKeysWithValues: try manifest(harness).outputs.map { ($0.path, $0) })
    let worstEntry = try XCTUnwrap(entries["worst/mountains.jpg"])
    XCTAssertEqual(worstEntry.quality, 93)
    XCTAssertEqual(worstEntry.encodes, 1 + ceilLog2(94 - 30 + 1), "the bound's worst case")
    let bound = 1 + ceilLog2(95 - 5 + 1)
    for c in cases {
      let entry = try XCTUnwrap(entries[c.path], c.path)
      print(
        "budget \(c.path): \(c.budget) bytes, quality \(entry.quality) (expected \(c.expected)), \(entry.encodes) encodes"
      )
      XCTAssertEqual(entry.quality, c.expected, "\(c.path): not the highest quality that fits \(c.budget) bytes")
      XCTAssertLessThanOrEqual(try size(c.path), c.budget, c.path)
      XCTAssertLessThanOrEqual(entry.encodes, bound, "\(c.path): more than 1 + ⌈log2(91 + 1)⌉ encodes")
      XCTAssertGreaterThan(entry.encodes, 1, c.path)
    }
  }

  func testTargetSearchStaysWithinItsEncodeBound() throws {
    let harness = try RunHarness(
      samples: ["mountains.jpg", "kite.jpg", "bridge.jpg"],
      job: """
        version: 1
        output: out
        defaults:
          guide: {shape: rect, width: 240, height: 160}
        jobs:
          t:
            sources: ["photos"]
            outputs:
              - {path: "{stem}-90.jpg", encode: {quality: 95, min_quality: 5, target: {ssim: 0.90}}}
              - {path: "{stem}-97.jpg", encode: {quality: 95, min_quality: 5, target: {ssim: 0.97}}}
              - {path: "{stem}-95.webp", encode: {format: webp, quality: 95, min_quality: 5, target: {ssim: 0.95}}}
              - {path: "{stem}-budget.jpg", encode: {quality: 95, min_quality: 5, max_bytes: 60000, target: {ssim: 0.95}}}
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let entries = try manifest(harness).outputs
    XCTAssertEqual(entries.count, 12)
    let bisection = ceilLog2(95 - 5 + 1)  // probes of a bisection over 5...94
    for entry in entries {
      print("target \(entry.path): quality \(entry.quality), ssim \(entry.ssim ?? 0), \(entry.encodes) encodes")
      // The fast JPEG candidates: the quality chosen is encoded once more as the file.
      let fast = entry.path.hasSuffix(".jpg") && !entry.path.contains("budget")
      XCTAssertLessThanOrEqual(entry.encodes, 1 + bisection + (fast ? 1 : 0), entry.path)
      XCTAssertLessThan(entry.quality, 95, "\(entry.path): the target should be reached below the ceiling")
      XCTAssertGreaterThan(entry.encodes, 2, entry.path)
    }
  }

  /// The file a target writes is the file of the quality chosen, byte for byte (the search's
  /// fast JPEG candidates, with libjpeg's standard Huffman tables, are for scoring only): the
  /// same output at that fixed quality, without a target, is the same bytes.
  func testTargetWritesTheFileOfTheQualityChosen() throws {
    let harness = try RunHarness(
      samples: ["mountains.jpg", "kite.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          t:
            sources: ["photos"]
            guide: {shape: rect, width: 240, height: 160}
            outputs: [{path: "{stem}.jpg", encode: {quality: 95, min_quality: 5, target: {ssim: 0.95}}}]
        """)
    defer { harness.remove() }
    XCTAssertEqual(try harness.run().0.failed, 0)
    let entries = try manifest(harness).outputs
    XCTAssertEqual(entries.count, 2)
    let fixed = entries.map { entry in
      let stem = entry.path.replacingOccurrences(of: ".jpg", with: "")
      return """
          f\(stem):
            sources: ["photos/\(stem).jpg"]
            guide: {shape: rect, width: 240, height: 160}
            outputs: [{path: "fixed/{stem}.jpg", encode: {quality: \(entry.quality)}}]
        """
    }
    try harness.writeJob("version: 1\noutput: out\njobs:\n" + fixed.joined(separator: "\n") + "\n")
    XCTAssertEqual(try harness.run().0.failed, 0)
    for entry in entries {
      let written = try Data(contentsOf: URL(fileURLWithPath: "\(harness.outputRoot)/\(entry.path)"))
      let plain = try Data(contentsOf: URL(fileURLWithPath: "\(harness.outputRoot)/fixed/\(entry.path)"))
      XCTAssertEqual(written, plain, "\(entry.path) at quality \(entry.quality) is not that quality's file")
    }
  }

}
