import CropKit
import Foundation
import TestSupport
import XCTest

/// The state database through `cropjob plan` and `run`: files cropjob did not write are not
/// replaced without `--overwrite`; a damaged or newer state stops the run with the file named
/// and the way out, and `--rebuild-state` gets out (README.md, "State").
final class StateCommandTests: XCTestCase {
  func scratch(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(["kite.jpg", "cat.png"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*"]
          guide: {shape: square, size: 64}
          outputs:
            - path: "{stem}-x.jpg"
      """)
    return s
  }

  func testAFileCropjobDidNotWriteIsRefusedWithoutOverwrite() throws {
    let s = try scratch()
    defer { s.remove() }
    try FileManager.default.createDirectory(atPath: s.path("out"), withIntermediateDirectories: true)
    let mine = Data("the user's own kite-x.jpg".utf8)
    try mine.write(to: URL(fileURLWithPath: s.path("out/kite-x.jpg")))

    let plan = try s.run(["plan", "job.yaml"])
    XCTAssertEqual(plan.status, 2, plan.stdout + plan.stderr)
    XCTAssertTrue(
      plan.stdout.contains("would overwrite a file cropjob did not write: \(s.path("out/kite-x.jpg"))"), plan.stdout)
    XCTAssertFalse(plan.stdout.contains("cat-x.jpg: would overwrite"), plan.stdout)

    let refused = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(refused.status, 2, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("would overwrite a file cropjob did not write: \(s.path("out/kite-x.jpg"))"))
    XCTAssertTrue(refused.stderr.contains("--overwrite"), refused.stderr)
    // Nothing written: not the other output, not the state.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: s.path("out")), ["kite-x.jpg"])
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.path("out/kite-x.jpg"))), mine)

    XCTAssertEqual(try s.run(["plan", "job.yaml", "--overwrite"]).status, 0)
    let allowed = try s.run(["run", "job.yaml", "--overwrite", "--json"])
    XCTAssertEqual(allowed.status, 0, allowed.stderr)
    XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: s.path("out/kite-x.jpg"))), mine)
    // cropjob's own now: re-runs need no --overwrite, also when it rebuilds them.
    let again = try s.run(["run", "job.yaml", "--force", "--json"])
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(try s.run(["plan", "job.yaml"]).status, 0)
    // The state, read by sqlite3: both outputs, each with the file's bytes and its source's hash.
    let rows = try assertStateMatchesFiles(root: s.path("out"), jobFolder: s.folder.path)
    XCTAssertEqual(rows.keys.sorted(), ["cat-x.jpg", "kite-x.jpg"])
  }

  func testPruneDeletesOnlyWhatCropjobWrote() throws {
    let s = try scratch()
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: s.path("out/notes.jpg")))
    try s.write(
      try String(contentsOfFile: s.path("job.yaml"), encoding: .utf8).replacing("{stem}-x.jpg", with: "{stem}-y.jpg"))
    let pruned = try s.run(["run", "job.yaml", "--prune", "-q"])
    XCTAssertEqual(pruned.status, 0, pruned.stderr)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: s.path("out")).filter { !$0.hasPrefix(".") }.sorted(),
      ["cat-y.jpg", "cropjob-manifest.json", "kite-y.jpg", "notes.jpg"])
    // The pruned outputs left the state too (sqlite3 reads it).
    let rows = try assertStateMatchesFiles(root: s.path("out"), jobFolder: s.folder.path)
    XCTAssertEqual(rows.keys.sorted(), ["cat-y.jpg", "kite-y.jpg"])
  }

  func testADamagedStateStopsTheRunUntilRebuilt() throws {
    let s = try scratch()
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    let state = s.path("out/.cropjob/state.sqlite3")
    try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: state))
    for command in [["run", "job.yaml"], ["plan", "job.yaml"]] {
      let result = try s.run(command)
      XCTAssertEqual(result.status, 2, result.stderr)
      XCTAssertTrue(result.stderr.contains(state), result.stderr)
      XCTAssertTrue(result.stderr.contains("damaged") && result.stderr.contains("--rebuild-state"), result.stderr)
      XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr)
    }
    // Rebuilt from cropjob-manifest.json: everything is still up to date, nothing is redone.
    let rebuilt = try s.run(["run", "job.yaml", "--rebuild-state", "--json"])
    XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
    let finished = try XCTUnwrap(CLIJob.events(rebuilt.stdout).last)
    XCTAssertEqual(finished["upToDate"] as? Int, 2, rebuilt.stdout)
    XCTAssertEqual(finished["written"] as? Int, 0, rebuilt.stdout)
    XCTAssertEqual(try s.run(["plan", "job.yaml"]).status, 0)
    // The rebuilt database, read by sqlite3, describes the files on disk.
    let rows = try assertStateMatchesFiles(root: s.path("out"), jobFolder: s.folder.path)
    XCTAssertEqual(rows.keys.sorted(), ["cat-x.jpg", "kite-x.jpg"])
  }

  func testAStateOfANewerCropjobIsRefusedNamingTheVersion() throws {
    let s = try scratch()
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    let state = s.path("out/.cropjob/state.sqlite3")
    XCTAssertTrue(Subprocess.succeeds("/usr/bin/sqlite3", [state, "PRAGMA user_version = 9"]))
    let result = try s.run(["run", "job.yaml"])
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(result.stderr.contains(state) && result.stderr.contains("schema version 9"), result.stderr)
    XCTAssertTrue(result.stderr.contains("--rebuild-state"), result.stderr)
    XCTAssertEqual(try s.run(["run", "job.yaml", "--rebuild-state", "-q"]).status, 0)
  }

  func testStateMergeFoldsTheShardFilesIntoOne() throws {
    let s = try scratch()
    defer { s.remove() }
    for index in 0..<3 { XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--shard", "\(index)/3"]).status, 0) }
    let before = try s.run(["manifest", "job.yaml", "--format", "jsonl"])
    XCTAssertEqual(before.stdout.split(separator: "\n").count, 2)
    let merged = try s.run(["state", "merge", "job.yaml"])
    XCTAssertEqual(merged.status, 0, merged.stderr)
    XCTAssertTrue(merged.stdout.contains("merged 3 shard state files"), merged.stdout)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: s.path("out/.cropjob")), ["state.sqlite3"])
    // The merged database, read by sqlite3, holds every shard's outputs with the files' hashes.
    let rows = try assertStateMatchesFiles(root: s.path("out"), jobFolder: s.folder.path)
    XCTAssertEqual(rows.keys.sorted(), ["cat-x.jpg", "kite-x.jpg"])
    XCTAssertEqual(try s.run(["manifest", "job.yaml", "--format", "jsonl"]).stdout, before.stdout)
    let rerun = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(CLIJob.events(rerun.stdout).last?["upToDate"] as? Int, 2, rerun.stdout)
    XCTAssertEqual(try s.run(["state", "fold", "job.yaml"]).status, 64)
  }

  /// Shard membership changed in 0.2.0: over a root that shards of the same count recorded
  /// under the old assignment, a worker's outputs are in a sibling's file, which it does not
  /// read. Simulated by swapping the two shard files: the run is refused with the way out
  /// (`state merge`), and after the merge every shard finds its outputs up to date.
  func testAfterAMembershipChangeStateMergeMakesEveryShardUpToDate() throws {
    let s = try scratch()
    defer { s.remove() }
    for index in 0..<2 { XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--shard", "\(index)/2"]).status, 0) }
    let folder = s.path("out/.cropjob")
    let (a, b) = (folder + "/state.shard-0-of-2.sqlite3", folder + "/state.shard-1-of-2.sqlite3")
    try FileManager.default.moveItem(atPath: a, toPath: folder + "/swap")
    try FileManager.default.moveItem(atPath: b, toPath: a)
    try FileManager.default.moveItem(atPath: folder + "/swap", toPath: b)
    let refused = (0..<2).map { try? s.run(["run", "job.yaml", "-q", "--shard", "\($0)/2"]) }
    XCTAssertTrue(refused.contains { $0?.status == 2 }, "\(refused.map { $0?.stderr ?? "" })")
    for run in refused where run?.status == 2 {
      XCTAssertTrue(run?.stderr.contains("run `cropjob state merge`") ?? false, run?.stderr ?? "")
    }
    XCTAssertEqual(try s.run(["state", "merge", "job.yaml"]).status, 0)
    var upToDate = 0
    for index in 0..<2 {
      let run = try s.run(["run", "job.yaml", "--json", "--shard", "\(index)/2"])
      XCTAssertEqual(run.status, 0, run.stderr)
      XCTAssertEqual(CLIJob.events(run.stdout).last?["written"] as? Int, 0, run.stdout)
      upToDate += CLIJob.events(run.stdout).last?["upToDate"] as? Int ?? 0
    }
    XCTAssertEqual(upToDate, 2)
  }
}
