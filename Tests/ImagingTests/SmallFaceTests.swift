import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Small faces in large photos (issue 23, point 2): the detector's copy is sized from the photo
/// and the output's footprint (`FaceDetectionSize`), so a real face of 2 % of a 2,400 px photo
/// is found when the guide zooms in on it; the decode keeps the pixels it needs.
final class SmallFaceTests: XCTestCase {
  static let paste = TestPaths.oracle("paste_face.py")

  /// The astronaut's face, 48 px wide (2 % of 2,400), pasted by Pillow into samples/mountains.jpg
  /// enlarged to 2,400 × 1,200, at (1700, 700); its box as Pillow placed it.
  func composite() throws -> (path: String, box: Rect) {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import PIL"]) else {
      throw Skipped.because("needs /usr/bin/python3 with python3-pil")
    }
    let folder = TestPaths.scratch()
    let path = folder.appendingPathComponent("small-face.jpg").path
    let result = try Subprocess.run(python, [Self.paste, TestPaths.samples.path, path, "48", "1700", "700"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let b = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [Double])
    return (path, Rect(x: b[0], y: b[1], width: b[2], height: b[3]))
  }

  /// The plan of one 256 px square cover output of `path` at `zoom`, and its decode.
  func planned(_ path: String, zoom: Double) throws -> (PlannedOutput, DecodedSource) {
    let text =
      "version: 1\noutput: out\njobs:\n  a:\n    sources: [\"\(path)\"]\n    guide: {shape: square, size: 256}\n"
      + "    place: {fit: cover, zoom: \(zoom), focus: faces}\n    outputs: [{path: \"{stem}.jpg\"}]\n"
    let loaded = JobFileLoader.load(bytes: Array(text.utf8), path: "small.yaml")
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    let plan = Planner().plan(file)
    let output = try XCTUnwrap(plan.outputs.first)
    let source = plan.sources[output.sourceIndex]
    let decoded = try DecodedSource.decode(
      path: source.absolutePath, header: try XCTUnwrap(source.header), shrink: source.loadShrink)
    return (output, decoded)
  }

  func testAFaceOfTwoPercentOfTheLongSideIsFoundWhenTheGuideZoomsIn() throws {
    let (path, truth) = try composite()
    XCTAssertEqual(truth.width, 48, accuracy: 0.01)
    // At zoom 4 the square output shows 300 × 300 px of the photo: the copy is 1,000 px long
    // (48 px → 20 px), and the decode is not shrunk below it.
    let (output, decoded) = try planned(path, zoom: 4)
    XCTAssertEqual(output.faceDetectionSide(photo: Size(width: 2400, height: 1200)), 1000)
    XCTAssertGreaterThanOrEqual(max(decoded.width, decoded.height), 1000)
    let run = try output.runGeometry(decoded: decoded)
    let found = try XCTUnwrap(run.found)
    XCTAssertEqual(found.strategy, "faces")
    XCTAssertEqual(found.boxes.count, 1, "\(found.boxes.map(\.rect))")
    let box = try XCTUnwrap(found.boxes.first).rect
    XCTAssertEqual(box.centre.x, truth.centre.x, accuracy: 0.2 * truth.width, "\(box) vs \(truth)")
    XCTAssertEqual(box.centre.y, truth.centre.y, accuracy: 0.2 * truth.width, "\(box) vs \(truth)")
    XCTAssertEqual(box.width, truth.width, accuracy: 0.3 * truth.width, "\(box) vs \(truth)")
    // The output keeps the whole face: the known box lies inside its footprint.
    XCTAssertTrue(Geometry.boxInside(truth, geometry: run.geometry, shape: .square), "\(run.geometry.sourceRegion)")
    // At the base size the same face is 10 px in the copy and is not found.
    XCTAssertEqual(try FaceDetector.faces(in: decoded, longSide: FaceDetectionSize.baseSide), [])
  }

  /// At zoom 1 the output shows 1,200 × 1,200 px: a face under 10 % of that (120 px) does not
  /// matter to it, so the copy stays at the base size and costs nothing more.
  func testAtZoomOneTheCopyStaysAtTheBaseSize() throws {
    let (path, _) = try composite()
    let (output, _) = try planned(path, zoom: 1)
    XCTAssertEqual(output.faceDetectionSide(photo: Size(width: 2400, height: 1200)), FaceDetectionSize.baseSide)
  }
}
