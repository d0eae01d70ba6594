import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The circle guide's alpha in the PNGs a run writes (in-process), against docs/geometry.md's formula computed by
/// numpy (not by cropjob's Geometry.circleMask): coverage = clamp(r − |pixel centre − circle
/// centre| + 0.5, 0, 1), alpha = round(coverage · 255), for even and odd sizes and scales.
final class CircleCoverageTests: XCTestCase {
  static let oracle = """
    import sys
    import numpy as np
    from PIL import Image
    worst, mismatched, total = 0, 0, 0
    for path in sys.argv[1:]:
        image = Image.open(path)
        assert image.mode == "RGBA", (path, image.mode)
        alpha = np.asarray(image, dtype=float)[:, :, 3]
        h, w = alpha.shape
        r = min(w, h) / 2.0
        ys, xs = np.mgrid[0:h, 0:w]
        distance = np.hypot(xs + 0.5 - w / 2.0, ys + 0.5 - h / 2.0)
        expected = np.floor(np.clip(r - distance + 0.5, 0, 1) * 255 + 0.5)
        difference = np.abs(alpha - expected)
        worst = max(worst, difference.max())
        mismatched += int((difference > 0).sum())
        total += alpha.size
        area = alpha.sum() / 255.0
        if abs(area - np.pi * r * r) > 0.002 * np.pi * r * r: print("area", path, area, np.pi * r * r)
    print("worst %d mismatched %d of %d" % (worst, mismatched, total))
    """

  func testCircleAlphaIsTheDocumentedCoverage() throws {
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "mountains.jpg", "portrait-sideways-8.jpg"])  // opaque: alpha is the mask alone
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        avatar:
          sources: ["photos/*"]
          guide: {shape: circle, size: 96}
          place: {fit: cover}
          outputs:
            - path: "{stem}-{scale}.png"
              scales: [0.5, 1, 2.5]
            - path: "{stem}-odd.png"
              size: 77
      """)
    let (run, _) = try s.run()
    XCTAssertEqual(run.failed, 0, "\(run.failures)")
    let files = try s.tree("out").keys.filter { $0.hasSuffix(".png") }.sorted().map { s.path("out/\($0)") }
    XCTAssertEqual(files.count, 12)
    let report = try tool("/usr/bin/python3", ["-c", Self.oracle] + files)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    print("circle coverage: \(report)")
    let lines = report.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, report)
    let fields = lines.last?.split(separator: " ") ?? []
    // Every alpha value is the formula's (premultiplied resampling leaves the mask alone).
    XCTAssertEqual(fields.first, "worst", report)
    XCTAssertEqual(fields.count > 1 ? String(fields[1]) : "", "0", report)
  }
}
