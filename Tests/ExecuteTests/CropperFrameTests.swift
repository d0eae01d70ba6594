import CropGeometry
import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Crop tables in the frames of Cropper.js and react-easy-crop (`overrides_from: {frame: …}`):
/// each output is what the cropper's own canvas shows, modelled in Pillow
/// (`Oracle/cropper_oracle.py`: the image mirrored, turned by `rotate` with its bounding box
/// as the canvas, the box cropped), on all eight EXIF orientations
/// (`Tests/Corpora/exif-orientation`) and the angles 0, 20, −45, 90 and 180, with a mirror on
/// every other case.
///
/// Tolerance: a mean |difference| of 2.5 / 255 per output (Pillow's bicubic turn against
/// libvips' resampling; measured 0.00–1.63). The same rows read in the wrong frame (Cropper.js
/// rows as if `checkOrientation` were off) differ by 36–140 on the turned and mirrored
/// orientations: `testTheWrongFrameIsFarFromTheCroppersCanvas` is that control.
final class CropperFrameTests: XCTestCase {
  static let tolerance = 2.5

  /// The oracle's frame name, the table's settings.
  static let frames = [
    ("cropperjs", "frame: cropperjs"),
    ("cropperjs-upright", "frame: cropperjs, check_orientation: false, units: relative"),
    ("react-easy-crop", "frame: react-easy-crop, units: percent"),
  ]

  func testEachCroppersCanvasOnEveryOrientationAndAngle() throws {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import PIL, numpy"]) else {
      throw Skipped.because("needs /usr/bin/python3 with python3-pil and python3-numpy")
    }
    let oracle = TestPaths.oracle("cropper_oracle.py")
    let corpus = Corpora.root.appendingPathComponent("exif-orientation").path
    for (frame, settings) in Self.frames {
      let folder = TestPaths.scratch()
      defer { try? FileManager.default.removeItem(at: folder) }
      let table = folder.appendingPathComponent("crops.jsonl").path
      _ = try tool(python, [oracle, "table", frame, corpus, table])
      let jobs = ["a0", "a20", "am45", "a90", "a180"].map {
        "  \($0): {sources: [\"\(corpus)/Landscape_[1-8].jpg\"]}\n"
      }
      let job =
        "version: 1\noutput: out\ndefaults: {guide: {shape: square, size: 300}, outputs: [{path: \"{job}/{stem}.png\"}]}\n"
        + "jobs:\n" + jobs.joined() + "overrides_from: {path: crops.jsonl, \(settings)}\n"
      let jobPath = folder.appendingPathComponent("job.yaml").path
      try job.write(toFile: jobPath, atomically: true, encoding: .utf8)
      guard let plan = JobRunner.run(jobPath) else { continue }
      XCTAssertEqual(plan.outputs.count, 40, frame)
      let lines = try tool(python, [oracle, "check", frame, corpus, folder.appendingPathComponent("out").path])
        .split(separator: "\n")
      XCTAssertEqual(lines.count, 40, frame)
      var differences: [Double] = []
      for line in lines {
        let fields = line.split(separator: " ")
        let difference = Double(fields[3]) ?? .infinity
        differences.append(difference)
        XCTAssertLessThanOrEqual(
          difference, Self.tolerance, "\(frame): orientation \(fields[0]), angle \(fields[1]), mirror \(fields[2])")
      }
      print("\(frame): mean |difference| from the cropper's canvas \(differences.min() ?? 0)…\(differences.max() ?? 0)")
    }
  }

  /// The control: the Cropper.js table read in the wrong frame (as if `checkOrientation` had
  /// been off when it was saved) is far from the cropper's canvas on the turned and mirrored
  /// orientations (2–8), so the comparison above can tell a wrong frame from a right one.
  func testTheWrongFrameIsFarFromTheCroppersCanvas() throws {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import PIL, numpy"]) else {
      throw Skipped.because("needs /usr/bin/python3 with python3-pil and python3-numpy")
    }
    let oracle = TestPaths.oracle("cropper_oracle.py")
    let corpus = Corpora.root.appendingPathComponent("exif-orientation").path
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = folder.appendingPathComponent("crops.jsonl").path
    _ = try tool(python, [oracle, "table", "cropperjs", corpus, table])
    let job =
      "version: 1\noutput: out\ndefaults: {guide: {shape: square, size: 300}, outputs: [{path: \"{job}/{stem}.png\"}]}\n"
      + "jobs:\n"
      + ["a0", "a20", "am45", "a90", "a180"].map { "  \($0): {sources: [\"\(corpus)/Landscape_[1-8].jpg\"]}\n" }
      .joined()
      + "overrides_from: {path: crops.jsonl, frame: cropperjs, check_orientation: false}\n"
    let jobPath = folder.appendingPathComponent("job.yaml").path
    try job.write(toFile: jobPath, atomically: true, encoding: .utf8)
    let plan = try XCTUnwrap(JobRunner.run(jobPath))
    XCTAssertEqual(plan.outputs.count, 40)
    let lines = try tool(python, [oracle, "check", "cropperjs", corpus, folder.appendingPathComponent("out").path])
      .split(separator: "\n")
    XCTAssertEqual(lines.count, 40)
    for line in lines {
      let fields = line.split(separator: " ")
      let difference = Double(fields[3]) ?? 0
      print("wrong frame: orientation \(fields[0]), angle \(fields[1]), difference \(difference)")
      if fields[0] == "1" {
        XCTAssertLessThanOrEqual(difference, Self.tolerance, "orientation 1 has nothing to undo")
      } else {
        XCTAssertGreaterThan(difference, 10 * Self.tolerance, "orientation \(fields[0]), angle \(fields[1])")
      }
    }
  }

  /// The formula on numbers: Cropper.js's data for an orientation-6 photo nobody turned
  /// (`rotate: 90` folded in) is the upright photo's own crop.
  func testFoldedOrientationIsUndone() {
    // Stored 1200 x 1800, upright 1800 x 1200; the canvas is the stored image turned 90°.
    let data = FramedCrop(
      frame: .cropperjs, units: .pixels, x: 100, y: 200, width: 300, height: 400, rotate: 90)
    let r = data.resolved(photo: Size(width: 1800, height: 1200), folded: 6)
    XCTAssertEqual(r.crop, CropRect(x: 100, y: 200, width: 300, height: 400, angle: 0))
    XCTAssertFalse(r.flipHorizontal || r.flipVertical)
    // Without checkOrientation the same numbers are a turn of the upright photo: the canvas
    // is 1200 x 1800, its box centre (250, 400) is 350 px left of and 500 px above the
    // canvas's centre: turned back by 90°, 500 px left of and 350 px below the photo's (900, 600).
    let turned = data.resolved(photo: Size(width: 1800, height: 1200), folded: 1)
    XCTAssertEqual(turned.crop, CropRect(x: 400 - 150, y: 950 - 200, width: 300, height: 400, angle: 90))
    // A mirror before the turn is a mirror of the output after the opposite turn.
    var mirrored = data
    mirrored.flipHorizontal = true
    mirrored.rotate = 20
    let m = mirrored.resolved(photo: Size(width: 1800, height: 1200), folded: 1)
    XCTAssertEqual(m.crop.angle, -20)
    XCTAssertTrue(m.flipHorizontal)
  }
}
