import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The detector against one it has nothing in common with (issue 29): OpenCV's Haar frontal
/// cascade (Viola-Jones; Tests/Oracle/opencv_face_oracle.py) on real photographs of
/// Tests/Corpora/faces-real, where the cascade finds exactly the hand-checked faces.
final class FaceOracleTests: XCTestCase {
  static let oracle = TestPaths.oracle("opencv_face_oracle.py")

  /// Group photos (dim rooms, glasses, 31–70 px faces) and two photos stored turned
  /// (Orientation 3 and 6): 26 faces. The cascade's squares run from the brows to the chin,
  /// YuNet's boxes from the hairline, so two boxes of one face overlap by IoU 0.49–0.84 on
  /// this corpus (and two different faces by at most 0.05); the bar is 0.4.
  static let photos = [
    "dlib-2008_001322.jpg", "dlib-2008_002470.jpg", "dlib-2008_004176.jpg", "dlib-2008_007676.jpg",
    "kpa-grand_canyon_1.jpg", "kpa-new_wave_1.jpg",
  ]
  static let minimumIoU = 0.4

  func iou(_ a: Rect, _ b: Rect) -> Double {
    let w = max(0, min(a.maxX, b.maxX) - max(a.x, b.x))
    let h = max(0, min(a.maxY, b.maxY) - max(a.y, b.y))
    return w * h / (a.width * a.height + b.width * b.height - w * h)
  }

  func path(_ name: String) -> String {
    Corpora.root.appendingPathComponent("faces-real/images/\(name)").path
  }

  /// OpenCV's boxes for each photo (one Python process for all: importing cv2 is slow).
  func oracleBoxes(_ names: [String]) throws -> [String: [Rect]] {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import cv2, PIL, numpy"]) else {
      XCTFail("needs /usr/bin/python3 with python3-opencv, python3-pil, python3-numpy (scripts/install-deps.sh)")
      return [:]
    }
    let result = try Subprocess.run(python, [Self.oracle] + names.map(path))
    XCTAssertEqual(result.status, 0, result.stderr)
    let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: [[Double]]])
    var boxes: [String: [Rect]] = [:]
    for name in names {
      boxes[name] = try XCTUnwrap(rows[path(name)], name).map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }
    return boxes
  }

  func cropjobBoxes(_ name: String) throws -> [Rect] {
    let header = try SourceHeader.read(path: path(name))
    return try FaceDetector.faces(in: try DecodedSource.decode(path: path(name), header: header, shrink: 1)).map(\.rect)
  }

  /// One to one: each of OpenCV's faces has its own cropjob box at IoU ≥ 0.4, and cropjob
  /// has no other box.
  func testCropjobsFacesAreTheCascadesFaces() throws {
    var faces = 0
    let oracle = try oracleBoxes(Self.photos)
    for name in Self.photos {
      let expected = try XCTUnwrap(oracle[name], name)
      var found = try cropjobBoxes(name)
      XCTAssertEqual(found.count, expected.count, "\(name): cropjob \(found) vs OpenCV \(expected)")
      for box in expected {
        let best = found.indices.max { iou(found[$0], box) < iou(found[$1], box) }
        guard let index = best, iou(found[index], box) >= Self.minimumIoU else {
          XCTFail("\(name): no cropjob box overlaps OpenCV's \(box) by IoU \(Self.minimumIoU): \(found)")
          continue
        }
        found.remove(at: index)
        faces += 1
      }
    }
    XCTAssertEqual(faces, 26, "the photos' faces, each matched")
  }

  /// Photos of a dog and a rabbit looking at the camera: neither detector sees a face.
  func testNoFaceWhereNeitherDetectorSeesOne() throws {
    let names = ["kpa-donna_2.jpg", "kpa-spiff.jpg"]
    let oracle = try oracleBoxes(names)
    for name in names {
      XCTAssertEqual(oracle[name], [], name)
      XCTAssertEqual(try cropjobBoxes(name), [], name)
    }
  }
}
