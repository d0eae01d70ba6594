import Foundation
import TestSupport
import XCTest

/// `preview`'s page options through the binary (issue 29), the pages read by Pillow. (The
/// encode features issue 29 added, in-process: ExecuteTests' `EncodeFeatureTests`.)
final class PreviewPageOptionsTests: XCTestCase {
  let python = "/usr/bin/python3"

  /// `preview --columns 2 --rows 1` puts two tiles on a page (3 photos: 2 pages, 1 by
  /// default), `--palette` writes palette PNGs, `--quick` and `--tile` are taken.
  func testPreviewPageOptionsThroughTheBinary() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "bridge.jpg", "cat.png"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        p:
          sources: ["photos/*"]
          guide: {shape: circle, size: 96}
          place: {fit: cover, focus: attention}
          outputs: [{path: "{stem}.png"}]
      """)
    let small = try s.run(
      [
        "preview", "job.yaml", "--out", "small", "--columns", "2", "--rows", "1", "--palette", "--quick", "--tile",
        "64",
      ])
    XCTAssertEqual(small.status, 0, small.stderr)
    let plain = try s.run(["preview", "job.yaml", "--out", "plain", "--tile", "64"])
    XCTAssertEqual(plain.status, 0, plain.stderr)
    func pages(_ folder: String) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: s.path(folder)).filter { $0.hasPrefix("page-") }.sorted()
    }
    XCTAssertEqual(try pages("small"), ["page-001.png", "page-002.png"])
    XCTAssertEqual(try pages("plain"), ["page-001.png"])
    let modes = try tool(
      python,
      [
        "-c", "import sys\nfrom PIL import Image\nprint(' '.join(Image.open(p).mode for p in sys.argv[1:]))",
        s.path("small/page-001.png"), s.path("small/page-002.png"), s.path("plain/page-001.png"),
      ]
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(modes, "P P RGB")
    let tiles = try FileManager.default.contentsOfDirectory(atPath: s.path("small/tiles"))
    XCTAssertEqual(tiles.count, 3)
    for tile in tiles {
      XCTAssertEqual(try dimensions(s.path("small/tiles/\(tile)")).height, 64, tile)
    }
  }
}
