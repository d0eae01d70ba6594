import Foundation
import TestSupport
import XCTest

/// `focus: faces` end to end: a detector that cannot be loaded is a validation error naming it,
/// a damaged photo fails alone, and
/// the outputs and what the manifest records are the same for any `--jobs`.
final class FacesCommandTests: XCTestCase {
  static let job = """
    version: 1
    output: out
    jobs:
      avatar:
        sources: photos
        guide: {shape: circle, size: 96}
        place: {focus: faces, zoom: 1.5}
        outputs: [{path: "{stem}.jpg"}]

    """

  func testALibraryThatIsNotTheDetectorIsAValidationError() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg"])
    try job.write(Self.job)
    // A real shared library, but not libfacedetection: it has no facedetect_cnn.
    let other = "/usr/lib/x86_64-linux-gnu/libz.so.1"
    for command in [["validate", "job.yaml"], ["run", "job.yaml"]] {
      let result = try job.run(command, environment: ["CROPJOB_FACES_LIBRARY": other])
      XCTAssertNotEqual(result.status, 0, command.joined(separator: " "))
      let text = result.stdout + result.stderr
      XCTAssertTrue(
        text.contains(
          "job.yaml:7:20: error: jobs.avatar.place.focus: expected a face detector for focus: faces but received "
            + "the face detector's library \(other) has no facedetect_cnn (it is not libfacedetection)"), text)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: job.path("out/astronaut.jpg")))
    // The same file without faces needs no detector.
    try job.write(Self.job.replacingOccurrences(of: "focus: faces", with: "focus: attention"))
    XCTAssertEqual(try job.run(["validate", "job.yaml"], environment: ["CROPJOB_FACES_LIBRARY": other]).status, 0)
  }

  /// A damaged photo fails its own output; the others of the batch are written.
  func testADamagedPhotoFailsOnlyItsOwnOutput() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg", "bridge.jpg"])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: job.path("photos/astronaut.jpg")))
    try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: job.path("photos/damaged.jpg")))
    try job.write(Self.job)
    let result = try job.run(["run", "job.yaml"])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(result.stderr.contains("damaged.jpg"), result.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: job.path("out/astronaut.jpg")))
    XCTAssertTrue(FileManager.default.fileExists(atPath: job.path("out/bridge.jpg")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: job.path("out/damaged.jpg")))
  }

  func testOutputsAndManifestAreTheSameForAnyJobs() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg", "portrait-sideways-8.jpg", "bridge.jpg", "cat.png"], copies: 2)
    try job.write(Self.job)
    var manifests: [Data] = []
    for jobs in ["1", "4"] {
      try? FileManager.default.removeItem(atPath: job.path("out"))
      let result = try job.run(["run", "--jobs", jobs, "job.yaml"])
      XCTAssertEqual(result.status, 0, result.stderr)
      manifests.append(try Data(contentsOf: URL(fileURLWithPath: job.path("out/cropjob-manifest.json"))))
    }
    XCTAssertEqual(manifests[0], manifests[1])
    let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: manifests[0]) as? [String: Any])
    let outputs = try XCTUnwrap(manifest["outputs"] as? [[String: Any]])
    XCTAssertEqual(outputs.count, 8)
    for output in outputs {
      let path = try XCTUnwrap(output["path"] as? String)
      let geometry = try XCTUnwrap(output["geometry"] as? [String: Any])
      let found = try XCTUnwrap(geometry["found"] as? [String: Any], path)
      XCTAssertEqual(geometry["smartFocus"] as? String, "faces, attention")
      let hasFace = path.contains("astronaut") || path.contains("portrait")
      XCTAssertEqual(found["strategy"] as? String, hasFace ? "faces" : "attention", path)
      XCTAssertEqual((found["boxes"] as? [Any])?.count, hasFace ? 1 : nil, path)
      // The padding used: face_padding (0.3) when the face fits with it.
      XCTAssertEqual(found["padding"] as? Double, hasFace ? 0.3 : nil, path)
      XCTAssertNotNil(found["point"], path)
    }
  }
}
