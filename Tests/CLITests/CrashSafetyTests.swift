import CropKit
import Foundation
import TestSupport
import XCTest

/// `cropjob run` killed with SIGKILL at seeded random points of its progress (after a random
/// number of outputs, plus a few milliseconds): what it leaves in the output root is only whole
/// outputs, byte-identical to an uninterrupted run's, each recorded one
/// matching its SHA-256 in the state database (which opens); no temporary file; and a re-run
/// completes the batch byte for byte, redoing only what the killed run had not recorded, its
/// unrecorded outputs included without --overwrite (docs/reliability.md, "Crash safety").
/// The killed runs commit every 3 outputs (`CROPJOB_STATE_BATCH`), so that kills land
/// between and during commits.
final class CrashSafetyTests: XCTestCase {
  func testKillNineAtRandomMomentsLosesNothingWhole() throws {
    let folder = try TimedRunner.openFolder("crash")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    let samples = [
      "astronaut.jpg", "bridge.jpg", "cat.png", "coffee-alpha.png", "kite.jpg", "mountains.jpg", "nuthatch.jpg",
      "portrait-sideways-8.jpg",
    ]
    for name in samples {
      try FileManager.default.copyItem(
        atPath: TestPaths.repoRoot.appendingPathComponent("samples/\(name)").path,
        toPath: photos.appendingPathComponent(name).path)
    }
    let job = folder.appendingPathComponent("job.yaml").path
    try """
    version: 1
    output: out
    jobs:
      thumbs:
        sources: ["photos/*"]
        guide: {shape: rect, aspect: "4:3", width: 160}
        place: {fit: cover}
        outputs:
          - path: "jpeg/{stem}-{width}.jpg"
            widths: [160, 320, 480]
            encode: {quality: 80}
          - path: "png/{stem}.png"
            encode: {format: png}
    """.write(toFile: job, atomically: true, encoding: .utf8)

    // The uninterrupted reference.
    let referenceRoot = folder.appendingPathComponent("reference").path
    let reference = try TimedRunner.run(
      ["run", job, "--output", referenceRoot, "--quiet", "--jobs", "2"], cwd: folder, timeout: 120)
    XCTAssertEqual(reference.exitCode, 0, reference.combined)
    let expected = try treeContents(referenceRoot)
    XCTAssertEqual(expected.keys.filter { !$0.hasPrefix("cropjob-manifest") }.count, samples.count * 4)
    let duration = reference.seconds

    var random = SeededRandom(seed: 20_261_130)
    var summary: [String] = []
    var midRun = 0
    let trials = 24
    for trial in 0..<trials {
      let root = folder.appendingPathComponent("out-\(trial)").path
      // The kill lands after a random number of outputs are on disk (0 to all but one),
      // plus a random few milliseconds: a moment inside the run however fast or slow the
      // shared machine is at the time (a delay drawn from one timed run misses it when the
      // load changes between runs).
      let outputsBeforeKill = Int.random(in: 0..<(samples.count * 4 - 1), using: &random)
      let extraMicroseconds = UInt32.random(in: 0...20_000, using: &random)
      let process = Process()
      process.executableURL = CLIRunner.binary
      process.arguments = ["run", job, "--output", root, "--quiet", "--jobs", "2"]
      process.currentDirectoryURL = folder
      process.environment = ProcessInfo.processInfo.environment.merging(["CROPJOB_STATE_BATCH": "3"]) { $1 }
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let started = Date()
      try process.run()
      while process.isRunning && finishedOutputs(root) < outputsBeforeKill { usleep(2_000) }
      usleep(extraMicroseconds)
      let delay = Date().timeIntervalSince(started)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let killed = process.terminationReason == .uncaughtSignal

      // What the kill left: only whole outputs, each one the reference's bytes, each
      // recorded one with its recorded hash; no temporary files.
      let left = try treeContents(root)
      let recorded = Manifest.loadAll(root: root)
      var orphans = 0
      for (relative, bytes) in left {
        let name = PathText.lastComponent(relative)
        XCTAssertFalse(name.hasPrefix(AtomicWriter.temporaryPrefix), "trial \(trial): temporary file \(relative)")
        if name.hasPrefix("cropjob-manifest") { continue }
        XCTAssertEqual(bytes, expected[relative], "trial \(trial): \(relative) is not the reference output")
        if let entry = recorded[relative] {
          XCTAssertEqual(
            SHA256.hex([UInt8](bytes)), entry.sha256, "trial \(trial): \(relative) differs from its record")
        } else {
          orphans += 1  // renamed into place before the kill, not yet committed
        }
      }
      for (relative, _) in recorded {
        XCTAssertNotNil(left[relative], "trial \(trial): \(relative) recorded but absent")
      }
      // The state database as sqlite3 reads it: what it records is on disk, byte for byte.
      // A kill while the state file was being created can leave it without tables: then it
      // records nothing, as the manifest must say too.
      let database = root + "/.cropjob/state.sqlite3"
      if FileManager.default.fileExists(atPath: database), try StateOracle.hasTable(database, "outputs") {
        let rows = try assertStateMatchesFiles(root: root, jobFolder: folder.path)
        XCTAssertEqual(Set(rows.keys), Set(recorded.keys), "trial \(trial): state and manifest disagree")
      } else {
        XCTAssertEqual(recorded.count, 0, "trial \(trial): outputs recorded without a state table")
      }
      if let sample = left.keys.sorted().first(where: { !$0.hasPrefix("cropjob-manifest") }) {
        let path = (root as NSString).appendingPathComponent(sample)
        XCTAssertNoThrow(
          try DecodedSource.decode(path: path, header: try SourceHeader.read(path: path), shrink: 1), sample)
      }

      let outputsLeft = left.keys.filter { !PathText.lastComponent($0).hasPrefix("cropjob-manifest") }.count
      if killed && outputsLeft < samples.count * 4 { midRun += 1 }

      // A re-run finishes the batch, skipping what was recorded, byte-identical throughout.
      let rerun = try TimedRunner.run(
        ["run", job, "--output", root, "--json", "--jobs", "2"], cwd: folder, timeout: 120)
      XCTAssertEqual(rerun.exitCode, 0, "trial \(trial): \(rerun.combined)")
      let finished = TimedRunner.finished(rerun.stdout) ?? [:]
      XCTAssertEqual(finished["upToDate"] as? Int, recorded.count, "trial \(trial): recorded outputs were redone")
      let after = try treeContents(root)
      XCTAssertEqual(Set(after.keys), Set(expected.keys), "trial \(trial)")
      let finalRows = try assertStateMatchesFiles(root: root, jobFolder: folder.path)
      XCTAssertEqual(finalRows.count, samples.count * 4, "trial \(trial): rows after the re-run")
      for (relative, bytes) in expected {
        XCTAssertEqual(after[relative], bytes, "trial \(trial): \(relative) differs from the uninterrupted run")
      }
      summary.append(
        "trial \(trial): kill at \(String(format: "%.2f", delay)) s\(killed ? "" : " (already done)"), left \(left.count) files, \(recorded.count) recorded, \(orphans) unrecorded"
      )
      try? FileManager.default.removeItem(atPath: root)
    }
    // The kills must land while the run works, not after it finished, in most trials.
    XCTAssertGreaterThan(midRun, trials / 2, "only \(midRun) of \(trials) kills landed mid-run")
    print(
      "CrashSafetyTests: \(midRun) of \(trials) kills mid-run; reference run \(String(format: "%.2f", duration)) s\n"
        + summary.joined(separator: "\n"))
  }

  /// Outputs renamed into place under `root` so far (manifests, the state folder and
  /// temporary files not counted).
  private func finishedOutputs(_ root: String) -> Int {
    guard let walk = FileManager.default.enumerator(atPath: root) else { return 0 }
    var count = 0
    while let relative = walk.nextObject() as? String {
      let name = PathText.lastComponent(relative)
      if relative.hasPrefix(".cropjob") || name.hasPrefix("cropjob-manifest") { continue }
      if name.hasPrefix(AtomicWriter.temporaryPrefix) { continue }
      if name.hasSuffix(".jpg") || name.hasSuffix(".png") { count += 1 }
    }
    return count
  }
}
