import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// More features that only unit tests reached (issue 29), run in-process and checked by
/// programs cropjob did not write: `focus: entropy` against libvips' own entropy crop, the
/// `xmp` and `iptc` metadata kinds through exiftool, `compression` and `effort` through
/// Pillow. (`preview`'s page options through the binary: CLITests' `PreviewPageOptionsTests`.)
final class EncodeFeatureTests: XCTestCase {
  let python = "/usr/bin/python3"

  /// Mean absolute difference (0...255) of two images of one size, and of the first with a
  /// third, by Pillow and numpy.
  func differences(_ a: String, _ b: String, _ c: String) throws -> (Double, Double) {
    let script = """
      import sys
      import numpy as np
      from PIL import Image
      a, b, c = (np.asarray(Image.open(p).convert("RGB"), dtype=float) for p in sys.argv[1:4])
      print("%.3f %.3f" % (np.abs(a - b).mean(), np.abs(a - c).mean()))
      """
    let fields = try tool(python, ["-c", script, a, b, c]).split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    XCTAssertEqual(fields.count, 2)
    return (fields.first ?? .infinity, fields.last ?? .infinity)
  }

  /// `focus: entropy` crops where libvips' own `thumbnail --crop entropy` does, on photos whose
  /// busiest part is far from the centre: within 3/255 of it, and more than 15/255 from the
  /// centred crop. (Measured: kite 0.4 and 23.8, forest-path 2.1 and 19.3.)
  func testEntropyFocusCropsWhereLibvipsEntropyCrops() throws {
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "forest-path.jpg"])
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        e:
          sources: ["photos/*.jpg"]
          guide: {shape: square, size: 200}
          place: {fit: cover, focus: entropy}
          outputs: [{path: "{stem}.png"}]
      """)
    let (run, _) = try s.run()
    XCTAssertEqual(run.failed, 0, "\(run.failures)")
    for stem in ["kite", "forest-path"] {
      let photo = s.path("photos/\(stem).jpg")
      for crop in ["entropy", "centre"] {
        try tool(
          "/usr/bin/vips",
          ["thumbnail", photo, s.path("\(stem)-\(crop).png"), "200", "--height", "200", "--crop", crop])
      }
      let (toEntropy, toCentre) = try differences(
        s.path("out/\(stem).png"), s.path("\(stem)-entropy.png"), s.path("\(stem)-centre.png"))
      print("focus: entropy, \(stem): \(toEntropy) from libvips' entropy crop, \(toCentre) from the centred one")
      XCTAssertLessThan(toEntropy, 3, stem)
      XCTAssertGreaterThan(toCentre, 15, stem)
    }
  }

  /// `metadata: [xmp]` keeps the XMP packet and not IPTC; `[iptc]` the reverse (exiftool).
  func testXMPAndIPTCKindsKeepWhatIsListed() throws {
    let exiftool = "/usr/bin/exiftool"
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    try tool(
      exiftool,
      ["-q", "-overwrite_original", "-XMP-dc:Creator=Ann", "-IPTC:Keywords=kitefly", s.path("photos/kite.jpg")])
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        m:
          sources: ["photos/kite.jpg"]
          guide: {size: 64}
          outputs:
            - {path: "{stem}-xmp.jpg", metadata: [xmp]}
            - {path: "{stem}-iptc.jpg", metadata: [iptc]}
            - {path: "{stem}-both.jpg", metadata: [xmp, iptc]}
            - {path: "{stem}-strip.jpg"}
      """)
    let (run, _) = try s.run()
    XCTAssertEqual(run.failed, 0, "\(run.failures)")
    func tags(_ name: String) throws -> String {
      try tool(exiftool, ["-s", "-XMP:Creator", "-IPTC:Keywords", s.path("out/\(name)")])
    }
    let xmp = try tags("kite-xmp.jpg")
    XCTAssertTrue(xmp.contains("Ann") && !xmp.contains("kitefly"), xmp)
    let iptc = try tags("kite-iptc.jpg")
    XCTAssertTrue(!iptc.contains("Ann") && iptc.contains("kitefly"), iptc)
    let both = try tags("kite-both.jpg")
    XCTAssertTrue(both.contains("Ann") && both.contains("kitefly"), both)
    let strip = try tags("kite-strip.jpg")
    XCTAssertTrue(!strip.contains("Ann") && !strip.contains("kitefly"), strip)
  }

  /// PNG `compression` changes the size and not one pixel; WebP `effort` changes the bytes and
  /// keeps the picture: the two efforts within 5/255 of each other (measured 3.1 at q80), each
  /// within 6/255 of the lossless PNG (Pillow decodes all).
  func testCompressionAndEffortChangeBytesNotThePicture() throws {
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["mountains.jpg"])
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        c:
          sources: ["photos/mountains.jpg"]
          guide: {shape: rect, width: 320, height: 240}
          outputs:
            - {path: "{stem}-z0.png", encode: {compression: 0}}
            - {path: "{stem}-z9.png", encode: {compression: 9}}
            - {path: "{stem}-e0.webp", encode: {quality: 80, effort: 0}}
            - {path: "{stem}-e6.webp", encode: {quality: 80, effort: 6}}
      """)
    let (run, _) = try s.run()
    XCTAssertEqual(run.failed, 0, "\(run.failures)")
    func size(_ name: String) throws -> Int {
      try FileManager.default.attributesOfItem(atPath: s.path("out/\(name)"))[.size] as? Int ?? 0
    }
    // Level 0 stores the rows (no smaller than the raw 320 x 240 x 3 bytes); level 9 deflates
    // them (a photo by about a fifth).
    XCTAssertGreaterThanOrEqual(try size("mountains-z0.png"), 320 * 240 * 3)
    XCTAssertLessThan(try size("mountains-z9.png"), try size("mountains-z0.png") * 9 / 10)
    let (pngDifference, _) = try differences(
      s.path("out/mountains-z0.png"), s.path("out/mountains-z9.png"), s.path("out/mountains-z9.png"))
    XCTAssertEqual(pngDifference, 0, "compression changed pixels")
    XCTAssertNotEqual(
      try Data(contentsOf: URL(fileURLWithPath: s.path("out/mountains-e0.webp"))),
      try Data(contentsOf: URL(fileURLWithPath: s.path("out/mountains-e6.webp"))))
    let (webpDifference, fromPNG) = try differences(
      s.path("out/mountains-e0.webp"), s.path("out/mountains-e6.webp"), s.path("out/mountains-z9.png"))
    XCTAssertLessThan(webpDifference, 5, "effort changed the picture")
    XCTAssertLessThan(fromPNG, 6, "the WebP is not the PNG's picture")
  }
}
