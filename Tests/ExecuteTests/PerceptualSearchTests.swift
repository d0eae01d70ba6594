import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The cost of `encode.target` was cut (each candidate JPEG decoded by libjpeg-turbo directly,
/// the SSIM's filters rewritten) without changing what it picks: the quality the search
/// writes is the one an independent search picks (Pillow encodes, scikit-image scores), and
/// the direct decode gives libvips' pixels.
final class PerceptualSearchTests: XCTestCase {
  /// Scores of the same pixels by cropjob and by the oracle may differ by this much; the
  /// quality must be the same (a score this close to the target would flip it: none is).
  static let metricTolerance = 1e-9

  func testChosenQualityMatchesAnIndependentSearch() throws {
    guard let python = TestPaths.python,
      Subprocess.succeeds(python, ["-c", "import skimage.metrics, PIL, numpy"])
    else { throw Skipped.because("no /usr/bin/python3 with python3-skimage, python3-pil and python3-numpy") }
    let targets = [0.95, 0.98]
    let stems = ["bridge", "cameraman", "kite", "ladybird", "mountains", "nuthatch"]
    let harness = try RunHarness(
      samples: stems.map { $0 == "cameraman" ? "\($0).png" : "\($0).jpg" },
      job: """
        version: 1
        output: out
        defaults:
          guide: {shape: rect, width: 240, height: 160}
        jobs:
          t:
            sources: ["photos"]
            outputs:
              - {path: "{stem}-reference.png"}
        \(targets.map { "      - {path: \"{stem}-\($0).jpg\", encode: {quality: 95, min_quality: 30, target: {ssim: \($0)}}}" }.joined(separator: "\n"))
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let entries = try manifest(harness).outputs
    var qualities: Set<Int> = []
    for target in targets {
      let references = stems.map { "\(harness.outputRoot)/\($0)-reference.png" }
      let result = try Subprocess.run(
        python, [TestPaths.oracle("ssim_search_oracle.py"), "\(target)", "30", "95"] + references)
      XCTAssertEqual(result.status, 0, result.stderr)
      let lines = result.stdout.split(separator: "\n")
      XCTAssertEqual(lines.count, stems.count, result.stdout)
      for (stem, line) in zip(stems, lines) {
        let fields = line.split(separator: " ")
        let entry = try XCTUnwrap(entries.first { $0.path == "\(stem)-\(target).jpg" }, "\(stem) \(target)")
        let (quality, score) = (Int(fields[0]), Double(fields[1]))
        print("target \(target) \(stem): cropjob quality \(entry.quality) ssim \(entry.ssim ?? 0); oracle \(line)")
        XCTAssertEqual(entry.quality, quality, "\(stem) at \(target): the quality differs from the oracle's search")
        XCTAssertEqual(entry.ssim ?? 0, score ?? 1, accuracy: Self.metricTolerance, "\(stem) at \(target)")
        qualities.insert(entry.quality)
      }
    }
    // The search went somewhere: not every photo at the ceiling or the floor.
    XCTAssertGreaterThan(qualities.subtracting([30, 95]).count, 3, "\(qualities)")
  }

  /// Every kind of JPEG the encoder writes (4:2:0 under quality 90, 4:4:4 from 90,
  /// progressive, grey) decodes to the same pixels directly and through libvips.
  func testDirectDecodeGivesLibvipsPixels() throws {
    let photo = try Raster.decode(path: TestPaths.sample("mountains.jpg"))
    let grey = try Raster.decode(path: TestPaths.sample("cameraman.png"))
    XCTAssertEqual(grey.bands, 1)
    var progressive = EncodeOptions(format: .jpeg)
    progressive.progressive = true
    var noSubsampling = EncodeOptions(format: .jpeg)
    noSubsampling.chromaSubsampling = false
    let cases: [(Raster, EncodeOptions, Int)] = [
      (photo, EncodeOptions(format: .jpeg), 30), (photo, EncodeOptions(format: .jpeg), 89),
      (photo, EncodeOptions(format: .jpeg), 90), (photo, progressive, 70), (photo, noSubsampling, 50),
      (grey, EncodeOptions(format: .jpeg), 60),
    ]
    for (raster, options, quality) in cases {
      let bytes = try ImageEncoder.encode(try raster.vipsImage(), options: options, quality: quality)
      let direct = try XCTUnwrap(PerceptualScore.decodeJPEG(bytes), "\(options) q\(quality)")
      let libvips = try Raster.decode(bytes: bytes)
      XCTAssertEqual(direct, libvips, "\(options) q\(quality): the direct decode differs from libvips'")
      // A search's fast candidate (baseline, standard Huffman tables): other bytes, the same pixels.
      guard raster.bands == 3 else { continue }
      let fast = try XCTUnwrap(
        try ImageEncoder.jpegDirect(try raster.vipsImage(), options: options, quality: quality, optimize: false))
      XCTAssertNotEqual(fast, bytes)
      XCTAssertEqual(PerceptualScore.decodeJPEG(fast), libvips, "\(options) q\(quality): the fast candidate's pixels")
    }
    // Not a JPEG: left to libvips.
    XCTAssertNil(PerceptualScore.decodeJPEG(try photo.pngBytes()))
  }
}
