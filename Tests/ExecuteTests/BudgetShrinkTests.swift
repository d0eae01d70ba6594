import CropGeometry
import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Issue 5: `over_budget: shrink` — an output that does not fit `max_bytes` even at
/// `min_quality` is written smaller instead of failing.
final class BudgetShrinkTests: XCTestCase {
  func testAnUnreachableBudgetShrinksThePixelSizeUntilTheFileFits() throws {
    let harness = try RunHarness(
      samples: ["mountains.jpg", "coffee-alpha.png"],
      job: """
        version: 1
        output: out
        jobs:
          tight:
            sources: ["photos"]
            guide: {shape: rect, width: 600, height: 400}
            outputs:
              - {path: "{stem}-small.jpg", encode: {quality: 80, max_bytes: 4000, min_quality: 50, over_budget: shrink}}
              - {path: "{stem}-small.webp", encode: {quality: 80, max_bytes: 3000, min_quality: 50, over_budget: shrink}}
              - {path: "{stem}-strict.jpg", encode: {quality: 80, max_bytes: 4000, min_quality: 50}}
              - {path: "{stem}-strict.webp", encode: {quality: 80, max_bytes: 3000, min_quality: 50}}
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    // The outputs without over_budget fail as before; the others are written smaller.
    XCTAssertEqual(
      Set(summary.failures.map(\.output)),
      ["mountains-strict.jpg", "coffee-alpha-strict.jpg", "mountains-strict.webp", "coffee-alpha-strict.webp"])
    XCTAssertEqual(summary.written, 4)
    // The encodes of the quality search alone: what the strict twin's failure counts.
    var qualityEncodes: [String: Int] = [:]
    for failure in summary.failures {
      let count = failure.reason.split(separator: "(").last.flatMap { Int($0.split(separator: " ")[0]) }
      qualityEncodes[failure.output.replacingOccurrences(of: "-strict", with: "-small")] = count
    }
    var found: [(path: String, width: Int, budget: Int)] = []
    for entry in try manifest(harness).outputs {
      let path = "\(harness.outputRoot)/\(entry.path)"
      let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
      let budget = entry.path.hasSuffix(".jpg") ? 4000 : 3000
      let width = Int(try header(path, "width"))!
      let height = Int(try header(path, "height"))!
      print(
        "over_budget shrink \(entry.path): \(width)x\(height), \(bytes) bytes ≤ \(budget), \(entry.encodes) encodes")
      XCTAssertLessThanOrEqual(bytes, budget, entry.path)
      XCTAssertEqual(bytes, entry.bytes)
      XCTAssertEqual([entry.width, entry.height], [width, height], "the manifest records the size written")
      XCTAssertLessThan(width, 600)
      XCTAssertEqual(Double(height), Double(width) * 400 / 600, accuracy: 0.5, "aspect kept")
      XCTAssertEqual(entry.quality, 50)
      // The widths tried after the quality search: 2–8 on the samples (README), at most
      // 2 × ⌈log2 600⌉ = 20.
      let searched = try XCTUnwrap(qualityEncodes[entry.path], "\(entry.path): \(summary.failures)")
      XCTAssertTrue(
        (2...8).contains(entry.encodes - searched), "\(entry.path): \(entry.encodes - searched) widths tried")
      found.append((entry.path, width, budget))
      XCTAssertEqual(
        entry.geometry.notes, ["output downsized from 600x400 to \(width)x\(height) to fit max_bytes \(budget)"])
      // Still the whole guide's part of the photo: the same crop as planned.
      XCTAssertEqual(entry.geometry.crop.width, entry.path.hasPrefix("mountains") ? 1600 : 600, accuracy: 1e-6)
    }
    // "The largest width whose file fits, to within 1 % of the planned width": some width at
    // most 6 px (1 % of 600) wider does not fit at min_quality, written without a budget (with
    // the planned 600 px output beside them, so that the photo is decoded as the search's was).
    XCTAssertEqual(found.count, 4)
    try harness.writeJob(
      """
      version: 1
      output: wider
      jobs:
      \(found.enumerated().map { i, f in
        let stem = f.path.components(separatedBy: "-small.")[0]
        let format = f.path.hasSuffix(".jpg") ? "jpeg" : "webp"
        let ext = f.path.hasSuffix(".jpg") ? "jpg" : "webp"
        return """
            w\(i):
              sources: ["photos/\(stem).\(stem == "mountains" ? "jpg" : "png")"]
              guide: {shape: rect, width: 600, height: 400}
              outputs:
                - {path: "{stem}-{width}.\(ext)", widths: \([600] + Array(f.width + 1...f.width + 6)), encode: {format: \(format), quality: 50}}
        """
      }.joined(separator: "\n"))
      """)
    XCTAssertEqual(try harness.run().0.failed, 0)
    for f in found {
      let stem = f.path.components(separatedBy: "-small.")[0]
      let ext = f.path.hasSuffix(".jpg") ? "jpg" : "webp"
      let sizes = try (f.width + 1...f.width + 6).map { w in
        try FileManager.default.attributesOfItem(
          atPath: harness.folder.appendingPathComponent("wider/\(stem)-\(w).\(ext)").path)[.size] as! Int
      }
      print("over_budget shrink \(f.path): widths \(f.width + 1)...\(f.width + 6) at min_quality: \(sizes) bytes")
      XCTAssertTrue(sizes.contains { $0 > f.budget }, "\(f.path): every width up to 1 % wider fits \(f.budget) bytes")
    }
  }

  /// The picture is the planned one, only smaller: compared with Pillow's resize of the
  /// full-size output of the same job written without a budget.
  func testTheShrunkOutputShowsTheSamePicture() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let harness = try RunHarness(
      samples: ["kite.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          tight:
            sources: ["photos"]
            guide: {shape: square, size: 500}
            place: {zoom: 1.5, focus: [0.3, 0.6]}
            outputs:
              - {path: "{stem}-small.png", encode: {palette: true, quality: 60, max_bytes: 6000, min_quality: 40, over_budget: shrink}}
              - {path: "{stem}-full.png"}
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let script = """
      import sys
      from PIL import Image
      import numpy as np
      small = Image.open(sys.argv[1]).convert("RGB")
      full = Image.open(sys.argv[2]).convert("RGB").resize(small.size, Image.LANCZOS)
      d = np.abs(np.asarray(small, dtype=float) - np.asarray(full, dtype=float))[2:-2, 2:-2].mean()
      print(small.size[0], "%.3f" % d)
      """
    let fields = try tool(
      python, ["-c", script, "\(harness.outputRoot)/kite-small.png", "\(harness.outputRoot)/kite-full.png"]
    )
    .split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    let width = Int(fields[0]) ?? 0
    let difference = Double(fields[1]) ?? .infinity
    print("shrunk to \(width) px wide: mean difference \(difference) / 255 from the full output resized by Pillow")
    XCTAssertLessThan(width, 500)
    // A 256-colour palette quantises; a displaced or differently cropped picture differs by 20+.
    XCTAssertLessThan(difference, 8.0)
  }

  func testABudgetNoSizeCanMeetFailsNamingTheSmallestTried() throws {
    let harness = try RunHarness(
      samples: ["mountains.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          tight:
            sources: ["photos"]
            guide: {shape: square, size: 300}
            outputs:
              - {path: "{stem}.jpg", encode: {max_bytes: 100, min_quality: 50, over_budget: shrink}}
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 1)
    let reason = try XCTUnwrap(summary.failures.first?.reason)
    XCTAssertTrue(reason.hasPrefix("cannot fit in max_bytes 100:"), reason)
    XCTAssertTrue(reason.contains("at min_quality 50 and 1x1 pixels"), reason)
    XCTAssertFalse(FileManager.default.fileExists(atPath: "\(harness.outputRoot)/mountains.jpg"))
  }

  func testTwoRunsAreByteIdentical() throws {
    let job = """
      version: 1
      output: out
      jobs:
        tight:
          sources: ["photos"]
          guide: {shape: circle, size: 400}
          outputs: [{path: "{stem}.webp", encode: {max_bytes: 2500, min_quality: 40, over_budget: shrink}}]
      """
    let harness = try RunHarness(samples: ["nuthatch.jpg", "ladybird.jpg"], job: job)
    defer { harness.remove() }
    try harness.run()
    let first = try manifest(harness).outputs.map(\.sha256)
    try harness.run {
      $0.force = true
      $0.jobs = 1
    }
    XCTAssertEqual(try manifest(harness).outputs.map(\.sha256), first)
  }
}
