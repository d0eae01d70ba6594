import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Features that no other test ran end to end (issue 29), in-process: glob classes, the path
/// placeholders, metadata kinds, each checked by a program cropjob did not write (libvips'
/// command line, exiftool). (SIGTERM through the binary: CLITests' `FeatureEndToEndTests`.)
final class JobFeatureTests: XCTestCase {
  /// `?` and `[a-z]` in source globs pick exactly the matching files; `{job}`, `{height}`,
  /// `{format}` and `{ext}` expand to the job's name, the written height, the format's usual
  /// extension and the source's extension.
  func testGlobClassesAndPlaceholders() throws {
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "bridge.jpg", "cat.png", "cameraman.png", "coffee-alpha.png"])
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        band:
          sources: ["photos/?ite.jpg", "photos/[a-c]a*.png"]
          guide: {shape: rect, width: 120, height: 90}
          outputs:
            - path: "{job}/{stem}-{height}.{format}"
              encode: {format: webp}
            - path: "{ext}/{stem}.png"
      """)
    let (result, _) = try s.run()
    XCTAssertEqual(result.failed, 0, "\(result.failures)")
    let written = try s.tree("out").keys.filter { !$0.hasPrefix("cropjob-manifest") && !$0.hasPrefix(".") }.sorted()
    // `?ite.jpg` matches kite.jpg, not bridge.jpg; `[a-c]a*.png` matches cat.png and
    // cameraman.png, not coffee-alpha.png (its second letter is `o`).
    XCTAssertEqual(
      written,
      [
        "band/cameraman-90.webp", "band/cat-90.webp", "band/kite-90.webp", "jpg/kite.png", "png/cameraman.png",
        "png/cat.png",
      ])
    for name in written {
      let (width, height, _) = try dimensions(s.path("out/\(name)"))
      XCTAssertEqual([width, height], [120, 90], name)
      let loader = try header(s.path("out/\(name)"), "vips-loader")
      XCTAssertTrue(loader.hasPrefix(name.hasSuffix(".webp") ? "webp" : "png"), "\(name): \(loader)")
    }
  }

  /// `metadata: [gps]` keeps the GPS position and nothing of the camera; `[camera]` the
  /// reverse; `strip` neither (exiftool reads the outputs).
  func testMetadataKindsKeepWhatIsListed() throws {
    let exiftool = "/usr/bin/exiftool"
    guard FileManager.default.isExecutableFile(atPath: exiftool) else {
      throw Skipped.because("\(exiftool) is not installed")
    }
    let s = RunHarness()
    defer { s.remove() }
    try s.copySamples(["boats-gps.jpg"])
    try s.writeJob(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/boats-gps.jpg"]
          guide: {shape: square, size: 64}
          outputs:
            - {path: "{stem}-gps.jpg", metadata: [gps]}
            - {path: "{stem}-camera.jpg", metadata: [camera]}
            - {path: "{stem}-both.webp", metadata: [gps, camera]}
            - {path: "{stem}-strip.jpg"}
      """)
    let (result, _) = try s.run()
    XCTAssertEqual(result.failed, 0, "\(result.failures)")
    func tags(_ name: String) throws -> String {
      try tool(exiftool, ["-s", "-GPSLatitude", "-Make", "-Model", s.path("out/\(name)")])
    }
    let source = try tool(exiftool, ["-s", "-GPSLatitude", s.path("photos/boats-gps.jpg")])
    XCTAssertTrue(source.contains("GPSLatitude"), source)
    let gps = try tags("boats-gps-gps.jpg")
    XCTAssertTrue(gps.contains("GPSLatitude") && !gps.contains("FakeCam"), gps)
    let camera = try tags("boats-gps-camera.jpg")
    XCTAssertTrue(!camera.contains("GPSLatitude") && camera.contains("FakeCam X1"), camera)
    let both = try tags("boats-gps-both.webp")
    XCTAssertTrue(both.contains("GPSLatitude") && both.contains("FakeCam X1"), both)
    let stripped = try tags("boats-gps-strip.jpg")
    XCTAssertTrue(!stripped.contains("GPSLatitude") && !stripped.contains("FakeCam"), stripped)
  }
}
