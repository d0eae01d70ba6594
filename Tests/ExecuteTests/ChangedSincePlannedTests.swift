import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Issue 40, point 2: "the file changed since it was planned" only for a file that changed.
/// The check compares what identifies the file, its format as it is read back and the size
/// its header stores, not the decoded size (which shrink-on-load makes the loader's choice)
/// nor the name of an output format.
final class ChangedSincePlannedTests: XCTestCase {
  /// A still output of an animated WebP below half its size (shrink-on-load 2, which libvips
  /// 8.14 does not apply to an animation), and a `from:` job reading AVIF and HEIC outputs
  /// (read back by the HEIF loader), each run twice and forced.
  func testShrunkAnimatedWebPAndFromJobsOverAVIFAreNotChangedFiles() throws {
    let harness = try RunHarness(
      samples: ["cat.png"],
      job: """
        version: 1
        output: out
        jobs:
          still:
            sources: ["photos/iss634.webp"]
            guide: {shape: square, size: 100}
            outputs: [{path: "still/{stem}.png", encode: {format: png}}]
          avif:
            sources: ["photos/cat.png"]
            guide: {shape: square, size: 200}
            outputs:
              - {path: "avif/{stem}.avif", encode: {format: avif}}
          heic:
            sources: ["photos/cat.png"]
            guide: {shape: square, size: 180}
            outputs:
              - {path: "heic/{stem}.heif", encode: {format: heif}}
          fromavif:
            from: avif
            guide: {shape: square, size: 100}
            outputs: [{path: "fromavif/{stem}.png", encode: {format: png}}]
          fromheic:
            from: heic
            guide: {shape: square, size: 90}
            outputs: [{path: "fromheic/{stem}.png", encode: {format: png}}]
        """)
    defer { harness.remove() }
    try FileManager.default.copyItem(
      atPath: Corpora.root.appendingPathComponent("other-tools/pillow/iss634.webp").path,
      toPath: harness.folder.appendingPathComponent("photos/iss634.webp").path)
    let plan = try harness.plan()
    let webp = try XCTUnwrap(plan.sources.first { $0.path.hasSuffix("iss634.webp") })
    XCTAssertEqual(webp.loadShrink, 2, "the still output is below half the source: shrunk on load")
    for force in [false, true] {
      let (summary, _) = try harness.run { $0.force = force }
      XCTAssertEqual(summary.failed, 0, "force \(force): \(summary.failures)")
    }
    let (again, _) = try harness.run()
    XCTAssertEqual(again.failed, 0, "\(again.failures)")
    XCTAssertTrue(FileManager.default.fileExists(atPath: harness.outputRoot + "/fromavif/cat.png"))
    XCTAssertTrue(FileManager.default.fileExists(atPath: harness.outputRoot + "/still/iss634.png"))
  }
}
