import Foundation
import TestSupport
import XCTest

/// SIGTERM through the binary (issue 29), checked by programs cropjob did not write
/// (sha256sum and sqlite3). Glob classes, placeholders and metadata kinds, in-process:
/// ExecuteTests' `JobFeatureTests`.
final class FeatureEndToEndTests: XCTestCase {
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
