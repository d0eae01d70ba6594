import CropGeometry
import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// EXIF orientation is applied before any geometry: the same photo stored in any of the 8
/// orientations gives the same crop, and a sideways-stored sample gives what libvips' own
/// `autorot` of it gives.
final class ExifOrientationImageTests: XCTestCase {
  /// A cover square with a focus point, a zoom and a small rotation: every part of the
  /// geometry sees the oriented photo.
  static let place = #"{"fit": "cover", "focus": [0.45, 0.4], "zoom": 1.2, "rotate": 5}"#

  /// Tests/Corpora/exif-orientation: Landscape_0..8.jpg and Portrait_0..8.jpg, the same
  /// photo with no tag (0) and Orientation 1..8. Each file prints its own number in the middle
  /// and the words top/left/right/bottom near the edges: the crop (lower right, zoomed in,
  /// turned 5°) keeps clear of all of them, so what remains is the same photo.
  static let corpusPlace = #"{"fit": "cover", "focus": [0.78, 0.75], "zoom": 2.5, "rotate": 5}"#

  func testAllEighteenOrientationsGiveTheSameCrop() throws {
    let corpus = Corpora.root.appendingPathComponent("exif-orientation")
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let job = """
      version: 1
      output: out
      jobs:
        oriented:
          sources: ["\(corpus.path)/Landscape_*.jpg", "\(corpus.path)/Portrait_*.jpg"]
          guide: {shape: square, size: 200}
          place: \(Self.corpusPlace)
          outputs:
            - path: "{stem}.png"

      """
    let jobPath = folder.appendingPathComponent("job.yaml").path
    try job.write(toFile: jobPath, atomically: true, encoding: .utf8)
    guard let plan = JobRunner.run(jobPath) else { return }
    XCTAssertEqual(plan.outputs.count, 18)
    let out = folder.appendingPathComponent("out")
    for group in ["Landscape", "Portrait"] {
      let reference = try TestPixels(path: out.appendingPathComponent("\(group)_1.png").path)
      XCTAssertEqual([reference.width, reference.height], [200, 200])
      for index in 0...8 {
        let pixels = try TestPixels(path: out.appendingPathComponent("\(group)_\(index).png").path)
        XCTAssertEqual([pixels.width, pixels.height], [200, 200], "\(group)_\(index)")
        guard pixels.width == reference.width, pixels.height == reference.height else { continue }
        let (mean, max) = reference.difference(to: pixels)
        let shift = try XCTUnwrap(reference.shift(to: pixels), "\(group)_\(index): no gradient to measure a shift by")
        print(Self.line("\(group)_\(index) vs \(group)_1", mean: mean, max: max, shift: shift))
        for (channel, m) in zip(["R", "G", "B", "A"], mean) {
          XCTAssertLessThanOrEqual(m, 2.0, "\(group)_\(index): mean |difference| of \(channel) \(m)/255")
        }
        XCTAssertLessThanOrEqual(Swift.max(abs(shift.x), abs(shift.y)), 0.1, "\(group)_\(index): shifted \(shift)")
      }
    }
  }

  /// The sideways samples against the same job over `vips autorot` of them (stored upright,
  /// lossless, no orientation tag).
  func testSidewaysSamplesEqualLibvipsAutorot() throws {
    let vips = "/usr/bin/vips"
    guard FileManager.default.isExecutableFile(atPath: vips) else { throw Skipped.because("needs the vips command") }
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let upright = folder.appendingPathComponent("upright")
    try FileManager.default.createDirectory(at: upright, withIntermediateDirectories: true)
    let samples = ["dragonfly-sideways-6", "portrait-sideways-8", "sunset-upside-down-3"]
    for stem in samples {
      try tool(vips, ["autorot", TestPaths.sample("\(stem).jpg"), upright.appendingPathComponent("\(stem).png").path])
    }
    let list = { (paths: [String]) in paths.map { "\"\($0)\"" }.joined(separator: ", ") }
    let job = """
      version: 1
      output: out
      jobs:
        tagged:
          sources: [\(list(samples.map { TestPaths.sample("\($0).jpg") }))]
          guide: {shape: square, size: 200}
          place: \(Self.place)
          outputs:
            - path: "tagged/{stem}.png"
        upright:
          sources: [\(list(samples.map { upright.appendingPathComponent("\($0).png").path }))]
          guide: {shape: square, size: 200}
          place: \(Self.place)
          outputs:
            - path: "upright/{stem}.png"

      """
    let jobPath = folder.appendingPathComponent("job.yaml").path
    try job.write(toFile: jobPath, atomically: true, encoding: .utf8)
    guard let plan = JobRunner.run(jobPath) else { return }
    XCTAssertEqual(plan.outputs.count, 6)
    let out = folder.appendingPathComponent("out")
    for stem in samples {
      let expected = try TestPixels(path: out.appendingPathComponent("upright/\(stem).png").path)
      let actual = try TestPixels(path: out.appendingPathComponent("tagged/\(stem).png").path)
      XCTAssertEqual([actual.width, actual.height], [expected.width, expected.height], stem)
      guard actual.width == expected.width, actual.height == expected.height else { continue }
      let (mean, max) = expected.difference(to: actual)
      let shift = try XCTUnwrap(expected.shift(to: actual), "\(stem): no gradient to measure a shift by")
      print(Self.line("\(stem) vs vips autorot", mean: mean, max: max, shift: shift))
      for (channel, m) in zip(["R", "G", "B", "A"], mean) {
        XCTAssertLessThanOrEqual(m, 2.0, "\(stem): mean |difference| of \(channel) \(m)/255")
      }
      XCTAssertLessThanOrEqual(Swift.max(abs(shift.x), abs(shift.y)), 0.1, "\(stem): shifted \(shift)")
    }
  }

  static func line(_ label: String, mean: [Double], max: [Double], shift: (x: Double, y: Double)) -> String {
    let m = mean.map { String(format: "%.2f", $0) }.joined(separator: "/")
    let x = max.map { String(format: "%.0f", $0) }.joined(separator: "/")
    return String(
      format: "%@  mean RGBA %@  max %@  shift %+.3f,%+.3f", label.padding(toLength: 44, withPad: " ", startingAt: 0),
      m, x, shift.x, shift.y)
  }
}
