import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// `encode.frames: all` (issue 27, point 4) against an independent decoder: Pillow reads the
/// animated sources (Tests/Fixtures/animated, made by Pillow: make-animated.py) and the files
/// cropjob wrote, frame by frame, and `Oracle/frames_oracle.py` checks the frame count, each
/// frame's delay, the number of plays, and each output frame against placement_oracle.py's
/// expected image of the same source frame (Pillow's decode of that frame, placed from
/// docs/geometry.md alone).
///
/// Tolerances, per channel over the comparable pixels (premultiplied RGBA, 0-255): lossless
/// WebP mean ≤ 1 and max ≤ 2 (measured 0.27 and 0: only the resampler's rounding); GIF mean ≤ 3
/// and max ≤ 16 (measured 1.97 and 9: the 256-colour palette libvips' cgif quantises to); any
/// other source frame's expected image differs by a mean ≥ 20 (measured ≥ 50), so that frames
/// cannot be repeated, dropped or reordered unseen. Delays and plays: exactly equal.
final class AnimatedFramesTests: XCTestCase {
  static let fixtures = TestPaths.fixtures.appendingPathComponent("animated")
  static let guide = #"{"shape": "rect", "width": 40, "height": 30}"#
  static let place = #"{"fit": "cover", "zoom": 1.3, "focus": [0.4, 0.6]}"#

  /// A harness with the animated fixtures in `photos/`.
  func harness(_ job: String, name: String = #function) throws -> RunHarness {
    let harness = try RunHarness(samples: [], job: job, name: name)
    for file in ["pan.gif", "pan.webp", "broken-frame3.gif"] {
      try FileManager.default.copyItem(
        atPath: Self.fixtures.appendingPathComponent(file).path,
        toPath: harness.folder.appendingPathComponent("photos/\(file)").path)
    }
    return harness
  }

  func testEveryFrameIsPlacedAlikeWithItsDelayAndTheLoopCount() throws {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import PIL, numpy"]) else {
      throw Skipped.because(
        "needs /usr/bin/python3 with python3-pil and python3-numpy (apt-get install python3-pil python3-numpy)")
    }
    let h = try harness(
      """
      version: 1
      output: out
      jobs:
        anim:
          sources: ["photos/pan.gif", "photos/pan.webp"]
          guide: \(Self.guide)
          place: \(Self.place)
          outputs:
            - {path: "{stem}-{ext}-all.webp", encode: {frames: all, lossless: true}}
            - {path: "{stem}-{ext}-all.gif", encode: {frames: all}}
            - {path: "{stem}-{ext}-first.webp", encode: {lossless: true}}
      """)
    defer { h.remove() }
    let (summary, _) = try h.run { $0.jobs = 1 }
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    XCTAssertEqual(summary.written, 6)

    var cases: [[String: Any]] = []
    for ext in ["gif", "webp"] {
      for out in ["webp", "gif"] {
        cases.append([
          "name": "\(ext)-to-\(out)", "source": h.folder.appendingPathComponent("photos/pan.\(ext)").path,
          "guide": try json(Self.guide), "place": try json(Self.place), "output": ["path": "x.\(out)"],
          "actual": "\(h.outputRoot)/pan-\(ext)-all.\(out)",
        ])
      }
    }
    let results = try oracle(python, cases, folder: h.folder)
    XCTAssertEqual(results.count, 4)
    for r in results {
      let name = r["name"] as? String ?? "?"
      let gif = name.hasSuffix("gif")
      XCTAssertEqual(r["actual_format"] as? String, gif ? "GIF" : "WEBP", name)
      XCTAssertEqual(r["source_frames"] as? Int, 4, name)
      XCTAssertEqual(r["actual_frames"] as? Int, 4, name)
      XCTAssertEqual(r["actual_delays"] as? [Int], [100, 200, 50, 150], name)
      XCTAssertEqual(r["actual_delays"] as? [Int], r["source_delays"] as? [Int], name)
      // pan.gif repeats 3 times (4 plays), pan.webp plays twice.
      XCTAssertEqual(r["source_plays"] as? Int, name.hasPrefix("gif") ? 4 : 2, name)
      XCTAssertEqual(r["actual_plays"] as? Int, r["source_plays"] as? Int, name)
      let frames = r["frames"] as? [[String: Any]] ?? []
      XCTAssertEqual(frames.count, 4, name)
      for (i, frame) in frames.enumerated() {
        XCTAssertEqual(frame["size"] as? [Int], [40, 30], "\(name) frame \(i)")
        XCTAssertEqual(frame["size"] as? [Int], frame["expected_size"] as? [Int], "\(name) frame \(i)")
        XCTAssertGreaterThan(frame["compared"] as? Int ?? 0, 40 * 30 / 2, "\(name) frame \(i)")
        let mean = (frame["mean"] as? [Double] ?? []).max() ?? .infinity
        let max = (frame["max"] as? [Double] ?? []).max() ?? .infinity
        XCTAssertLessThanOrEqual(mean, gif ? 3 : 1, "\(name) frame \(i): mean |difference| \(frame)")
        XCTAssertLessThanOrEqual(max, gif ? 16 : 2, "\(name) frame \(i): max |difference| \(frame)")
        let other = frame["other_frames_min_mean"] as? Double ?? 0
        XCTAssertGreaterThanOrEqual(other, 20, "\(name) frame \(i) looks like another frame: \(frame)")
      }
    }

    // `frames: first` (the default): one still frame, the source's first, as before.
    let first = try oracle(
      python,
      [
        [
          "name": "first", "source": h.folder.appendingPathComponent("photos/pan.gif").path,
          "guide": try json(Self.guide), "place": try json(Self.place), "output": ["path": "x.webp"],
          "actual": "\(h.outputRoot)/pan-gif-first.webp",
        ]
      ], folder: h.folder)
    XCTAssertEqual(first.first?["actual_frames"] as? Int, 1)
    let still = (first.first?["frames"] as? [[String: Any]])?.first
    XCTAssertLessThanOrEqual((still?["mean"] as? [Double] ?? []).max() ?? .infinity, 1, "\(String(describing: still))")

    // The same bytes with two workers, and again.
    let before = try treeContents(h.outputRoot)
    for _ in 0..<2 {
      try FileManager.default.removeItem(atPath: h.outputRoot)
      let (again, _) = try h.run { $0.jobs = 2 }
      XCTAssertEqual(again.failed, 0)
      XCTAssertEqual(try treeContents(h.outputRoot), before, "animated outputs differ between runs or --jobs")
    }
  }

  /// A frame that does not decode fails the outputs that hold every frame, naming the file
  /// and the frame; the still output of the same file (its first frame decodes) is written.
  func testABrokenFrameFailsItsOutputNamingTheFrame() throws {
    let h = try harness(
      """
      version: 1
      output: out
      jobs:
        b:
          sources: ["photos/broken-frame3.gif", "photos/pan.gif"]
          guide: {shape: square, size: 20}
          outputs:
            - {path: "{stem}-all.webp", encode: {frames: all}}
            - {path: "{stem}-first.webp"}
      """)
    defer { h.remove() }
    let (summary, _) = try h.run()
    XCTAssertEqual(summary.written, 3, "\(summary.failures)")
    XCTAssertEqual(summary.failures.map(\.output), ["broken-frame3-all.webp"])
    let reason = try XCTUnwrap(summary.failures.first?.reason)
    XCTAssertTrue(reason.contains("broken-frame3.gif"), reason)
    XCTAssertTrue(reason.contains("frame 3 of 4"), reason)
    XCTAssertTrue(reason.contains("Invalid frame data"), reason)
  }

  private func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  private func oracle(_ python: String, _ cases: [[String: Any]], folder: URL) throws -> [[String: Any]] {
    let casesPath = folder.appendingPathComponent("frames-cases.json")
    try JSONSerialization.data(withJSONObject: ["cases": cases]).write(to: casesPath)
    let work = folder.appendingPathComponent("frames-oracle")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let result = try Subprocess.run(python, [TestPaths.oracle("frames_oracle.py"), casesPath.path, work.path])
    print(result.stderr)
    XCTAssertEqual(result.status, 0, "oracle failed: \(result.stderr)")
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
  }

  /// A `from:` job reads an animated upstream output's first frame: its outputs are still,
  /// `frames: all` included, and record no `frames` (docs/job-file.md, "Animations").
  func testAFromJobReadsTheFirstFrameOfAnAnimatedOutput() throws {
    let s = try harness(
      """
      version: 1
      output: out
      jobs:
        anim:
          sources: ["photos/pan.gif"]
          guide: {shape: square, size: 32}
          outputs:
            - {path: "up/{stem}.gif", encode: {frames: all}}
        down:
          from: anim
          guide: {shape: square, size: 16}
          outputs:
            - {path: "down/{stem}.gif", encode: {frames: all}}
      """)
    defer { s.remove() }
    let (run, _) = try s.run()
    XCTAssertEqual(run.failed, 0, "\(run.failures)")
    func pages(_ path: String) throws -> String {
      try Subprocess.run("/usr/bin/vipsheader", ["-f", "n-pages", s.path(path)]).stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    XCTAssertEqual(try pages("out/up/pan.gif"), "4")
    XCTAssertEqual(try pages("out/down/pan.gif"), "1")
    // The still output is the upstream file's first frame (Pillow reads both; mean difference
    // about 1 level, against 49 to 62 for the other frames).
    let compare = try Subprocess.run(
      "/usr/bin/python3",
      [
        "-c",
        "import sys; from PIL import Image, ImageChops; import numpy as np; "
          + "a = Image.open(sys.argv[1]); a.seek(0); a = a.convert('RGB').resize((16, 16), Image.BOX); "
          + "b = Image.open(sys.argv[2]).convert('RGB'); "
          + "print(float(np.abs(np.asarray(a, float) - np.asarray(b, float)).mean()))",
        s.path("out/up/pan.gif"), s.path("out/down/pan.gif"),
      ])
    XCTAssertEqual(compare.status, 0, compare.stderr)
    XCTAssertLessThan(Double(compare.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity, 6)
    let manifest = try JSONDecoder().decode(
      Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json"))))
    XCTAssertEqual(
      Dictionary(uniqueKeysWithValues: manifest.outputs.map { ($0.path, $0.frames) }),
      ["up/pan.gif": 4, "down/pan.gif": nil])
  }
}
