import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The sample jobs (`jobs/`), run in-process, write exactly the requested pixel sizes, and the
/// numbers the docs give of them hold. (Sideways photos against libvips' `autorot`:
/// `ExifOrientationImageTests`.)
final class SampleJobTests: XCTestCase {
  func testAvatarsJobWritesExactSizes() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vipsheader") else {
      throw Skipped.because("libvips-tools missing")
    }
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-avatars-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    JobRunner.run(TestPaths.repoRoot.appendingPathComponent("jobs/avatars.yaml").path, outputRoot: out.path)
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
    JobRunner.run(TestPaths.repoRoot.appendingPathComponent("jobs/thumbnails.yaml").path, outputRoot: out.path)
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
    JobRunner.run(
      TestPaths.repoRoot.appendingPathComponent("jobs/web.yaml").path,
      outputRoot: out.appendingPathComponent("web").path)
    let data = try Data(contentsOf: out.appendingPathComponent("web/cropjob-manifest.json"))
    let outputs = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["outputs"] as? [[String: Any]])
    let entry = try XCTUnwrap(outputs.first { $0["path"] as? String == String(claim.2) })
    XCTAssertEqual((entry["geometry"] as? [String: Any])?["notes"] as? [String], [String(note)])

    let yaml = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("jobs/placements.yaml"), encoding: .utf8)
    let comment = try XCTUnwrap(yaml.firstMatch(of: /with contain gives (\d+)x(\d+)/))
    JobRunner.run(
      TestPaths.repoRoot.appendingPathComponent("jobs/placements.yaml").path,
      outputRoot: out.appendingPathComponent("placements").path)
    let (w, h, _) = try dimensions(out.appendingPathComponent("placements/overflow-shrink/mountains.jpg").path)
    XCTAssertEqual([w, h], [Int(comment.1)!, Int(comment.2)!])
  }
}
