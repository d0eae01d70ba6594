import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// "Every size is resampled from the source pixels, never from a smaller output" (README,
/// "Sizes"): the 640 px size of an output with `widths: [64, 640]` carries the photo's detail,
/// which its 64 px size cannot: Pillow's Lanczos upscale of the 64 px file differs from it by
/// far more than the 640 px file differs from Pillow's own resize of the photo's same region.
final class SizesFromSourceTests: XCTestCase {
  func testEachSizeIsMadeFromTheSourcePixels() throws {
    let python = try XCTUnwrap(TestPaths.python, "/usr/bin/python3 with Pillow and numpy is needed")
    let harness = try RunHarness(
      samples: ["mountains.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          t:
            sources: ["photos"]
            guide: {width: 640, height: 480}
            outputs: [{path: "{stem}-{width}.png", widths: [64, 640]}]
        """)
    defer { harness.remove() }
    XCTAssertEqual(try harness.run().0.failed, 0)
    let script = """
      import sys
      import numpy as np
      from PIL import Image
      small, large, photo = (Image.open(p).convert("RGB") for p in sys.argv[1:4])
      def diff(a, b): return np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)).mean()
      # mountains.jpg is 1600 x 1200: the 4:3 guide covers all of it.
      print("%.3f %.3f" % (diff(small.resize(large.size, Image.LANCZOS), large),
                           diff(photo.resize(large.size, Image.LANCZOS), large)))
      """
    let out = harness.outputRoot
    let fields = try tool(
      python, ["-c", script, "\(out)/mountains-64.png", "\(out)/mountains-640.png", TestPaths.sample("mountains.jpg")]
    ).split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    XCTAssertEqual(fields.count, 2)
    let (fromSmall, fromPhoto) = (fields.first ?? 0, fields.last ?? .infinity)
    print("640 px output: \(fromSmall) / 255 from the 64 px output upscaled, \(fromPhoto) / 255 from the photo resized")
    XCTAssertLessThan(fromPhoto, 2, "the 640 px output is not the photo's region resized")
    XCTAssertGreaterThan(fromSmall, 4 * fromPhoto, "the 640 px output looks made from the 64 px one")
  }
}
