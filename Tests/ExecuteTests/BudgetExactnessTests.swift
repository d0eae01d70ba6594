import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// A byte budget compares the bytes written (issue 28.6): for each format that takes a
/// budget, quality q fits a budget equal to the size of its own file (as `stat` gives it), and
/// q + 1, where its file is larger, does not; one byte less fails at `min_quality` q. With
/// `over_budget: shrink`, the width written fits and its file is the one on disk; the manifest
/// gives the pixel size of the file (read back by Pillow). In-process.
final class BudgetExactnessTests: XCTestCase {
  /// Formats with a budget this libvips can write, with the `encode` fields they need.
  static let formats: [(name: String, ext: String, extra: String)] = [
    ("jpeg", "jpg", ""), ("webp", "webp", ""), ("avif", "avif", ""), ("heif", "heic", ""),
    ("jxl", "jxl", ""), ("png", "png", ", palette: true"),
  ]
  static let quality = 60

  /// What `cropjob formats` lists under `write:`.
  func writable() throws -> Set<String> { Set(OutputFormat.available.map(\.rawValue)) }

  func job(_ format: (name: String, ext: String, extra: String), quality: Int, budget: String) -> String {
    """
    version: 1
    output: out
    jobs:
      t:
        sources: ["photos/kite.jpg"]
        guide: {shape: square, size: 160}
        outputs:
          - path: "{stem}.\(format.ext)"
            encode: {format: \(format.name), quality: \(quality)\(format.extra)\(budget)}
    """
  }

  func fileSize(_ s: RunHarness, _ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: s.path(path))[.size] as! NSNumber).intValue
  }

  func manifestEntry(_ s: RunHarness) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json")))
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try XCTUnwrap((object["outputs"] as? [[String: Any]])?.first)
  }

  func testQualityFitsABudgetOfItsOwnFileSizeInEveryFormat() throws {
    let available = try writable()
    var checked: [String] = []
    for format in Self.formats where available.contains(format.name) {
      let s = RunHarness(name: "budget-\(format.name)")
      defer { s.remove() }
      try s.copySamples(["kite.jpg"])
      let q = Self.quality
      var sizes: [Int] = []
      for quality in [q, q + 1] {
        try s.writeJob(job(format, quality: quality, budget: ""))
        let (run, _) = try s.run { $0.force = true }
        XCTAssertEqual(run.failed, 0, "\(format.name): \(run.failures)")
        sizes.append(try fileSize(s, "out/kite.\(format.ext)"))
      }
      // Quality q + 1 searched down to q under a budget of q's own size.
      try s.writeJob(job(format, quality: q + 1, budget: ", min_quality: \(q), max_bytes: \(sizes[0])"))
      let (fits, _) = try s.run { $0.force = true }
      XCTAssertEqual(fits.failed, 0, "\(format.name): \(fits.failures)")
      let entry = try manifestEntry(s)
      XCTAssertEqual(entry["quality"] as? Int, sizes[1] > sizes[0] ? q : q + 1, format.name)
      XCTAssertLessThanOrEqual(try fileSize(s, "out/kite.\(format.ext)"), sizes[0], format.name)
      XCTAssertEqual(entry["bytes"] as? Int, try fileSize(s, "out/kite.\(format.ext)"), format.name)
      // One byte less: q does not fit, and nothing lower may be tried.
      try s.writeJob(job(format, quality: q, budget: ", min_quality: \(q), max_bytes: \(sizes[0] - 1)"))
      let (over, _) = try s.run { $0.force = true }
      XCTAssertEqual(over.failed, 1, "\(format.name): \(over.failures)")
      XCTAssertTrue(
        over.failures.first?.reason.contains("\(sizes[0]) bytes even at min_quality \(q)") ?? false,
        "\(format.name): \(over.failures)")
      checked.append(format.name)
    }
    XCTAssertTrue(Set(checked).isSuperset(of: ["jpeg", "webp", "png"]), "\(checked)")
  }

  /// `over_budget: shrink` in WebP (where the compared bytes were off): the width written
  /// fits the budget as the file on disk, and the manifest's pixel size is the file's
  /// (Pillow), under the planned name.
  func testShrunkWebPFitsAsWrittenAndTheManifestGivesItsSize() throws {
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    let budget = 3000
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/kite.jpg"]
          guide: {shape: rect, width: 1200, height: 630}
          outputs:
            - path: "{stem}-{width}.webp"
              encode: {format: webp, quality: 75, max_bytes: \(budget), min_quality: 40, over_budget: shrink}
      """)
    let (run, _) = try s.run()
    XCTAssertEqual(run.failed, 0, "\(run.failures)")
    let entry = try manifestEntry(s)
    XCTAssertEqual(entry["path"] as? String, "kite-1200.webp")
    let width = try XCTUnwrap(entry["width"] as? Int)
    let height = try XCTUnwrap(entry["height"] as? Int)
    XCTAssertLessThan(width, 1200)
    XCTAssertLessThanOrEqual(try fileSize(s, "out/kite-1200.webp"), budget)
    let pillow = try Subprocess.run(
      "/usr/bin/python3", ["-c", "from PIL import Image; print(*Image.open('out/kite-1200.webp').size)"], cwd: s.folder)
    XCTAssertEqual(pillow.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(width) \(height)", pillow.stderr)
    let notes = (entry["geometry"] as? [String: Any])?["notes"] as? [String] ?? []
    XCTAssertTrue(
      notes.contains("output downsized from 1200x630 to \(width)x\(height) to fit max_bytes \(budget)"), "\(notes)")
  }
}
