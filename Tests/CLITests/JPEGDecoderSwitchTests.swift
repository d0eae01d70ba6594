import Foundation
import TestSupport
import XCTest

/// `CROPJOB_JPEG_DECODER` (docs/decoding.md): the same job run with JPEGs decoded by
/// libjpeg-turbo directly (the default) and by libvips gives the same outputs within rounding.
final class JPEGDecoderSwitchTests: XCTestCase {
  /// Every sample (JPEGs, four sideways, and PNGs) cut to a cover square, a contain banner on
  /// a background, and a circle, as PNG (lossless, so the comparison sees the pixels) and as
  /// JPEG. numpy compares each pair: stated tolerance max 1, mean 0.01 per channel; measured 0,
  /// and the files are byte-identical (both paths run the same libjpeg-turbo decode and set the
  /// same resolution), which is asserted too.
  func testDirectAndLibvipsDecodesGiveTheSameOutputsWithinRounding() throws {
    let python = "/usr/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else { throw Skipped.because("python3 missing") }
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples()
    // Resolution as libvips sets it (EXIF over JFIF, per unit) reaches the PNGs' pHYs: three
    // copies with an EXIF resolution in inches, centimetres and no unit.
    for (name, unit) in [("inch", "inches"), ("cm", "cm"), ("none", "None")] {
      let copy = s.path("photos/res-\(name).jpg")
      try FileManager.default.copyItem(atPath: s.path("photos/kite.jpg"), toPath: copy)
      try tool(
        "/usr/bin/exiftool",
        ["-q", "-overwrite_original", "-XResolution=300", "-YResolution=200", "-IFD0:ResolutionUnit=\(unit)", copy])
    }
    try s.write(
      """
      version: 1
      output: out
      defaults:
        metadata: strip
      jobs:
        cut:
          sources: ["photos"]
          guide: {shape: square, size: 120}
          place: {fit: cover}
          outputs:
            - path: "{stem}-square.png"
            - path: "{stem}-square.jpg"
        circle:
          sources: ["photos"]
          guide: {shape: circle, size: 100}
          place: {fit: cover}
          outputs:
            - path: "{stem}-circle.png"
        banner:
          sources: ["photos"]
          guide: {shape: rect, width: 300, height: 90}
          place: {fit: contain, overflow: fill, background: "#336699"}
          outputs:
            - path: "{stem}-banner.png"
      """)
    let (directTree, vipsTree) = try s.runBothWays(
      "CROPJOB_JPEG_DECODER", direct: "auto", other: "libvips", extensions: [".png", ".jpg"])
    let direct = directTree.keys.sorted()
    XCTAssertGreaterThanOrEqual(direct.count, 40)
    // Measured: byte-identical files (pixels, JFIF density, pHYs); asserted so, as a regression check.
    for name in direct { XCTAssertEqual(directTree[name], vipsTree[name], name) }
    let script = """
      import sys
      import numpy as np
      from PIL import Image
      root, names = sys.argv[1], sys.argv[2:]
      worst = (0, 0.0)
      for n in names:
          a = np.asarray(Image.open(f"{root}/direct/{n}"), dtype=int)
          b = np.asarray(Image.open(f"{root}/vips/{n}"), dtype=int)
          assert a.shape == b.shape, n
          d = np.abs(a - b)
          worst = (max(worst[0], int(d.max())), max(worst[1], float(d.mean())))
      print(worst[0], worst[1])
      """
    let fields = try tool(python, ["-c", script, s.folder.path] + direct).split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    XCTAssertEqual(fields.count, 2)
    XCTAssertLessThanOrEqual(fields.first ?? .infinity, 1)
    XCTAssertLessThanOrEqual(fields.last ?? .infinity, 0.01)
  }
}
