import Foundation
import TestSupport
import XCTest

/// What a command loads: the face detector (libfacedetection and its OpenMP runtime) only for
/// jobs that ask for faces (named when it cannot be loaded), libvips' heif module only once something is decoded. The
/// shared objects each process loads are read from the dynamic linker's own log (LD_DEBUG=files).
final class LazyLoadingTests: XCTestCase {
  static func job(focus: String) -> String {
    """
    version: 1
    output: out
    jobs:
      avatar:
        sources: photos
        guide: {shape: square, size: 64}
        place: {focus: \(focus)}
        outputs: [{path: "{stem}.jpg"}]

    """
  }

  /// The file names of the shared objects the dynamic linker loaded, from LD_DEBUG=files.
  func loaded(_ result: CLIRunner.Result) -> [String] {
    result.stderr.split(separator: "\n").compactMap { line in
      guard let range = line.range(of: "file=") else { return nil }
      let name = line[range.upperBound...].prefix { $0 != " " && $0 != "\t" }
      return (String(name) as NSString).lastPathComponent
    }
  }

  func testTheFaceDetectorIsLoadedOnlyForAJobThatAsksForFaces() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg"])
    try job.write(Self.job(focus: "attention"))
    try job.write(Self.job(focus: "faces"), to: "faces.yaml")
    let trace = ["LD_DEBUG": "files"]
    for command in [["--help"], ["validate", "job.yaml"], ["plan", "job.yaml"]] {
      let result = try job.run(command, environment: trace)
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr.suffix(2000))")
      let names = loaded(result)
      XCTAssertFalse(names.isEmpty, "no LD_DEBUG log for \(command)")
      XCTAssertEqual(names.filter { $0.hasPrefix("libfacedetection") || $0.hasPrefix("libgomp-") }, [], "\(command)")
    }
    let faces = try job.run(["validate", "faces.yaml"], environment: trace)
    XCTAssertEqual(faces.status, 0, String(faces.stderr.suffix(2000)))
    let names = loaded(faces)
    XCTAssertTrue(names.contains("libfacedetection.so"), "\(names)")
  }

  func testAFaceLibraryThatCannotBeLoadedIsNamed() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg"])
    try job.write(Self.job(focus: "faces"))
    let missing = job.path("lib/libfacedetection.so")
    let environment = ["CROPJOB_FACES_LIBRARY": missing]
    let expected =
      "cannot load the face detector's library \(missing): \(missing): cannot open shared object file: "
      + "No such file or directory (scripts/install-deps.sh installs it from the PyPI wheel yuface 2023.5.1)"
    for command in [["validate", "job.yaml"], ["run", "job.yaml"]] {
      let result = try job.run(command, environment: environment)
      XCTAssertNotEqual(result.status, 0, "\(command)")
      XCTAssertTrue(
        (result.stdout + result.stderr).contains(
          "job.yaml:7:20: error: jobs.avatar.place.focus: expected a face detector for focus: faces but received "
            + expected), "\(command): \(result.stdout + result.stderr)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: job.path("out/astronaut.jpg")))
    let version = try job.run(["--version"], environment: environment)
    XCTAssertEqual(version.status, 0)
    XCTAssertTrue(version.stdout.hasSuffix("faces unavailable: \(expected)\n"), version.stdout)
    // A job without faces does not need the library.
    try job.write(Self.job(focus: "attention"))
    let run = try job.run(["run", "job.yaml", "-q"], environment: environment)
    XCTAssertEqual(run.status, 0, run.stderr)
  }

  func testANoOpReRunDoesNotStartLibvips() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg", "cat.png"])
    try job.write(Self.job(focus: "attention"))
    let trace = ["LD_DEBUG": "files"]
    // libvips starts when the first run decodes: its heif module is loaded then.
    let first = try job.run(["run", "job.yaml", "-q"], environment: trace)
    XCTAssertEqual(first.status, 0, String(first.stderr.suffix(2000)))
    XCTAssertTrue(loaded(first).contains("vips-heif.so"), "\(loaded(first))")
    for command in [["run", "job.yaml", "-q"], ["plan", "job.yaml"]] {
      let again = try job.run(command, environment: trace)
      XCTAssertEqual(again.status, 0, String(again.stderr.suffix(2000)))
      XCTAssertFalse(loaded(again).isEmpty, "no LD_DEBUG log for \(command)")
      XCTAssertFalse(loaded(again).contains("vips-heif.so"), "\(command) started libvips")
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: job.path("out/astronaut.jpg")))
  }
}
