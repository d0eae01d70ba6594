import Foundation
import TestSupport
import XCTest

/// `focus: faces` end to end: a missing cascade is a validation error naming the package, and
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

  func testMissingCascadeIsAValidationErrorNamingThePackage() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg"])
    try job.write(Self.job)
    let missing = job.path("no-cascades")
    for command in [["validate", "job.yaml"], ["run", "job.yaml"]] {
      let result = try job.run(command, environment: ["CROPJOB_CASCADES": missing])
      XCTAssertNotEqual(result.status, 0, command.joined(separator: " "))
      let text = result.stdout + result.stderr
      XCTAssertTrue(
        text.contains(
          "job.yaml:7:20: error: jobs.avatar.place.focus: expected a face detector for focus: faces but received the face detector's cascade \(missing)/haarcascade_frontalface_alt2.xml is missing (install the Debian package opencv-data)"
        ), text)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: job.path("out/astronaut.jpg")))
    // The frontal cascade alone is not enough: the profile cascade is named.
    let partial = job.path("frontal-only")
    try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml",
      toPath: partial + "/haarcascade_frontalface_alt2.xml")
    let result = try job.run(["validate", "job.yaml"], environment: ["CROPJOB_CASCADES": partial])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(
      (result.stdout + result.stderr).contains(
        "the face detector's cascade \(partial)/haarcascade_profileface.xml is missing (install the Debian package opencv-data)"
      ), result.stdout + result.stderr)
    // The same file without faces needs no cascade.
    try job.write(Self.job.replacingOccurrences(of: "focus: faces", with: "focus: attention"))
    XCTAssertEqual(try job.run(["validate", "job.yaml"], environment: ["CROPJOB_CASCADES": missing]).status, 0)
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
      XCTAssertNotNil(found["point"], path)
    }
  }
}
