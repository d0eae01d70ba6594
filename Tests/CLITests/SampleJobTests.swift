import TestSupport
import XCTest

/// The sample jobs run end to end and write exactly the requested pixel sizes, and photos
/// stored sideways come out upright (compared with libvips' own `autorot`).
final class SampleJobTests: XCTestCase {
  func testAvatarsJobWritesExactSizes() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vipsheader") else {
      throw Skipped.because("libvips-tools missing")
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-avatars-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let result = try CLIRunner.run(["run", "jobs/avatars.yaml", "--output", out.path, "--quiet"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let samples = try FileManager.default.contentsOfDirectory(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples").path
    )
    .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }
    XCTAssertGreaterThanOrEqual(samples.count, 10)
    for sample in samples {
      let stem = (sample as NSString).deletingPathExtension
      XCTAssertEqual(try dimensions(out.appendingPathComponent("\(stem)@1x.png").path).0, 256)
      let (w2, h2, b2) = try dimensions(out.appendingPathComponent("\(stem)@2x.png").path)
      XCTAssertEqual([w2, h2, b2], [512, 512, 4], stem)
      let (wj, hj, bj) = try dimensions(out.appendingPathComponent("\(stem).jpg").path)
      XCTAssertEqual([wj, hj, bj], [256, 256, 3], stem)
      let bytes =
        try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("\(stem).jpg").path)[.size] as! Int
      XCTAssertLessThanOrEqual(bytes, 30000, stem)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("cropjob-manifest.json").path))
  }

  func testThumbnailsJobWritesExactSizes() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vipsheader") else {
      throw Skipped.because("libvips-tools missing")
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-thumbs-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let result = try CLIRunner.run(["run", "jobs/thumbnails.yaml", "--output", out.path, "--quiet"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let banner = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("banner").path)
    XCTAssertFalse(banner.isEmpty)
    XCTAssertFalse(banner.contains { $0.contains("sideways") }, "exclude ignored")
    for name in banner {
      let (w, h, _) = try dimensions(out.appendingPathComponent("banner/\(name)").path)
      XCTAssertEqual([w, h], [640, 360], name)
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("square").path) {
      let (w, h, _) = try dimensions(out.appendingPathComponent("square/\(name)").path)
      let expected = name.hasSuffix("-100.jpg") ? 100 : 200
      XCTAssertEqual([w, h], [expected, expected], name)
    }
  }

  /// A centred cover crop of a sideways photo equals the same crop of libvips' autorot.
  func testSidewaysSamplesComeOutUpright() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vips") else {
      throw Skipped.because("libvips-tools missing")
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-upright-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let samples = TestPaths.repoRoot.appendingPathComponent("samples").path
    // Guides of 60 % of the displayed width keep shrink-on-load out of the comparison (a
    // JPEG shrunk in the DCT differs slightly from a box-shrunk PNG of the same pixels).
    for (name, width) in [("dragonfly-sideways-6", 720), ("portrait-sideways-8", 210), ("sunset-upside-down-3", 960)] {
      // Reference: libvips' own autorot, saved losslessly, then the same job on it.
      let upright = dir.appendingPathComponent("\(name)-upright.png").path
      try tool("/usr/bin/vips", ["autorot", "\(samples)/\(name).jpg", upright])
      let job = """
        version: 1
        output: out
        jobs:
          a:
            sources: ["\(samples)/\(name).jpg", "\(upright)"]
            guide: {shape: rect, width: \(width), height: \(width * 2 / 3)}
            place: {fit: cover, focus: [0.3, 0.6]}
            outputs: [{path: "{stem}.png"}]
        """
      let jobPath = dir.appendingPathComponent("\(name).yaml")
      try job.write(to: jobPath, atomically: true, encoding: .utf8)
      let result = try CLIRunner.run(["run", jobPath.path, "--quiet"])
      XCTAssertEqual(result.status, 0, result.stderr)
      let diff = try meanDifference(
        dir.appendingPathComponent("out/\(name).png").path, dir.appendingPathComponent("out/\(name)-upright.png").path,
        in: dir)
      XCTAssertLessThan(diff, 1.0, "\(name): mean difference \(diff)")
    }
  }

  /// Numbers the docs state about the sample jobs (issue 28.8): README's shrink note is what
  /// jobs/web.yaml writes, and jobs/placements.yaml's overflow-shrink output has the size its
  /// comment gives (read back by vipsheader).
  func testNumbersTheDocsGiveForTheSampleJobsHold() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vipsheader") else {
      throw Skipped.because("libvips-tools missing")
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-docs-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let readme = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let claim = try XCTUnwrap(
      readme.firstMatch(
        of: /`(output downsized from \d+x\d+ to \d+x\d+ to fit\s+max_bytes \d+)` \(jobs\/web.yaml, `([^`]+)`\)/))
    let note = claim.1.replacing(/\s+/, with: " ")
    let web = try CLIRunner.run(["run", "jobs/web.yaml", "--output", out.appendingPathComponent("web").path, "-q"])
    XCTAssertEqual(web.status, 0, web.stderr)
    let data = try Data(contentsOf: out.appendingPathComponent("web/cropjob-manifest.json"))
    let outputs = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["outputs"] as? [[String: Any]])
    let entry = try XCTUnwrap(outputs.first { $0["path"] as? String == String(claim.2) })
    XCTAssertEqual((entry["geometry"] as? [String: Any])?["notes"] as? [String], [String(note)])

    let yaml = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("jobs/placements.yaml"), encoding: .utf8)
    let comment = try XCTUnwrap(yaml.firstMatch(of: /with contain gives (\d+)x(\d+)/))
    let placements = try CLIRunner.run([
      "run", "jobs/placements.yaml", "--output", out.appendingPathComponent("placements").path, "-q",
    ])
    XCTAssertEqual(placements.status, 0, placements.stderr)
    let (w, h, _) = try dimensions(out.appendingPathComponent("placements/overflow-shrink/mountains.jpg").path)
    XCTAssertEqual([w, h], [Int(comment.1)!, Int(comment.2)!])
  }
}
