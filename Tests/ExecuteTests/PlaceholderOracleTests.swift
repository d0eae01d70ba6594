import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// `placeholders:` (docs/job-file.md, "placeholders") against independent implementations:
/// real jobs write lossless PNGs (opaque, transparent circle corners, a source with alpha,
/// landscape and portrait), and Tests/Oracle/placeholder_oracle.py reads each file with Pillow
/// and computes, from the file's pixels (composited over their alpha-weighted mean colour, as
/// the docs say):
///
/// - BlurHash with PyPI `blurhash` 1.1.5 on the whole output; the hashes' DC (sRGB) within 6
///   levels and AC values (as the decoder reads them, linear light) within 0.08 and within
///   0.45 of the reference's largest AC value (about two quantisation levels at the top of its
///   square-root scale): cropjob hashes its 32 px copy, averaged in sRGB, the reference every
///   pixel. Decoded back (linear light), the mean within 0.02 of the output's.
/// - ThumbHash with PyPI `thumbhash` 0.1.2 on the output thumbnailed to 100 px by Pillow (its
///   own pipeline), for opaque outputs (its encoder fails on alpha: a tuple precedence bug):
///   the same shape (alpha, orientation, component count, length), header values within 0.05,
///   AC values within 0.15 of their range; for every output, its average colour decoded back
///   within 6 levels of the output's mean and the average alpha within 0.04.
/// - The dominant colour by the stated definition on Pillow's own 32 px premultiplied box
///   copy: cropjob's cell holds at least 80 % as many pixels as the fullest cell, and its
///   colour is within 8 levels of that cell's mean.
/// - The LQIP data URI decoded by Pillow: the declared format, the asked size on the longer
///   side, at most 1,024 characters, its mean colour within 6 levels of the output's and its
///   mean alpha within 0.03.
///
/// Skipped when /usr/bin/python3 lacks Pillow, numpy, blurhash or thumbhash
/// (scripts/install-deps.sh installs them).
final class PlaceholderOracleTests: XCTestCase {
  static let job = """
    version: 1
    output: out
    defaults:
      placeholders: [blurhash, thumbhash, dominant, lqip]
    jobs:
      land:
        sources: ["photos"]
        guide: {width: 120, height: 80}
        outputs: [{path: "land/{stem}.png"}]
      tall:
        sources: ["photos"]
        guide: {width: 60, height: 100}
        outputs:
          - path: "tall/{stem}.png"
            placeholders:
              kinds: [blurhash, thumbhash, dominant, lqip]
              blurhash_components: [3, 5]
              lqip_size: 24
              lqip_format: webp
      circle:
        sources: ["photos"]
        guide: {shape: circle, size: 96}
        outputs: [{path: "circle/{stem}.png"}, {path: "circle/{stem}.jpg", placeholders: [dominant]}]
    """

  func testPlaceholdersAgreeWithIndependentImplementations() throws {
    guard let python = TestPaths.python,
      Subprocess.succeeds(python, ["-c", "import PIL, numpy, blurhash, thumbhash"])
    else {
      throw Skipped.because("needs /usr/bin/python3 with Pillow, numpy, blurhash 1.1.5 and thumbhash 0.1.2")
    }
    let harness = try RunHarness(samples: ["kite.jpg", "coffee-alpha.png", "bridge.jpg"], job: Self.job)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let entries = try manifest(harness).outputs
    XCTAssertEqual(entries.count, 12)
    // Only what was asked for: the circle JPEGs have a dominant colour and nothing else.
    for entry in entries where entry.path.hasSuffix(".jpg") {
      let values = try XCTUnwrap(entry.placeholders, entry.path)
      XCTAssertEqual(
        PlaceholderKind.allCases.filter { values[$0] != nil }, [.dominant], "\(entry.path): \(values)")
    }
    var cases: [[String: Any]] = []
    for entry in entries where entry.path.hasSuffix(".png") {
      let values = try XCTUnwrap(entry.placeholders, entry.path)
      for kind in PlaceholderKind.allCases { XCTAssertNotNil(values[kind], "\(entry.path): no \(kind)") }
      cases.append([
        "path": "\(harness.outputRoot)/\(entry.path)", "components": entry.path.hasPrefix("tall/") ? [3, 5] : [4, 3],
        "placeholders": [
          "blurhash": values.blurhash ?? "", "thumbhash": values.thumbhash ?? "", "dominant": values.dominant ?? "",
          "lqip": values.lqip ?? "",
        ],
      ])
    }
    XCTAssertEqual(cases.count, 9)
    let input = String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self)
    let output = try tool(python, [TestPaths.oracle("placeholder_oracle.py"), input])
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    XCTAssertEqual(report.count, cases.count)
    var opaqueThumbHashes = 0
    for (result, input) in zip(report, cases) {
      let path = (input["path"] as? String ?? "").replacingOccurrences(of: harness.outputRoot + "/", with: "")
      func number(_ group: String, _ key: String) -> Double {
        ((result[group] as? [String: Any])?[key] as? NSNumber)?.doubleValue ?? .infinity
      }
      let blur = result["blurhash"] as? [String: Any] ?? [:]
      XCTAssertEqual(blur["components"] as? [Int], input["components"] as? [Int], path)
      XCTAssertLessThanOrEqual(number("blurhash", "dc"), 6, "\(path) BlurHash DC: \(blur)")
      XCTAssertLessThanOrEqual(number("blurhash", "ac"), 0.08, "\(path) BlurHash AC: \(blur)")
      XCTAssertLessThanOrEqual(number("blurhash", "acShare"), 0.45, "\(path) BlurHash AC: \(blur)")
      XCTAssertLessThanOrEqual(number("blurhash", "decodedMean"), 0.02, "\(path) BlurHash decoded: \(blur)")

      let thumb = result["thumbhash"] as? [String: Any] ?? [:]
      if thumb["header"] != nil {
        opaqueThumbHashes += 1
        XCTAssertEqual(thumb["shape"] as? Bool, true, "\(path) ThumbHash shape: \(thumb)")
        XCTAssertLessThanOrEqual(number("thumbhash", "header"), 0.05, "\(path) ThumbHash header: \(thumb)")
        XCTAssertLessThanOrEqual(number("thumbhash", "ac"), 0.15, "\(path) ThumbHash AC: \(thumb)")
      }
      XCTAssertLessThanOrEqual(number("thumbhash", "averageColour"), 6, "\(path) ThumbHash average: \(thumb)")
      XCTAssertLessThanOrEqual(number("thumbhash", "averageAlpha"), 0.04, "\(path) ThumbHash alpha: \(thumb)")

      let dominant = result["dominant"] as? [String: Any] ?? [:]
      XCTAssertGreaterThanOrEqual(number("dominant", "share"), 0.8, "\(path) dominant: \(dominant)")
      XCTAssertLessThanOrEqual(number("dominant", "distance"), 8, "\(path) dominant: \(dominant)")

      let lqip = result["lqip"] as? [String: Any] ?? [:]
      let tall = path.hasPrefix("tall/")
      XCTAssertEqual(lqip["head"] as? String, tall ? "data:image/webp;base64" : "data:image/jpeg;base64", path)
      XCTAssertEqual((lqip["size"] as? [Int])?.max(), tall ? 24 : 16, "\(path) LQIP: \(lqip)")
      XCTAssertLessThanOrEqual(number("lqip", "length"), 1024, "\(path) LQIP: \(lqip)")
      XCTAssertLessThanOrEqual(number("lqip", "mean"), 6, "\(path) LQIP: \(lqip)")
      XCTAssertLessThanOrEqual(number("lqip", "alpha"), 0.03, "\(path) LQIP: \(lqip)")
    }
    // kite and bridge, landscape and portrait: the reference encoder's own comparison ran.
    XCTAssertEqual(opaqueThumbHashes, 4)
  }

  /// The same placeholders for any --jobs, recorded in the state as in the JSON manifest.
  func testPlaceholdersAreDeterministicAndRecordedInTheState() throws {
    let harness = try RunHarness(samples: ["kite.jpg", "coffee-alpha.png", "bridge.jpg"], job: Self.job)
    defer { harness.remove() }
    let other = harness.folder.appendingPathComponent("other").path
    XCTAssertEqual(try harness.run { $0.jobs = 1 }.0.failed, 0)
    XCTAssertEqual(try harness.run(outputRoot: other) { $0.jobs = 3 }.0.failed, 0)
    let one = try manifest(harness).outputs
    let three = Manifest.loadAll(root: other)
    XCTAssertEqual(one.count, 12)
    for entry in one {
      XCTAssertNotNil(entry.placeholders, entry.path)
      XCTAssertEqual(three[entry.path]?.placeholders, entry.placeholders, entry.path)
    }
  }
}
