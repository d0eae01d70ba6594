import Foundation
import XCTest

/// One decode per photo across the jobs of a file (issue 24): the outputs of every job that
/// reads a photo in the same stage are made from one decode, also when the jobs read more
/// photos than a window holds (the run takes the jobs' windows in turn), and `plan` counts
/// the decodes `run --stats` makes.
final class DecodeOnceTests: XCTestCase {
  func job() throws -> CLIJob {
    let s = CLIJob()
    try s.copySamples(["kite.jpg", "cat.png", "mountains.jpg", "nuthatch.jpg", "ladybird.jpg"])
    try s.write(
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
    return s
  }

  /// The counts `plan` states and the decodes `run --stats` made.
  func planAndRun(_ s: CLIJob, env: [String: String] = [:]) throws -> (
    plan: String, decodes: Int, files: [String: Data]
  ) {
    let plan = try s.run(["plan", "job.yaml"], environment: env)
    XCTAssertEqual(plan.status, 0, plan.stderr)
    let run = try s.run(["run", "job.yaml", "-q", "--stats"], environment: env)
    XCTAssertEqual(run.status, 0, run.stderr)
    let stats = try XCTUnwrap(run.stderr.split(separator: "\n").first { $0.hasPrefix("stats:") })
    let decodes = try XCTUnwrap(
      Int(
        try XCTUnwrap(stats.split(separator: ",").first { $0.contains("decodes") })
          .split(separator: " ").last!))
    var files = try s.tree("out")
    files = files.filter { !$0.key.contains(".cropjob") }
    try FileManager.default.removeItem(atPath: s.path("out"))
    return (plan.stdout, decodes, files)
  }

  func testTwoJobsOverTheSamePhotosDecodeEachPhotoOnce() throws {
    let s = try job()
    defer { s.remove() }
    let one = try planAndRun(s)
    XCTAssertTrue(one.plan.contains("Total: 15 outputs from 5 decodes"), one.plan)
    XCTAssertFalse(one.plan.contains("decode a photo again"), one.plan)
    XCTAssertEqual(one.decodes, 5, "each of 5 photos decoded once for both jobs")

    // Windows of 2 photos (the memory bound): the run takes the jobs' windows in turn, so
    // each photo's windows meet and it is still decoded once, as the plan says; the files are
    // the same bytes.
    let small = try planAndRun(s, env: ["CROPJOB_PLAN_WINDOW": "2"])
    XCTAssertTrue(small.plan.contains("Total: 15 outputs from 5 decodes"), small.plan)
    XCTAssertEqual(small.decodes, 5, "each photo decoded once with windows of 2 photos")
    XCTAssertEqual(small.files, one.files)
  }

  /// Jobs over different lists of more photos than a window (a subset, shifted against the
  /// other): each photo is still decoded once, as `plan` counts, because the run's windows
  /// are ranges of the plan's source numbers, not positions in each job's list. Before, the
  /// run took the jobs' windows in turn and decoded 8 times for 5 photos.
  func testJobsOverDifferentListsDecodeEachPhotoOnce() throws {
    let s = try job()
    defer { s.remove() }
    try s.write(
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
    let whole = try planAndRun(s)
    XCTAssertTrue(whole.plan.contains("Total: 9 outputs from 5 decodes"), whole.plan)
    XCTAssertEqual(whole.decodes, 5)
    for window in ["1", "2", "3"] {
      let small = try planAndRun(s, env: ["CROPJOB_PLAN_WINDOW": window])
      XCTAssertTrue(small.plan.contains("Total: 9 outputs from 5 decodes"), "window \(window): \(small.plan)")
      XCTAssertEqual(small.decodes, 5, "each of 5 photos decoded once, windows of \(window)")
      XCTAssertEqual(small.files, whole.files, "window \(window)")
    }
  }

  /// Two `from:` jobs of one upstream read the same produced photos: each is decoded once for
  /// both (before, once per job: 15 decodes, and `plan` said 15), in windows too.
  func testFromJobsOfOneUpstreamDecodeEachProducedPhotoOnce() throws {
    let s = try job()
    defer { s.remove() }
    try s.write(
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
    let whole = try planAndRun(s)
    XCTAssertTrue(whole.plan.contains("Total: 15 outputs from 10 decodes"), whole.plan)
    XCTAssertEqual(whole.decodes, 10, "5 photos, then each of square's 5 outputs once for small and tiny")
    let small = try planAndRun(s, env: ["CROPJOB_PLAN_WINDOW": "2"])
    XCTAssertTrue(small.plan.contains("Total: 15 outputs from 10 decodes"), small.plan)
    XCTAssertEqual(small.decodes, 10)
    XCTAssertEqual(small.files, whole.files)
  }
}
