import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Issue 5: `encode.colour` — sRGB by default, or the source's own colour space and profile.
final class ColourPolicyTests: XCTestCase {
  /// A Display P3 copy of a colourful sample, made by libvips' built-in P3 profile.
  func makeP3(_ harness: RunHarness) throws -> String {
    let p3 = harness.folder.appendingPathComponent("photos/ladybird-p3.jpg").path
    try tool(
      "/usr/bin/vips",
      ["icc_transform", harness.folder.appendingPathComponent("photos/ladybird.jpg").path, p3 + "[Q=95]", "p3"])
    XCTAssertEqual(try header(p3, "icc-profile-data").isEmpty, false)
    return p3
  }

  /// `keep` leaves the P3 numbers as they are and embeds the P3 profile; `srgb` converts.
  /// Oracle: Pillow resizes the source's numbers (keep) or LittleCMS-through-Pillow's sRGB
  /// conversion of them (srgb); the two expectations differ by ~5/255 on this photo, so each
  /// output must be clearly closer to its own.
  func testKeepLeavesWideGamutPixelsAndEmbedsTheSourceProfile() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let harness = try RunHarness(
      samples: ["ladybird.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          colour:
            sources: ["photos/ladybird-p3.jpg"]
            guide: {shape: rect, width: 320, height: 200}
            place: {fit: contain}
            outputs:
              - {path: "{stem}-keep.png", encode: {colour: keep}}
              - {path: "{stem}-srgb.png"}
              - {path: "{stem}-keep.jpg", encode: {colour: keep, quality: 95}}
              - {path: "{stem}-keep.webp", encode: {colour: keep}}
              - {path: "{stem}-keep.avif", encode: {colour: keep}}
        """)
    defer { harness.remove() }
    let p3 = try makeP3(harness)
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    // One decode per colour policy.
    XCTAssertEqual(summary.decodes, 2)
    let out = harness.outputRoot
    let script = """
      import sys
      from PIL import Image, ImageCms
      import numpy as np
      src = Image.open(sys.argv[1]); src.load()
      icc = src.info["icc_profile"]
      p3 = ImageCms.ImageCmsProfile(__import__("io").BytesIO(icc))
      srgb = ImageCms.profileToProfile(src, p3, ImageCms.createProfile("sRGB"), renderingIntent=0, outputMode="RGB")
      size = (320, 200)
      expect_keep = np.asarray(src.resize(size, Image.LANCZOS), dtype=float)
      expect_srgb = np.asarray(srgb.resize(size, Image.LANCZOS), dtype=float)
      def diff(a, b): return np.abs(a - b)[2:-2, 2:-2].mean()
      keep = Image.open(sys.argv[2]); srgb_out = Image.open(sys.argv[3])
      got_keep = np.asarray(keep.convert("RGB"), dtype=float)
      got_srgb = np.asarray(srgb_out.convert("RGB"), dtype=float)
      same = [Image.open(p).info.get("icc_profile") == icc for p in sys.argv[2:3] + sys.argv[4:6]]
      print("%.3f %.3f %.3f %.3f %d %d" % (
        diff(got_keep, expect_keep), diff(got_keep, expect_srgb), diff(got_srgb, expect_srgb), diff(got_srgb, expect_keep),
        all(same), srgb_out.info.get("icc_profile") is None))
      """
    let fields = try tool(
      python,
      [
        "-c", script, p3, "\(out)/ladybird-p3-keep.png", "\(out)/ladybird-p3-srgb.png", "\(out)/ladybird-p3-keep.jpg",
        "\(out)/ladybird-p3-keep.webp",
      ]
    ).split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity }
    XCTAssertEqual(fields.count, 6)
    guard fields.count == 6 else { return }
    print(
      "colour keep: \(fields[0]) from the P3 numbers, \(fields[1]) from sRGB; srgb: \(fields[2]) from sRGB, \(fields[3]) from P3 (/255)"
    )
    XCTAssertLessThan(fields[0], 0.6, "keep output vs the source's own numbers (README: within 0.6/255)")
    XCTAssertLessThan(fields[2], 0.7, "srgb output vs an independent P3 → sRGB conversion (README: within 0.7/255)")
    XCTAssertGreaterThan(fields[1], fields[0] + 4, "keep output is not in P3 (the two expectations differ by 5.5/255)")
    XCTAssertGreaterThan(
      fields[3], fields[2] + 4, "srgb output is not in sRGB (the two expectations differ by 5.5/255)")
    XCTAssertEqual(fields[4], 1, "png, jpg and webp outputs carry the source's profile byte for byte")
    XCTAssertEqual(fields[5], 1, "a stripped sRGB output carries no profile")
    XCTAssertEqual(try header("\(out)/ladybird-p3-keep.avif", "icc-profile-data").isEmpty, false)
  }

  /// A 16-bit RGB source under `keep` comes out 8-bit in its own colour space: the same
  /// numbers as an 8-bit P3 rendering of the photo (Pillow resizes it), with its profile.
  func testKeepOnA16BitSourceOnlyChangesTheDepth() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let harness = try RunHarness(
      samples: ["ladybird.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          colour:
            sources: ["photos/ladybird-p3-16.png"]
            guide: {shape: rect, width: 320, height: 200}
            outputs: [{path: "{stem}.png", encode: {colour: keep}}]
        """)
    defer { harness.remove() }
    let photo = harness.folder.appendingPathComponent("photos/ladybird.jpg").path
    let sixteen = harness.folder.appendingPathComponent("photos/ladybird-p3-16.png").path
    let eight = harness.folder.appendingPathComponent("reference-p3-8.png").path
    try tool("/usr/bin/vips", ["icc_transform", photo, sixteen, "p3", "--depth", "16"])
    try tool("/usr/bin/vips", ["icc_transform", photo, eight, "p3"])
    XCTAssertTrue(try header(sixteen, "format").contains("USHORT"))
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let script = """
      import sys
      from PIL import Image
      import numpy as np
      ref = Image.open(sys.argv[1]); out = Image.open(sys.argv[2])
      expected = np.asarray(ref.convert("RGB").resize((320, 200), Image.LANCZOS), dtype=float)
      got = np.asarray(out, dtype=float)
      same = int(out.info.get("icc_profile") == ref.info.get("icc_profile"))
      print(out.mode, "%.3f" % np.abs(got - expected)[2:-2, 2:-2].mean(), same)
      """
    let fields = try tool(python, ["-c", script, eight, "\(harness.outputRoot)/ladybird-p3-16.png"])
      .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    XCTAssertEqual(fields.count, 3)
    guard fields.count == 3 else { return }
    print("colour keep, 16-bit P3 source: \(fields[0]), mean difference \(fields[1]) / 255 from the 8-bit P3 reference")
    XCTAssertEqual(fields[0], "RGB")
    XCTAssertLessThan(Double(fields[1]) ?? .infinity, 1.5)
    XCTAssertEqual(fields[2], "1", "the output carries the source's P3 profile")
  }

  /// With `metadata: strip`, `keep` adds the profile and nothing else, and `metadata: [icc]`
  /// keeps the (sRGB) profile and nothing else (libvips' JPEG and WebP savers write an EXIF
  /// block of their own as soon as any metadata is written: it is removed).
  func testKeepWithStripWritesTheProfileOnly() throws {
    let harness = try RunHarness(
      samples: ["ladybird.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          colour:
            sources: ["photos/ladybird-p3.jpg"]
            guide: {shape: square, size: 96}
            outputs:
              - {path: "{stem}-keep.jpg", encode: {colour: keep}}
              - {path: "{stem}-keep.webp", encode: {colour: keep}}
              - {path: "{stem}-keep.png", encode: {colour: keep}}
              - {path: "{stem}-icc.jpg", metadata: [icc]}
              - {path: "{stem}-icc.webp", metadata: [icc]}
        """)
    defer { harness.remove() }
    let p3 = try makeP3(harness)
    try tool(
      "/usr/bin/exiftool", ["-overwrite_original", "-GPSLatitude=51.5", "-GPSLatitudeRef=N", "-Artist=Jane Doe", p3])
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let names = ["keep.jpg", "keep.webp", "keep.png", "icc.jpg", "icc.webp"].map { "ladybird-p3-\($0)" }
    for name in names {
      let groups = try tool("/usr/bin/exiftool", ["-a", "-G0", "-s", "\(harness.outputRoot)/\(name)"])
        .split(separator: "\n").map { String($0.prefix { $0 != "]" }.dropFirst()) }
      let kinds = Set(groups).subtracting(["ExifTool", "File", "Composite", "JFIF", "PNG", "RIFF"])
      XCTAssertEqual(kinds, ["ICC_Profile"], "\(name) carries more than its profile")
    }
  }

  /// A CMYK source under `keep` still comes out sRGB (outputs are RGB), and an untagged one
  /// gives the same bytes as under `srgb`.
  func testKeepConvertsCMYKAndLeavesUntaggedSourcesAsSRGB() throws {
    let harness = try RunHarness(
      samples: ["bridge.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          colour:
            sources: ["photos/bridge.jpg", "photos/bridge-cmyk.jpg"]
            guide: {shape: rect, width: 160, height: 90}
            outputs:
              - {path: "{stem}-keep.jpg", encode: {colour: keep}}
              - {path: "{stem}-srgb.jpg"}
        """)
    defer { harness.remove() }
    let rgb = harness.folder.appendingPathComponent("photos/bridge.jpg").path
    let cmyk = harness.folder.appendingPathComponent("photos/bridge-cmyk.jpg").path
    try tool("/usr/bin/vips", ["icc_export", rgb, cmyk + "[Q=95]", "--output-profile", "cmyk"])
    XCTAssertFalse(try tool("/usr/bin/vipsheader", ["-a", rgb]).contains("icc-profile-data"), "the sample is untagged")
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let out = URL(fileURLWithPath: harness.outputRoot)
    XCTAssertEqual(
      try Data(contentsOf: out.appendingPathComponent("bridge-keep.jpg")),
      try Data(contentsOf: out.appendingPathComponent("bridge-srgb.jpg")))
    XCTAssertEqual(
      try Data(contentsOf: out.appendingPathComponent("bridge-cmyk-keep.jpg")),
      try Data(contentsOf: out.appendingPathComponent("bridge-cmyk-srgb.jpg")))
    XCTAssertEqual(try header(out.appendingPathComponent("bridge-cmyk-keep.jpg").path, "bands"), "3")
  }

  /// The policy is part of an output's key: switching it rebuilds that output only; the plan
  /// counts one decode per source and policy.
  func testChangingThePolicyRebuildsAndThePlanCountsDecodes() throws {
    let job = { (colour: String) in
      """
      version: 1
      output: out
      jobs:
        colour:
          sources: ["photos/ladybird-p3.jpg"]
          guide: {shape: square, size: 64}
          outputs:
            - {path: "{stem}-a.jpg", encode: {colour: \(colour)}}
            - {path: "{stem}-b.jpg"}
      """
    }
    let harness = try RunHarness(samples: ["ladybird.jpg"], job: job("srgb"))
    defer { harness.remove() }
    _ = try makeP3(harness)
    XCTAssertTrue(PlanRenderer.render(try harness.plan(), format: .text).contains("2 outputs from 1 decodes"))
    XCTAssertEqual(try harness.run().0.written, 2)
    try harness.writeJob(job("keep"))
    XCTAssertTrue(PlanRenderer.render(try harness.plan(), format: .text).contains("2 outputs from 2 decodes"))
    let (summary, reporter) = try harness.run()
    XCTAssertEqual(reporter.written, ["ladybird-p3-a.jpg"])
    XCTAssertEqual(summary.upToDate, 1)
  }
}
