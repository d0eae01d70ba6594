import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// One decode per photo across the jobs of a file (issue 24), in-process: the outputs of
/// every job that reads a photo in the same stage are made from one decode, also when the
/// jobs read more photos than a window holds (the run takes the jobs' windows in turn), and
/// the plan counts the decodes the run makes (`RunSummary.decodes`, what `--stats` prints).
final class DecodeOnceTests: XCTestCase {
  static let samples = ["kite.jpg", "cat.png", "mountains.jpg", "nuthatch.jpg", "ladybird.jpg"]

  func harness(_ job: String, name: String = #function) throws -> RunHarness {
    try RunHarness(samples: Self.samples, job: job, name: name)
  }

  /// The plan's text, the decodes the run made and the files it wrote (state left out), in
  /// windows of `window` sources (nil: the default); the output root is emptied after.
  func planAndRun(_ h: RunHarness, window: Int? = nil) throws -> (plan: String, decodes: Int, files: [String: Data]) {
    let plan = try h.planText(window: window)
    let (summary, _) = try h.run(window: window)
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let files = try treeContents(h.outputRoot).filter { !$0.key.contains(".cropjob") }
    try FileManager.default.removeItem(atPath: h.outputRoot)
    return (plan, summary.decodes, files)
  }

  func testTwoJobsOverTheSamePhotosDecodeEachPhotoOnce() throws {
    let h = try harness(
      """
      version: 1
      output: out
      jobs:
        avatar:
          sources: ["photos/*"]
          guide: {shape: square, size: 64}
          outputs: [{path: "avatar/{stem}.jpg"}]
        card:
          sources: ["photos/*"]
          guide: {shape: rect, width: 120, height: 80}
          outputs: [{path: "card/{stem}-{width}.jpg", widths: [60, 120]}]
      """)
    defer { h.remove() }
    let one = try planAndRun(h)
    XCTAssertTrue(one.plan.contains("Total: 15 outputs from 5 decodes"), one.plan)
    XCTAssertFalse(one.plan.contains("decode a photo again"), one.plan)
    XCTAssertEqual(one.decodes, 5, "each of 5 photos decoded once for both jobs")

    // Windows of 2 photos (the memory bound): the run takes the jobs' windows in turn, so
    // each photo's windows meet and it is still decoded once, as the plan says; the files are
    // the same bytes.
    let small = try planAndRun(h, window: 2)
    XCTAssertTrue(small.plan.contains("Total: 15 outputs from 5 decodes"), small.plan)
    XCTAssertEqual(small.decodes, 5, "each photo decoded once with windows of 2 photos")
    XCTAssertEqual(small.files, one.files)
  }

  /// Jobs over different lists of more photos than a window (a subset, shifted against the
  /// other): each photo is still decoded once, as the plan counts, because the run's windows
  /// are ranges of the plan's source numbers, not positions in each job's list. Before, the
  /// run took the jobs' windows in turn and decoded 8 times for 5 photos.
  func testJobsOverDifferentListsDecodeEachPhotoOnce() throws {
    let h = try harness(
      """
      version: 1
      output: out
      jobs:
        square:
          sources: ["photos/*"]
          guide: {shape: square, size: 64}
          outputs: [{path: "square/{stem}.jpg"}]
        banner:
          sources: ["photos/*"]
          exclude: ["*cat*"]
          guide: {shape: rect, width: 120, height: 40}
          outputs: [{path: "banner/{stem}.jpg"}]
      """)
    defer { h.remove() }
    let whole = try planAndRun(h)
    XCTAssertTrue(whole.plan.contains("Total: 9 outputs from 5 decodes"), whole.plan)
    XCTAssertEqual(whole.decodes, 5)
    for window in [1, 2, 3] {
      let small = try planAndRun(h, window: window)
      XCTAssertTrue(small.plan.contains("Total: 9 outputs from 5 decodes"), "window \(window): \(small.plan)")
      XCTAssertEqual(small.decodes, 5, "each of 5 photos decoded once, windows of \(window)")
      XCTAssertEqual(small.files, whole.files, "window \(window)")
    }
  }

  /// Two `from:` jobs of one upstream read the same produced photos: each is decoded once for
  /// both (before, once per job: 15 decodes, and `plan` said 15), in windows too.
  func testFromJobsOfOneUpstreamDecodeEachProducedPhotoOnce() throws {
    let h = try harness(
      """
      version: 1
      output: out
      jobs:
        square:
          sources: ["photos/*"]
          guide: {shape: square, size: 64}
          outputs: [{path: "square/{stem}.png"}]
        small:
          from: square
          guide: {shape: circle, size: 32}
          outputs: [{path: "small/{stem}.png"}]
        tiny:
          from: square
          guide: {shape: square, size: 16}
          outputs: [{path: "tiny/{stem}.jpg"}]
      """)
    defer { h.remove() }
    let whole = try planAndRun(h)
    XCTAssertTrue(whole.plan.contains("Total: 15 outputs from 10 decodes"), whole.plan)
    XCTAssertEqual(whole.decodes, 10, "5 photos, then each of square's 5 outputs once for small and tiny")
    let small = try planAndRun(h, window: 2)
    XCTAssertTrue(small.plan.contains("Total: 15 outputs from 10 decodes"), small.plan)
    XCTAssertEqual(small.decodes, 10)
    XCTAssertEqual(small.files, whole.files)
  }
}
