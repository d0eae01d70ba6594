import CropKit
import Foundation
import TestSupport
import XCTest

/// `encode.frames: all` through the commands (issue 27, point 4): `formats` says which formats
/// animate, `plan` reports the frames and holds every frame to `limits.max_pixels`, and
/// `preview` shows an animated source's first frame. The frames' pixels are checked against
/// Pillow, and a `from:` job's still of an animated output, in ExecuteTests (AnimatedFramesTests).
final class AnimatedCommandTests: XCTestCase {
  func job(_ text: String, name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    let photos = s.folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: TestPaths.fixtures.appendingPathComponent("animated/pan.gif"), to: photos.appendingPathComponent("pan.gif"))
    try FileManager.default.copyItem(
      at: TestPaths.samples.appendingPathComponent("cat.png"), to: photos.appendingPathComponent("cat.png"))
    try s.write(text)
    return s
  }

  func testFormatsSaysWhichFormatsAnimate() throws {
    let result = try CLIRunner.run(["formats"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let write = Set(
      try XCTUnwrap(lines.first { $0.hasPrefix("write:") }).split(separator: " ").dropFirst().map(String.init))
    let animate = try XCTUnwrap(lines.first { $0.hasPrefix("animate:") }, result.stdout)
    let animated = Set(animate.split(separator: " ").dropFirst().map(String.init))
    XCTAssertTrue(animated.contains("webp"), animate)
    XCTAssertTrue(animated.isSubset(of: write), "\(animate) vs \(write)")
    XCTAssertTrue(animated.isSubset(of: ["webp", "gif"]), animate)
    // GIF is listed wherever this libvips has its saver (libvips' own list says).
    let vips = try Subprocess.run("/usr/bin/vips", ["-l"])
    XCTAssertEqual(animated.contains("gif"), vips.stdout.contains("gifsave_buffer"), animate)
  }

  func testPlanReportsFramesAndHoldsEveryFrameToThePixelLimit() throws {
    let s = try job(
      """
      version: 1
      output: out
      jobs:
        anim:
          sources: ["photos/pan.gif", "photos/cat.png", "photos/pages.tif"]
          guide: {shape: square, size: 32}
          outputs:
            - {path: "{stem}-all.webp", encode: {frames: all}}
            - {path: "{stem}-first.webp"}
      """)
    defer { s.remove() }
    // A 4-page TIFF (libvips writes pan.gif's frames as pages): pages, not an animation.
    let tiff = try Subprocess.run(
      "/usr/bin/vips", ["copy", s.path("photos/pan.gif") + "[n=-1]", s.path("photos/pages.tif")])
    XCTAssertEqual(tiff.status, 0, tiff.stderr)
    let json = try s.run(["plan", "job.yaml", "--format", "json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let outputs = try XCTUnwrap(plan["outputs"] as? [[String: Any]])
    let frames = Dictionary(uniqueKeysWithValues: outputs.map { ($0["path"] as! String, $0["frames"] as? Int) })
    // pan.gif has 4 frames; a still photo, or a TIFF's pages, with frames: all is the still
    // output (no frames).
    XCTAssertEqual(
      frames,
      [
        "pan-all.webp": 4, "pan-first.webp": nil, "cat-all.webp": nil, "cat-first.webp": nil, "pages-all.webp": nil,
        "pages-first.webp": nil,
      ])
    // Decodes: pan.gif twice (all frames, first frame), cat.png and pages.tif once each (their
    // two outputs share it).
    XCTAssertEqual(plan["decodes"] as? Int, 4)
    let text = try s.run(["plan", "job.yaml"])
    XCTAssertTrue(
      text.stdout.contains("Animations: 1 output with every frame (frames: all), 4 frames in all"), text.stdout)

    // 96x64 pixels a frame: 4 frames (24,576 pixels) pass a limit of 24,576, not one of 24,575;
    // the still output of the same file is planned either way (cat.png, larger, is refused by both;
    // pages.tif's outputs are still images of 6,144 pixels).
    for (limit, refused) in [(24_576, false), (24_575, true)] {
      let result = try s.run(["plan", "job.yaml", "--max-pixels", "\(limit)", "--format", "json"])
      let limited = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let paths = (limited["outputs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
      XCTAssertEqual(
        paths.filter { $0.hasPrefix("pan") }, refused ? ["pan-first.webp"] : ["pan-all.webp", "pan-first.webp"],
        result.stdout)
      let messages = (limited["issues"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
      let message =
        "frames: all decodes 4 frames of 96x64, 24576 pixels; the limit is \(limit) "
        + "(limits.max_pixels covers every frame)"
      XCTAssertEqual(messages.contains(message), refused, "\(messages)")
    }
  }

  /// `preview` tiles an animated source by its first frame, and the run writes the animation.
  func testPreviewShowsTheFirstFrameAndRunWritesEveryFrame() throws {
    let s = try job(
      """
      version: 1
      output: out
      jobs:
        anim:
          sources: ["photos/pan.gif"]
          guide: {shape: square, size: 32}
          outputs:
            - {path: "{stem}.gif", encode: {frames: all}}
      """)
    defer { s.remove() }
    let preview = try s.run(["preview", "job.yaml", "--out", s.path("preview"), "--tile", "64"])
    XCTAssertEqual(preview.status, 0, preview.stderr)
    XCTAssertTrue(preview.stdout.contains("preview: 1 photo"), preview.stdout)
    let run = try s.run(["run", "job.yaml", "-q"])
    XCTAssertEqual(run.status, 0, run.stderr)
    // libvips' own reading of the file written: 4 pages of 32 rows.
    let pages = try Subprocess.run("/usr/bin/vipsheader", ["-f", "n-pages", s.path("out/pan.gif")])
    XCTAssertEqual(pages.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "4")
  }

  /// The manifest records how many frames an animated output holds (`frames`), in the file a
  /// run writes and in the three export formats, kept through a run that finds it up to date
  /// (from the state); still outputs have none.
  func testManifestRecordsTheFramesOfAnAnimatedOutput() throws {
    let s = try job(
      """
      version: 1
      output: out
      jobs:
        anim:
          sources: ["photos"]
          guide: {shape: square, size: 32}
          outputs:
            - {path: "{stem}.gif", encode: {frames: all}}
            - {path: "{stem}-still.png"}
      """)
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    // libvips' own reading of the animated file: its page count.
    let pages = try Subprocess.run("/usr/bin/vipsheader", ["-f", "n-pages", s.path("out/pan.gif")])
    let frames = Int(pages.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    XCTAssertEqual(frames, 4)
    let expected: [String: Int?] = ["cat.gif": nil, "cat-still.png": nil, "pan.gif": frames, "pan-still.png": nil]
    func recorded(_ entries: [Manifest.Entry]) -> [String: Int?] {
      Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0.frames) })
    }
    let manifestPath = URL(fileURLWithPath: s.path("out/cropjob-manifest.json"))
    XCTAssertEqual(
      recorded(try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestPath)).outputs), expected)
    // Up to date, the manifest written again from the state's rows.
    try FileManager.default.removeItem(at: manifestPath)
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    XCTAssertEqual(
      recorded(try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestPath)).outputs), expected)

    let jsonl = try s.run(["manifest", "job.yaml", "--format", "jsonl"])
    XCTAssertEqual(jsonl.status, 0, jsonl.stderr)
    let lines = jsonl.stdout.split(separator: "\n")
    XCTAssertEqual(
      recorded(try lines.map { try JSONDecoder().decode(Manifest.Entry.self, from: Data($0.utf8)) }), expected)
    XCTAssertEqual(lines.filter { $0.contains("\"frames\":4") }.count, 1, jsonl.stdout)

    let csv = try s.run(["manifest", "job.yaml", "--format", "csv"])
    XCTAssertEqual(csv.status, 0, csv.stderr)
    let csvPath = s.path("export.csv")
    try csv.stdoutData.write(to: URL(fileURLWithPath: csvPath))
    let read = try Subprocess.run(
      "/usr/bin/python3",
      [
        "-c",
        "import csv,json,sys; print(json.dumps({r['path']: r['frames'] for r in csv.DictReader(open(sys.argv[1], newline=''))}))",
        csvPath,
      ])
    XCTAssertEqual(read.status, 0, read.stderr)
    XCTAssertEqual(
      try XCTUnwrap(JSONSerialization.jsonObject(with: read.stdoutData) as? [String: String]),
      ["cat.gif": "", "cat-still.png": "", "pan.gif": "4", "pan-still.png": ""])
  }
}
