import CropGeometry
import CropKit
import Dispatch
import Foundation
import TestSupport
import XCTest

/// `focus: faces`: the detector against an independent OpenCV run and hand-checked boxes,
/// the placement about the faces it finds, the fallback without faces, and determinism.
final class FaceDetectorTests: XCTestCase {
  static let oracle = TestPaths.repoRoot.appendingPathComponent("Tests/CropKitTests/Oracle/face_oracle.py").path

  /// The plan of one job with `place` over `sources` (sample names), and the decodes its run makes.
  func planned(_ sources: [String], place: String, guide: String = "{shape: circle, size: 128}") throws -> (
    Plan, [DecodedSource]
  ) {
    let list = sources.map { "\"\(TestPaths.sample($0))\"" }.joined(separator: ", ")
    let text =
      "version: 1\noutput: out\njobs:\n  a:\n    sources: [\(list)]\n    guide: \(guide)\n    place: \(place)\n"
      + "    outputs: [{path: \"{stem}.jpg\"}]\n"
    let loaded = JobFileLoader.load(bytes: Array(text.utf8), path: "faces.yaml")
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    let plan = Planner().plan(file)
    XCTAssertEqual(plan.outputs.count, sources.count)
    let decoded = try plan.outputs.map { output in
      let source = plan.sources[output.sourceIndex]
      return try DecodedSource.decode(
        path: source.absolutePath, header: try XCTUnwrap(source.header), shrink: source.loadShrink)
    }
    return (plan, decoded)
  }

  func decode(_ name: String) throws -> DecodedSource {
    let header = try SourceHeader.read(path: TestPaths.sample(name))
    return try DecodedSource.decode(path: TestPaths.sample(name), header: header, shrink: 1)
  }

  /// Boxes agree when their centres are within 10 % of the oracle's size and their sizes
  /// within 15 %: the oracle decodes with Pillow and converts to grey with OpenCV's fixed-point
  /// weights, so a pixel here and there differs and the cascade's scale steps (1.1) may land
  /// one step apart.
  func assertClose(_ box: Rect, _ expected: Rect, _ message: String, file: StaticString = #filePath, line: UInt = #line)
  {
    let size = expected.width
    XCTAssertEqual(box.centre.x, expected.centre.x, accuracy: 0.1 * size, message, file: file, line: line)
    XCTAssertEqual(box.centre.y, expected.centre.y, accuracy: 0.1 * size, message, file: file, line: line)
    XCTAssertEqual(box.width, expected.width, accuracy: 0.15 * size, message, file: file, line: line)
    XCTAssertEqual(box.height, expected.height, accuracy: 0.15 * size, message, file: file, line: line)
  }

  func testFacesMatchAnIndependentOpenCVRun() throws {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import cv2, PIL, numpy"]) else {
      throw XCTSkip("needs /usr/bin/python3 with python3-opencv, python3-pil and python3-numpy")
    }
    for name in ["astronaut.jpg", "portrait-sideways-8.jpg", "cameraman.png", "bridge.jpg", "cat.png", "kite.jpg"] {
      let result = try Subprocess.run(
        python, [Self.oracle, FaceDetector.cascadePath, FaceDetector.profilePath, TestPaths.sample(name)])
      XCTAssertEqual(result.status, 0, result.stderr)
      let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[Double]], name)
      let found = try FaceDetector.faces(in: try decode(name))
      XCTAssertEqual(found.count, expected.count, "\(name): \(found.map(\.rect)) vs \(expected)")
      for (box, e) in zip(found, expected) {
        assertClose(box.rect, Rect(x: e[0], y: e[1], width: e[2], height: e[3]), name)
        let profile = e[4] == 1
        XCTAssertEqual(box.origin.description.hasSuffix(FaceDetector.profileName), profile, name)
        XCTAssertGreaterThanOrEqual(box.score, profile ? 5 : 4, "at least minNeighbors raw detections")
      }
    }
  }

  /// Hand-checked: Eileen Collins's face in astronaut.jpg spans about x 178…270, y 68…160
  /// (eyebrows to chin, cheek to cheek; centre (224, 114)); in portrait-sideways-8.jpg, stored
  /// sideways with orientation 8, the same face is at the same place of the oriented 352×512
  /// picture (the crop keeps the photo's left edge), centre (224.5, 113.5).
  func testHandCheckedBoxesInOrientedPixels() throws {
    let astronaut = try FaceDetector.faces(in: try decode("astronaut.jpg"))
    XCTAssertEqual(astronaut.count, 1)
    assertClose(try XCTUnwrap(astronaut.first).rect, Rect(x: 178, y: 68, width: 92, height: 92), "astronaut")
    let portrait = try FaceDetector.faces(in: try decode("portrait-sideways-8.jpg"))
    XCTAssertEqual(portrait.count, 1)
    assertClose(try XCTUnwrap(portrait.first).rect, Rect(x: 177, y: 66, width: 95, height: 95), "portrait")
    XCTAssertEqual(
      astronaut.first?.origin, .detector("opencv \(FaceDetector.openCVVersion) haarcascade_frontalface_alt2.xml"))
  }

  /// Hand-checked (Tests/Corpora/faces/README.md): the cameraman's face, in profile facing
  /// right with his eye at the viewfinder, spans x 197…257, y 126…195 (within about 3 px).
  /// The frontal cascade misses it; the profile cascade finds it on the mirror image, with a
  /// box that holds the whole face (within that accuracy) and is at most twice its width.
  func testProfileFaceFoundOnTheMirrorImage() throws {
    let found = try FaceDetector.faces(in: try decode("cameraman.png"))
    XCTAssertEqual(found.count, 1, "\(found)")
    let box = try XCTUnwrap(found.first)
    XCTAssertEqual(box.origin, .detector("opencv \(FaceDetector.openCVVersion) haarcascade_profileface.xml"))
    XCTAssertTrue(box.rect.contains(Rect(x: 197, y: 126, width: 60, height: 69), tolerance: 4), "\(box.rect)")
    XCTAssertLessThanOrEqual(box.rect.width, 2 * 60, "\(box.rect)")
  }

  /// samples/ (samples/README.md) shows one person in astronaut.jpg, portrait-sideways-8.jpg
  /// and cameraman.png and nobody in the others: exactly one box in each of the three, none
  /// elsewhere (the profile pass must not add boxes on foliage, water or fur).
  func testOneBoxPerPersonInTheSamplesAndNoneElsewhere() throws {
    let samples = try FileManager.default.contentsOfDirectory(atPath: TestPaths.samples.path).filter {
      $0.hasSuffix(".jpg") || $0.hasSuffix(".png")
    }.sorted()
    XCTAssertGreaterThanOrEqual(samples.count, 14)
    let people: Set = ["astronaut.jpg", "portrait-sideways-8.jpg", "cameraman.png"]
    for name in samples {
      let found = try FaceDetector.faces(in: try decode(name))
      XCTAssertEqual(found.count, people.contains(name) ? 1 : 0, "\(name): \(found.map(\.rect))")
    }
  }

  /// The run's geometry keeps the padded face inside the circle, and records the face.
  func testRunGeometryKeepsThePaddedFaceInsideTheGuide() throws {
    let (plan, decoded) = try planned(["astronaut.jpg", "portrait-sideways-8.jpg"], place: "{focus: faces, zoom: 2}")
    for (output, source) in zip(plan.outputs, decoded) {
      let run = try output.runGeometry(decoded: source)
      let found = try XCTUnwrap(run.found)
      XCTAssertEqual(found.strategy, "faces")
      XCTAssertEqual(found.kept, [0])
      let padded = try XCTUnwrap(found.padded.first ?? nil)
      // face_padding 0.3: the box grown by 30 % of its size on each side.
      assertClose(
        padded,
        Rect(
          x: found.boxes[0].rect.x - 0.3 * found.boxes[0].rect.width,
          y: found.boxes[0].rect.y - 0.3 * found.boxes[0].rect.height,
          width: 1.6 * found.boxes[0].rect.width, height: 1.6 * found.boxes[0].rect.height), output.path)
      XCTAssertTrue(Geometry.boxInside(padded, geometry: run.geometry, shape: .circle), output.path)
      XCTAssertEqual(found.point, padded.centre)
    }
  }

  /// No face in bridge.jpg: `faces` falls back to attention, exactly as `attention` alone
  /// places the photo; `[faces, top]` falls back to the named position.
  func testPhotoWithoutFacesFallsBack() throws {
    let (faces, decoded) = try planned(["bridge.jpg"], place: "{focus: faces}")
    let (attention, _) = try planned(["bridge.jpg"], place: "{focus: attention}")
    let run = try faces.outputs[0].runGeometry(decoded: decoded[0])
    let reference = try attention.outputs[0].runGeometry(decoded: decoded[0])
    XCTAssertEqual(run.found?.strategy, "attention")
    XCTAssertEqual(run.found?.boxes, [])
    XCTAssertEqual(run.geometry, reference.geometry)
    XCTAssertEqual(run.found?.point, reference.found?.point)
    let (top, _) = try planned(["bridge.jpg"], place: "{focus: [faces, top]}")
    let fixed = try top.outputs[0].runGeometry(decoded: decoded[0])
    XCTAssertEqual(fixed.found?.strategy, "top")
    XCTAssertNil(fixed.found?.point)
    XCTAssertEqual(fixed.geometry.sourceRegion.minY, 0, "top puts the photo's top edge on the guide's")
  }

  /// The same boxes from many threads at once (one classifier per thread, OpenCV's threads off).
  func testDetectionIsTheSameOnEveryThread() throws {
    let source = try decode("astronaut.jpg")
    let reference = try FaceDetector.faces(in: source)
    let results = LockedResults()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      results.append(try? FaceDetector.faces(in: source))
    }
    XCTAssertEqual(results.values.count, 8)
    for value in results.values { XCTAssertEqual(value, reference) }
  }

  func testTheCascadeIsInstalledHere() {
    XCTAssertNil(FaceDetector.problem(), "install-deps.sh installs opencv-data")
  }
}

private final class LockedResults: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [[FocusBox]?] = []
  func append(_ value: [FocusBox]?) { lock.withLock { stored.append(value) } }
  var values: [[FocusBox]?] { lock.withLock { stored } }
}
