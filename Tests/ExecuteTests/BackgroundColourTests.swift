import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// `place.background` where no photo covers the output, against an independent computation
/// (docs/job-file.md, `place.background`).
///
/// Each background is a real job over an opaque JPEG and a PNG with alpha, `fit: contain,
/// overflow: fill` under a square guide, so that the top and bottom bands show only the
/// background; written as PNG, lossless WebP and JPEG (quality 100, 4:4:4, so that the
/// encoder does not blur the comparison). Python (Pillow) reads the files, parses the colour
/// from the job's own text and computes what each band must hold: the colour itself, straight
/// (not premultiplied) RGBA, in PNG and WebP; in JPEG the colour composited over white
/// (Pillow's `alpha_composite`). Before the fix, libvips' affine premultiplied the already
/// premultiplied photo again and unpremultiplied its output, background included, so a
/// partly transparent background came out divided by its alpha: `"#33669980"` wrote
/// (102, 203, 255, 128); and JPEG ignored the alpha of a background (wrote (51, 102, 153)).
///
/// Skipped when Debian's /usr/bin/python3 with python3-pil is absent.
final class BackgroundColourTests: XCTestCase {
  /// The backgrounds, as the job file spells them (YAML flow values).
  static let backgrounds = [
    ##""#33669980""##, ##""#3698""##, "[200, 30, 30, 64]", ##""#336699""##, "transparent", "[0, 200, 100, 255]",
    ##""#ffffff01""##,
  ]

  static let oracle = """
    import json, sys
    from PIL import Image

    NAMED = {"white": (255, 255, 255, 255), "black": (0, 0, 0, 255), "transparent": (0, 0, 0, 0),
             "grey": (128, 128, 128, 255), "gray": (128, 128, 128, 255)}

    def colour(text):
        text = text.strip().strip('"')
        if text.startswith("["):
            v = [int(x) for x in text.strip("[]").split(",")]
            return tuple(v + [255] * (4 - len(v)))
        if text in NAMED:
            return NAMED[text]
        h = text[1:]
        if len(h) in (3, 4):
            h = "".join(c * 2 for c in h)
        if len(h) == 6:
            h += "ff"
        return tuple(int(h[i:i + 2], 16) for i in range(0, 8, 2))

    report = []
    for case in json.loads(sys.argv[1]):
        bg = colour(case["background"])
        im = Image.open(case["path"])
        if case["alpha"]:
            expected = bg
            im = im.convert("RGBA")
        else:
            over = Image.alpha_composite(Image.new("RGBA", (1, 1), (255, 255, 255, 255)),
                                         Image.new("RGBA", (1, 1), bg))
            expected = over.convert("RGB").getpixel((0, 0)) + (255,)
            im = im.convert("RGB")
        w, h = im.size
        worst, seen = 0, None
        # The top and bottom 4 rows: background only (the photo is 11 rows or more away).
        for y in list(range(4)) + list(range(h - 4, h)):
            for x in range(w):
                p = im.getpixel((x, y))
                p = tuple(p) + (255,) * (4 - len(p))
                # A fully transparent pixel has no colour: only its alpha counts.
                d = abs(p[3] - expected[3]) if expected[3] == 0 else max(abs(a - b) for a, b in zip(p, expected))
                if d >= worst:
                    worst, seen = d, p
        report.append({"path": case["path"], "expected": list(expected), "seen": list(seen), "worst": worst})
    print(json.dumps(report))
    """

  func testUncoveredPixelsHoldTheBackgroundStraightPerFormat() throws {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import PIL"]) else {
      throw Skipped.because("needs /usr/bin/python3 with python3-pil")
    }
    let jobs = Self.backgrounds.enumerated().map { index, background in
      """
        bg\(index):
          sources: ["photos"]
          guide: {shape: square, size: 60}
          place: {fit: contain, overflow: fill, background: \(background)}
          outputs:
            - {path: "{stem}-\(index).png"}
            - {path: "{stem}-\(index).webp", encode: {lossless: true}}
            - {path: "{stem}-\(index).jpg", encode: {quality: 100, subsample: "4:4:4"}}
      """
    }.joined(separator: "\n")
    let harness = try RunHarness(
      samples: ["kite.jpg", "coffee-alpha.png"], job: "version: 1\noutput: out\njobs:\n\(jobs)\n")
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    var cases: [[String: Any]] = []
    for (index, background) in Self.backgrounds.enumerated() {
      for stem in ["kite", "coffee-alpha"] {
        for ext in ["png", "webp", "jpg"] {
          cases.append([
            "path": "\(harness.outputRoot)/\(stem)-\(index).\(ext)", "background": background, "alpha": ext != "jpg",
          ])
        }
      }
    }
    let input = String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self)
    let output = try tool(python, ["-c", Self.oracle, input])
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    XCTAssertEqual(report.count, cases.count)
    for (entry, input) in zip(report, cases) {
      let path = (entry["path"] as? String ?? "").replacingOccurrences(of: harness.outputRoot + "/", with: "")
      let worst = entry["worst"] as? Int ?? .max
      // Lossless formats hold the exact colour; JPEG at quality 100, 4:4:4, within 2.
      let allowed = path.hasSuffix(".jpg") ? 2 : 0
      XCTAssertLessThanOrEqual(
        worst, allowed,
        "\(path), background \(input["background"]!): expected \(entry["expected"]!), found \(entry["seen"]!)")
    }
  }

  /// Without alpha, the background is composited over white: in the planner's own numbers
  /// too (the render style, hence the output key, carries the opaque colour).
  func testFormatsWithoutAlphaGetTheBackgroundOverWhite() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          j:
            sources: ["photos/kite.jpg"]
            guide: {shape: circle, size: 60}
            place: {fit: contain, overflow: fill, background: "#33669980"}
            outputs: [{path: "{stem}.jpg"}, {path: "{stem}.png"}]
        """)
    defer { harness.remove() }
    let plan = try harness.plan()
    let styles = Dictionary(uniqueKeysWithValues: plan.outputs.map { ($0.path, $0.style) })
    XCTAssertEqual(styles["kite.jpg"]?.background, [153, 178, 204, 255])
    XCTAssertEqual(styles["kite.png"]?.background, [0x33, 0x66, 0x99, 0x80])
  }
}
