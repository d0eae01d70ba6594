import CropGeometry
import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Placement outputs against an independent computation.
///
/// Each case is a real job (a YAML file in a temporary folder over a photo of samples/), run
/// in-process (JobFileLoader → Planner → Executor). `Oracle/placement_oracle.py` then derives
/// the expected output from the same job numbers alone: it re-implements docs/geometry.md
/// (fit, zoom, focus, offset, rotate, flip, crop, overflow, upscale, output scale) in Python,
/// decodes the photo with Pillow (`ImageOps.exif_transpose`, JPEG shrink-on-load with
/// Pillow's `draft`, box pre-shrink with `reduce`), resamples once in numpy as
/// docs/resampling.md says (axis-aligned covered outputs: separable, Lanczos3 widened by the
/// ratio on a downscale, Catmull-Rom otherwise; all others: the point-sampled Catmull-Rom
/// cubic libvips calls bicubic), fills the background, cuts the circle of the documented
/// formula, flattens for JPEG, and compares with the file cropjob wrote.
///
/// Asserted per case: the exact output size; mean absolute difference ≤ 2/255 on every
/// channel (R, G, B premultiplied by alpha, and alpha) over pixels 2 px or more away from the
/// output's edges and from any photo/background or circle edge; and that the picture is not
/// displaced (least-squares shift ≤ 0.1 px). The log also shows the same comparison against
/// Pillow's own resampler: `resize` over the output's preimage (LANCZOS on a downscale) for
/// the separable case, else `Image.transform(AFFINE, BICUBIC)`, whose cubic (a = −1) is
/// sharper than libvips' (a = −1/2); either differs by up to about 2/255 on textured photos
/// even when the placement is exact: that figure is held to a looser 3/255.
///
/// Skipped when Debian's /usr/bin/python3 with python3-pil and python3-numpy is absent.
final class PlacementImageTests: XCTestCase {
  struct Case: Sendable {
    var name: String
    var source: String
    /// The job file's `guide` and `place` mappings, as JSON (which YAML reads as flow style).
    var guide: String
    var place: String
    /// The job file's output entry, as JSON.
    var output: String
  }

  /// JPEG outputs at quality 100 without chroma subsampling, so that the comparison measures
  /// the placement and the resampling rather than the encoder.
  static func jpeg(_ sizes: String = #""scales": [1]"#, path: String = "{stem}.jpg") -> String {
    #"{"path": "\#(path)", \#(sizes), "encode": {"quality": 100, "subsample": "4:4:4"}}"#
  }
  static func png(_ sizes: String = #""scales": [1]"#) -> String { #"{"path": "{stem}.png", \#(sizes)}"# }

  static let cases: [Case] = [
    // fit, zoom, offset, focus
    Case(
      name: "cover-centre", source: "bridge.jpg", guide: #"{"shape": "rect", "width": 320, "height": 180}"#,
      place: #"{"fit": "cover"}"#, output: jpeg()),
    Case(
      name: "zoom-2", source: "mountains.jpg", guide: #"{"shape": "square", "size": 256}"#,
      place: #"{"fit": "cover", "zoom": 2}"#, output: jpeg()),
    Case(
      name: "zoom-0.6-fill", source: "kite.jpg", guide: #"{"shape": "square", "size": 240}"#,
      place: #"{"zoom": 0.6, "overflow": "fill"}"#, output: png()),
    Case(
      name: "offset", source: "ladybird.jpg", guide: #"{"shape": "rect", "width": 300, "height": 200}"#,
      place: #"{"zoom": 1.5, "offset": [40, -25]}"#, output: jpeg()),
    Case(
      name: "offset-clamped", source: "nuthatch.jpg", guide: #"{"shape": "rect", "width": 300, "height": 200}"#,
      place: #"{"zoom": 1.2, "offset": [900, 40]}"#, output: jpeg()),
    Case(
      name: "focus-top-left", source: "forest-path.jpg", guide: #"{"shape": "square", "size": 200}"#,
      place: #"{"zoom": 1.5, "focus": "top-left"}"#, output: jpeg()),
    Case(
      name: "focus-bottom", source: "boats-gps.jpg", guide: #"{"shape": "rect", "width": 320, "height": 120}"#,
      place: #"{"focus": "bottom"}"#, output: jpeg()),
    Case(
      name: "focus-point-zoom-o6", source: "dragonfly-sideways-6.jpg", guide: #"{"shape": "square", "size": 240}"#,
      place: #"{"zoom": 2, "focus": [0.3, 0.25]}"#, output: jpeg()),
    // rotate
    Case(
      name: "rotate-90", source: "bridge.jpg", guide: #"{"shape": "rect", "width": 180, "height": 320}"#,
      place: #"{"rotate": 90}"#, output: jpeg()),
    Case(
      name: "rotate-minus-90-o8", source: "portrait-sideways-8.jpg",
      guide: #"{"shape": "rect", "width": 300, "height": 200}"#, place: #"{"rotate": -90}"#, output: jpeg()),
    Case(
      name: "rotate-180", source: "cat.png", guide: #"{"shape": "rect", "width": 300, "height": 200}"#,
      place: #"{"rotate": 180}"#, output: png()),
    Case(
      name: "rotate-30-cover", source: "mountains.jpg", guide: #"{"shape": "rect", "width": 300, "height": 200}"#,
      place: #"{"rotate": 30}"#, output: jpeg()),
    Case(
      name: "rotate-minus-12.5-focus", source: "ladybird.jpg", guide: #"{"shape": "square", "size": 256}"#,
      place: #"{"rotate": -12.5, "zoom": 1.3, "focus": [0.6, 0.4]}"#, output: jpeg()),
    Case(
      name: "rotate-45-contain-fill", source: "kite.jpg", guide: #"{"shape": "square", "size": 256}"#,
      place: #"{"fit": "contain", "rotate": 45, "overflow": "fill"}"#, output: png()),
    Case(
      name: "rotate-20-fill-colour", source: "astronaut.jpg", guide: #"{"shape": "rect", "width": 320, "height": 240}"#,
      place: ##"{"fit": "contain", "rotate": 20, "overflow": "fill", "background": "#204060"}"##, output: jpeg()),
    // explicit crops
    Case(
      name: "crop-circle-png", source: "astronaut.jpg", guide: #"{"shape": "circle", "size": 200}"#,
      place: #"{"crop": {"x": 130, "y": 20, "width": 220, "height": 220}}"#, output: png()),
    Case(
      name: "crop-angle-15", source: "bridge.jpg", guide: #"{"shape": "rect", "width": 300, "height": 200}"#,
      place: #"{"crop": {"x": 500, "y": 200, "width": 600, "height": 400, "angle": 15}}"#, output: jpeg()),
    Case(
      name: "crop-angle-outside", source: "nuthatch.jpg", guide: #"{"shape": "rect", "width": 320, "height": 240}"#,
      place: #"{"crop": {"x": -100, "y": 100, "width": 800, "height": 600, "angle": -30}}"#, output: png()),
    Case(
      name: "crop-aspect-mismatch", source: "bridge.jpg", guide: #"{"shape": "square", "size": 256}"#,
      place: #"{"crop": {"x": 0, "y": 0, "width": 1600, "height": 900}}"#, output: jpeg()),
    // flip
    Case(
      name: "flip-h", source: "cat.png", guide: #"{"shape": "square", "size": 200}"#,
      place: #"{"flip": "horizontal", "focus": [0.4, 0.5]}"#, output: png()),
    Case(
      name: "flip-v-rotate-10", source: "boats-gps.jpg", guide: #"{"shape": "rect", "width": 320, "height": 200}"#,
      place: #"{"flip": "vertical", "rotate": 10}"#, output: jpeg()),
    Case(
      name: "flip-both-offset", source: "forest-path.jpg", guide: #"{"shape": "rect", "width": 200, "height": 300}"#,
      place: #"{"flip": "both", "zoom": 1.4, "offset": [30, 20]}"#, output: jpeg()),
    // overflow
    Case(
      name: "clamp-zoom-out", source: "kite.jpg", guide: #"{"shape": "square", "size": 256}"#,
      place: #"{"zoom": 0.5, "overflow": "clamp"}"#, output: png()),
    Case(
      name: "shrink-contain", source: "mountains.jpg", guide: #"{"shape": "square", "size": 300}"#,
      place: #"{"fit": "contain", "overflow": "shrink"}"#, output: jpeg()),
    Case(
      name: "shrink-rotate-30", source: "cat.png", guide: #"{"shape": "square", "size": 300}"#,
      place: #"{"fit": "contain", "rotate": 30, "overflow": "shrink"}"#, output: png()),
    Case(
      name: "shrink-circle", source: "bridge.jpg", guide: #"{"shape": "circle", "size": 256}"#,
      place: #"{"fit": "contain", "overflow": "shrink"}"#, output: png()),
    // circle
    Case(
      name: "circle-png", source: "forest-path.jpg", guide: #"{"shape": "circle", "size": 256}"#,
      place: #"{"focus": [0.5, 0.6]}"#, output: png()),
    Case(
      name: "circle-jpeg-background", source: "ladybird.jpg", guide: #"{"shape": "circle", "size": 200}"#,
      place: ##"{"focus": [0.7, 0.5], "zoom": 1.5, "background": "#ffcc00"}"##, output: jpeg()),
    Case(
      name: "circle-o8", source: "portrait-sideways-8.jpg", guide: #"{"shape": "circle", "size": 200}"#,
      place: #"{"focus": [0.55, 0.35], "zoom": 1.4}"#, output: png()),
    // fit none / contain, upscale
    Case(
      name: "fit-none", source: "cat.png", guide: #"{"shape": "rect", "width": 200, "height": 150}"#,
      place: #"{"fit": "none", "focus": [0.4, 0.5]}"#, output: png()),
    Case(
      name: "fit-none-rotate-7-grey", source: "cameraman.png", guide: #"{"shape": "square", "size": 256}"#,
      place: #"{"fit": "none", "rotate": 7, "overflow": "fill"}"#, output: png()),
    Case(
      name: "contain-jpeg-white", source: "forest-path.jpg", guide: #"{"shape": "rect", "width": 320, "height": 200}"#,
      place: #"{"fit": "contain", "overflow": "fill"}"#, output: jpeg()),
    Case(
      name: "upscale-false", source: "astronaut.jpg", guide: #"{"shape": "square", "size": 800}"#,
      place: #"{"upscale": false}"#, output: jpeg()),
    Case(
      name: "upscale-3x", source: "astronaut.jpg", guide: #"{"shape": "square", "size": 300}"#,
      place: #"{"crop": {"x": 200, "y": 80, "width": 100, "height": 100}}"#, output: jpeg()),
    // sources with alpha
    Case(
      name: "alpha-source-rotate", source: "coffee-alpha.png", guide: #"{"shape": "square", "size": 300}"#,
      place: #"{"rotate": 10}"#, output: png()),
    Case(
      name: "alpha-source-jpeg-black", source: "coffee-alpha.png",
      guide: #"{"shape": "rect", "width": 300, "height": 200}"#,
      place: #"{"background": "black"}"#, output: jpeg()),
    Case(
      name: "alpha-source-box-shrink", source: "coffee-alpha.png",
      guide: #"{"shape": "rect", "width": 150, "height": 100}"#, place: #"{"rotate": -6}"#, output: png()),
    // output scales, EXIF orientation 3
    Case(
      name: "scale-2x", source: "ladybird.jpg", guide: #"{"shape": "rect", "width": 160, "height": 100}"#,
      place: #"{"focus": [0.7, 0.5]}"#, output: jpeg(#""scales": [2]"#)),
    Case(
      name: "width-250", source: "nuthatch.jpg", guide: #"{"shape": "rect", "width": 400, "height": 300}"#,
      place: #"{"fit": "cover"}"#, output: jpeg(#""widths": [250]"#, path: "{stem}-{width}.jpg")),
    Case(
      name: "upside-down-o3", source: "sunset-upside-down-3.jpg",
      guide: #"{"shape": "rect", "width": 400, "height": 240}"#,
      place: #"{"focus": [0.5, 0.6]}"#, output: jpeg()),
  ]

  static let oracle = TestPaths.oracle("placement_oracle.py")

  /// /usr/bin/python3 when it can import PIL and numpy.
  static func pythonWithPillow() -> String? {
    guard let python = TestPaths.python else { return nil }
    return Subprocess.succeeds(python, ["-c", "import PIL, numpy"]) ? python : nil
  }

  func testPlacementsMatchAnIndependentComputation() throws {
    guard let python = Self.pythonWithPillow() else {
      throw Skipped.because(
        "needs /usr/bin/python3 with python3-pil and python3-numpy (apt-get install python3-pil python3-numpy)")
    }
    XCTAssertGreaterThanOrEqual(Self.cases.count, 20)
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    var oracleCases: [[String: Any]] = []
    var planned: [String: PlannedOutput] = [:]
    for c in Self.cases {
      let dir = folder.appendingPathComponent(c.name)
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      let source = TestPaths.sample(c.source)
      let job = """
        version: 1
        output: out
        jobs:
          case:
            sources: ["\(source)"]
            guide: \(c.guide)
            place: \(c.place)
            outputs:
              - \(c.output)

        """
      let jobPath = dir.appendingPathComponent("job.yaml").path
      try job.write(toFile: jobPath, atomically: true, encoding: .utf8)
      guard let plan = JobRunner.run(jobPath), let output = plan.outputs.first else { continue }
      XCTAssertEqual(plan.outputs.count, 1, c.name)
      planned[c.name] = output
      oracleCases.append([
        "name": c.name, "source": source, "guide": try Self.json(c.guide), "place": try Self.json(c.place),
        "output": try Self.json(c.output), "actual": output.absolutePath,
      ])
    }
    let casesPath = folder.appendingPathComponent("cases.json")
    try JSONSerialization.data(withJSONObject: ["cases": oracleCases]).write(to: casesPath)

    let oracle = try Subprocess.run(python, [Self.oracle, casesPath.path])
    print(oracle.stderr)
    XCTAssertEqual(oracle.status, 0, "oracle failed: \(oracle.stderr)")
    let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: oracle.stdoutData) as? [[String: Any]])
    XCTAssertEqual(results.count, Self.cases.count)

    for r in results {
      let name = r["name"] as? String ?? "?"
      guard let expectedSize = r["expected_size"] as? [Int], let actualSize = r["actual_size"] as? [Int] else {
        XCTFail("\(name): the oracle gave no sizes: \(r)")
        continue
      }
      XCTAssertEqual(actualSize, expectedSize, "\(name): output size")
      let means = (r["mean"] as? [Any] ?? []).map { ($0 as? Double) ?? .infinity }
      XCTAssertEqual(means.count, 4, "\(name): no figures")
      let compared = r["compared"] as? Int ?? 0
      let pixels = max(1, expectedSize.reduce(1, *))
      XCTAssertGreaterThan(Double(compared) / Double(pixels), 0.2, "\(name): too few pixels compared")
      for (channel, mean) in zip(["R", "G", "B", "A"], means) {
        XCTAssertLessThanOrEqual(mean, 2.0, "\(name): mean |difference| of \(channel) is \(mean)/255")
      }
      // Pillow's own resampler as a second, looser witness: a placement
      // error of even a quarter pixel shows up as several levels here too.
      let pillow = (r["pillow_mean"] as? [Any] ?? []).map { ($0 as? Double) ?? .infinity }
      XCTAssertLessThanOrEqual(
        pillow.max() ?? .infinity, 3.0, "\(name): mean |difference| from Pillow's resampler \(pillow)")
      // The oracle gives null where it cannot measure a shift (sizes differ, too few pixels
      // compared, no gradient): that is a failure, never a shift of zero.
      if let shift = r["shift"] as? [Double], shift.count == 2 {
        XCTAssertLessThanOrEqual(shift.map(abs).max()!, 0.1, "\(name): picture displaced by \(shift) px")
      } else {
        XCTFail("\(name): no shift measured (\(r["shift"] ?? "none"))")
      }
      // Cross-check only: the oracle's own numbers against what the planner computed.
      if let output = planned[name], let scale = r["scale"] as? Double {
        XCTAssertEqual(output.geometry.scale, scale, accuracy: 1e-9 * scale, "\(name): scale")
      }
    }
  }

  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }
}
