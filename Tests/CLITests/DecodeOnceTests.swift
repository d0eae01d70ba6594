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
}
