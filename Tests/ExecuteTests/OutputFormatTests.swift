import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Issue 5: formats round-trip, byte budgets, metadata policy, colour conversion.
final class OutputFormatTests: XCTestCase {
  func testEveryAvailableFormatRoundTrips() throws {
    let formats = OutputFormat.available
    XCTAssertTrue(formats.contains(.jpeg) && formats.contains(.png) && formats.contains(.webp))
    let outputs = formats.map { f in
      let extra = f == .png ? "" : ", quality: 90"
      return "      - {path: \"{stem}-\(f.rawValue).\(f.fileExtension)\", encode: {format: \(f.rawValue)\(extra)}}"
    }.joined(separator: "\n")
    let harness = try RunHarness(
      samples: ["bridge.jpg", "coffee-alpha.png"],
      job: """
        version: 1
        output: out
        jobs:
          all:
            sources: ["photos"]
            guide: {shape: rect, width: 240, height: 160}
            outputs:
              - {path: "{stem}-reference.png", encode: {format: png}}
        \(outputs)
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    for stem in ["bridge", "coffee-alpha"] {
      let reference = "\(harness.outputRoot)/\(stem)-reference.png"
      for f in formats {
        let path = "\(harness.outputRoot)/\(stem)-\(f.rawValue).\(f.fileExtension)"
        XCTAssertEqual(try header(path, "width"), "240", path)
        XCTAssertEqual(try header(path, "height"), "160", path)
        let diff = try meanDifference(path, reference, in: harness.folder)
        print("round trip \(stem) \(f.rawValue): mean difference \(String(format: "%.2f", diff)) / 255")
        // GIF holds 1-bit transparency: coffee-alpha's feathered vignette becomes a hard edge
        // (measured 15.1/255 flattened on white; 1.2 on the opaque bridge).
        let tolerance = f == .png || f == .tiff ? 0.01 : f == .gif && stem == "coffee-alpha" ? 20.0 : 4.0
        XCTAssertLessThan(diff, tolerance, "\(stem) \(f.rawValue)")
      }
    }
  }

  func testByteBudgetsAreMetByBisection() throws {
    var formats = ["jpeg", "webp"]
    if OutputFormat.available.contains(.avif) { formats.append("avif") }
    let budgets = [("jpeg", 12_000), ("webp", 20_000), ("avif", 8_000)]
    let outputs = formats.map { f in
      let budget = budgets.first { $0.0 == f }!.1
      return
        "      - {path: \"{stem}.\(f == "jpeg" ? "jpg" : f)\", encode: {format: \(f), quality: 95, max_bytes: \(budget), min_quality: 5}}"
    }.joined(separator: "\n")
    let samples = ["mountains.jpg", "forest-path.jpg", "coffee-alpha.png"]
    let harness = try RunHarness(
      samples: samples,
      job: """
        version: 1
        output: out
        jobs:
          budget:
            sources: ["photos"]
            guide: {shape: rect, width: 400, height: 300}
            outputs:
        \(outputs)
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let entries = try manifest(harness).outputs
    XCTAssertEqual(entries.count, samples.count * formats.count)
    XCTAssertTrue(entries.contains { $0.encodes > 1 }, "no budget needed a search: budgets too loose for a test")
    for entry in entries {
      let budget = budgets.first { entry.path.hasSuffix($0.0 == "jpeg" ? "jpg" : $0.0) }!.1
      let size = try FileManager.default.attributesOfItem(atPath: "\(harness.outputRoot)/\(entry.path)")[.size] as! Int
      print("budget \(entry.path): \(size) bytes ≤ \(budget), quality \(entry.quality), \(entry.encodes) encodes")
      XCTAssertEqual(size, entry.bytes)
      XCTAssertLessThanOrEqual(size, budget, entry.path)
      XCTAssertLessThanOrEqual(entry.encodes, 8, "bisection over 5...94 needs at most 1 + 7 encodes")
    }
  }

  func testUnreachableBudgetFailsThatOutputOnly() throws {
    let harness = try RunHarness(
      samples: ["mountains.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          tight:
            sources: ["photos"]
            guide: {shape: square, size: 600}
            outputs:
              - {path: "{stem}-tiny.jpg", encode: {quality: 80, max_bytes: 1000, min_quality: 60}}
              - {path: "{stem}-fine.jpg"}
        """)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 1)
    XCTAssertEqual(summary.written, 1)
    let failure = try XCTUnwrap(summary.failures.first)
    XCTAssertEqual(failure.output, "mountains-tiny.jpg")
    XCTAssertTrue(failure.reason.hasPrefix("cannot fit in max_bytes 1000:"), failure.reason)
    XCTAssertTrue(failure.reason.contains("at min_quality 60"), failure.reason)
    XCTAssertFalse(FileManager.default.fileExists(atPath: "\(harness.outputRoot)/mountains-tiny.jpg"))
  }

  func testMetadataIsStrippedByDefaultAndKeptOnRequest() throws {
    let harness = try RunHarness(
      samples: ["boats-gps.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          meta:
            sources: ["photos"]
            guide: {shape: square, size: 200}
            outputs:
              - {path: "{stem}-strip.jpg"}
              - {path: "{stem}-rights.jpg", metadata: [copyright, artist, date]}
              - {path: "{stem}-keep.jpg", metadata: keep}
              - {path: "{stem}-strip.webp"}
              - {path: "{stem}-strip.png"}
              - {path: "{stem}-strip.tiff"}
              - {path: "{stem}-strip.avif"}
        """)
    defer { harness.remove() }
    let photo = harness.folder.appendingPathComponent("photos/boats-gps.jpg").path
    // Add rights, a date and an orientation tag (pixels unchanged) to the GPS sample.
    try tool(
      "/usr/bin/exiftool",
      [
        "-overwrite_original", "-Orientation#=1", "-Artist=Jane Doe", "-Copyright=CC-BY 4.0 Jane Doe",
        "-DateTimeOriginal=2024:05:06 07:08:09", photo,
      ])
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    func tags(_ name: String) throws -> String {
      try tool("/usr/bin/exiftool", ["-a", "-G1", "-s", "\(harness.outputRoot)/\(name)"])
    }
    for name in ["jpg", "webp", "png", "tiff", "avif"].map({ "boats-gps-strip.\($0)" }) {
      let text = try tags(name)
      for forbidden in ["GPS", "SerialNumber", "FakeCam", "Jane Doe", "DateTimeOriginal", "ThumbnailImage", "Artist"] {
        XCTAssertFalse(text.contains(forbidden), "\(name) still has \(forbidden):\n\(text)")
      }
      if name.hasSuffix(".jpg") || name.hasSuffix(".webp") || name.hasSuffix(".png") {
        XCTAssertFalse(text.contains("Orientation"), "\(name) has an orientation tag:\n\(text)")
      }
    }
    let rights = try tags("boats-gps-rights.jpg")
    XCTAssertTrue(rights.contains("Jane Doe") && rights.contains("CC-BY 4.0"), rights)
    XCTAssertTrue(rights.contains("2024:05:06 07:08:09"), rights)
    for forbidden in ["GPS", "FAKE-SERIAL", "FakeCam"] {
      XCTAssertFalse(rights.contains(forbidden), "rights-only output has \(forbidden):\n\(rights)")
    }
    let kept = try tags("boats-gps-keep.jpg")
    XCTAssertTrue(kept.contains("GPSLatitude") && kept.contains("FakeCam"), kept)
    // libvips rebuilds the EXIF block with Orientation 1 ("normal"); the source's own value
    // is never carried over.
    for text in [rights, kept, try tags("boats-gps-strip.avif"), try tags("boats-gps-strip.tiff")] {
      for line in text.split(separator: "\n") where line.contains("Orientation") {
        XCTAssertTrue(line.contains("Horizontal (normal)"), String(line))
      }
    }
  }

  /// A CMYK JPEG with an embedded profile comes out sRGB with the colours an independent
  /// conversion (Pillow's ImageCms, i.e. LittleCMS without libvips) gives.
  func testCMYKSourceComesOutSRGB() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let harness = try RunHarness(
      samples: ["bridge.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          cmyk:
            sources: ["photos/bridge-cmyk.jpg"]
            guide: {shape: rect, width: 320, height: 180}
            place: {fit: contain}
            outputs: [{path: "{stem}.png"}]
        """)
    defer { harness.remove() }
    let rgb = harness.folder.appendingPathComponent("photos/bridge.jpg").path
    let cmyk = harness.folder.appendingPathComponent("photos/bridge-cmyk.jpg").path
    // libvips' built-in CMYK profile is embedded in the file.
    try tool("/usr/bin/vips", ["icc_export", rgb, cmyk + "[Q=95]", "--output-profile", "cmyk"])
    XCTAssertTrue(try header(cmyk, "interpretation").contains("CMYK"))
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let output = "\(harness.outputRoot)/bridge-cmyk.png"
    XCTAssertTrue(try header(output, "interpretation").contains("sRGB"))
    let script = """
      import io, sys
      from PIL import Image, ImageCms
      import numpy as np
      src = Image.open(sys.argv[1])
      assert src.mode == "CMYK", src.mode
      profile = ImageCms.ImageCmsProfile(io.BytesIO(src.info["icc_profile"]))
      srgb = ImageCms.profileToProfile(src, profile, ImageCms.createProfile("sRGB"), renderingIntent=0, outputMode="RGB")
      expected = np.asarray(srgb.resize((320, 180), Image.LANCZOS), dtype=float)
      got = np.asarray(Image.open(sys.argv[2]).convert("RGB"), dtype=float)
      print("%.3f" % np.abs(expected - got)[2:-2, 2:-2].mean())
      """
    let diff =
      Double(try tool(python, ["-c", script, cmyk, output]).trimmingCharacters(in: .whitespacesAndNewlines))
      ?? .infinity
    print("CMYK → sRGB: mean difference \(diff) / 255 against Pillow ImageCms")
    XCTAssertLessThan(diff, 4.0)
  }
}
