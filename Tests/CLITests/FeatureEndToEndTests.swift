import Foundation
import TestSupport
import XCTest

/// Features that no other test ran through the binary (issue 29): glob classes, the path
/// placeholders, metadata kinds, SIGTERM, each checked by a program cropjob did not write
/// (libvips' command line, exiftool, sha256sum and sqlite3).
final class FeatureEndToEndTests: XCTestCase {
  /// `?` and `[a-z]` in source globs pick exactly the matching files; `{job}`, `{height}`,
  /// `{format}` and `{ext}` expand to the job's name, the written height, the format's usual
  /// extension and the source's extension.
  func testGlobClassesAndPlaceholders() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "bridge.jpg", "cat.png", "cameraman.png", "coffee-alpha.png"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        band:
          sources: ["photos/?ite.jpg", "photos/[a-c]a*.png"]
          guide: {shape: rect, width: 120, height: 90}
          outputs:
            - path: "{job}/{stem}-{height}.{format}"
              encode: {format: webp}
            - path: "{ext}/{stem}.png"
      """)
    let result = try s.run(["run", "job.yaml", "-q"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let written = try s.tree("out").keys.filter { !$0.hasPrefix("cropjob-manifest") && !$0.hasPrefix(".") }.sorted()
    // `?ite.jpg` matches kite.jpg, not bridge.jpg; `[a-c]a*.png` matches cat.png and
    // cameraman.png, not coffee-alpha.png (its second letter is `o`).
    XCTAssertEqual(
      written,
      [
        "band/cameraman-90.webp", "band/cat-90.webp", "band/kite-90.webp", "jpg/kite.png", "png/cameraman.png",
        "png/cat.png",
      ])
    for name in written {
      let (width, height, _) = try dimensions(s.path("out/\(name)"))
      XCTAssertEqual([width, height], [120, 90], name)
      let loader = try header(s.path("out/\(name)"), "vips-loader")
      XCTAssertTrue(loader.hasPrefix(name.hasSuffix(".webp") ? "webp" : "png"), "\(name): \(loader)")
    }
  }

  /// `metadata: [gps]` keeps the GPS position and nothing of the camera; `[camera]` the
  /// reverse; `strip` neither (exiftool reads the outputs).
  func testMetadataKindsKeepWhatIsListed() throws {
    let exiftool = "/usr/bin/exiftool"
    guard FileManager.default.isExecutableFile(atPath: exiftool) else {
      throw Skipped.because("\(exiftool) is not installed")
    }
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["boats-gps.jpg"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/boats-gps.jpg"]
          guide: {shape: square, size: 64}
          outputs:
            - {path: "{stem}-gps.jpg", metadata: [gps]}
            - {path: "{stem}-camera.jpg", metadata: [camera]}
            - {path: "{stem}-both.webp", metadata: [gps, camera]}
            - {path: "{stem}-strip.jpg"}
      """)
    let result = try s.run(["run", "job.yaml", "-q"])
    XCTAssertEqual(result.status, 0, result.stderr)
    func tags(_ name: String) throws -> String {
      try tool(exiftool, ["-s", "-GPSLatitude", "-Make", "-Model", s.path("out/\(name)")])
    }
    let source = try tool(exiftool, ["-s", "-GPSLatitude", s.path("photos/boats-gps.jpg")])
    XCTAssertTrue(source.contains("GPSLatitude"), source)
    let gps = try tags("boats-gps-gps.jpg")
    XCTAssertTrue(gps.contains("GPSLatitude") && !gps.contains("FakeCam"), gps)
    let camera = try tags("boats-gps-camera.jpg")
    XCTAssertTrue(!camera.contains("GPSLatitude") && camera.contains("FakeCam X1"), camera)
    let both = try tags("boats-gps-both.webp")
    XCTAssertTrue(both.contains("GPSLatitude") && both.contains("FakeCam X1"), both)
    let stripped = try tags("boats-gps-strip.jpg")
    XCTAssertTrue(!stripped.contains("GPSLatitude") && !stripped.contains("FakeCam"), stripped)
  }

  /// SIGTERM during a run: exit 130, only whole outputs (each the uninterrupted run's bytes),
  /// the state records only files on disk, and the next run finishes the batch.
  func testSIGTERMStopsWith130AndTheNextRunResumes() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(nil, copies: 2)
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*"]
          guide: {shape: rect, aspect: "4:3", width: 160}
          outputs:
            - path: "{stem}-{width}.jpg"
              widths: [160, 480, 960]
      """)
    let reference = try s.run(["run", "job.yaml", "-q", "-j", "2", "--output", "reference"])
    XCTAssertEqual(reference.status, 0, reference.stderr)
    let expected = try s.tree("reference").filter { !$0.key.hasPrefix("cropjob-manifest") && !$0.key.hasPrefix(".") }

    var interrupted = 0
    for trial in 0..<6 where interrupted < 1 {
      let root = s.path("out-\(trial)")
      let process = Process()
      process.executableURL = CLIRunner.binary
      process.arguments = ["run", "job.yaml", "-q", "-j", "2", "--output", root]
      process.currentDirectoryURL = s.folder
      process.environment = CLIJob.environment([:])
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // The signal at an observed point, not after a guessed sleep: once the first output is
      // on disk (outputs appear under their name only whole), while the others are in flight.
      let started = Date()
      while process.isRunning && Self.outputsOnDisk(root) == 0 && Date().timeIntervalSince(started) < 60 {
        usleep(2_000)
      }
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
      guard process.terminationStatus != 0 else { continue }  // finished before the signal
      interrupted += 1
      XCTAssertEqual(process.terminationReason, .exit, "trial \(trial): killed by the signal, not stopped")
      XCTAssertEqual(process.terminationStatus, 130, "trial \(trial)")
      let left = try treeContents(root).filter { !$0.key.hasPrefix("cropjob-manifest") && !$0.key.hasPrefix(".") }
      XCTAssertLessThan(left.count, expected.count, "trial \(trial): nothing was left to do")
      for (name, bytes) in left { XCTAssertEqual(bytes, expected[name], "trial \(trial): \(name)") }
      let recorded = try assertStateMatchesFiles(root: root, jobFolder: s.folder.path)
      XCTAssertEqual(Set(recorded.keys), Set(left.keys), "trial \(trial): in-flight outputs finish and are recorded")
      let rerun = try s.run(["run", "job.yaml", "-q", "-j", "2", "--output", root])
      XCTAssertEqual(rerun.status, 0, rerun.stderr)
      let after = try treeContents(root).filter { !$0.key.hasPrefix("cropjob-manifest") && !$0.key.hasPrefix(".") }
      XCTAssertEqual(after, expected, "trial \(trial): the re-run did not finish the batch byte for byte")
    }
    XCTAssertGreaterThan(interrupted, 0, "no SIGTERM landed while the run worked")
  }

  /// Output files under `root` (not the manifests, not the state folder).
  static func outputsOnDisk(_ root: String) -> Int {
    guard let walk = FileManager.default.enumerator(atPath: root) else { return 0 }
    var count = 0
    for case let path as String in walk where path.hasSuffix(".jpg") && !path.hasPrefix(".") { count += 1 }
    return count
  }

}
