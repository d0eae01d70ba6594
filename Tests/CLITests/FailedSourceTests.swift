import Foundation
import TestSupport
import XCTest

/// A source that fails a run keeps its last good outputs (issue 28.1), through the binary: an
/// unreadable source (the run made as `nobody` when the tests run as root, whose reads
/// permission bits do not stop): exit 1, the NDJSON `kept` events and counts, the text
/// summary's "kept from the last good run" lines. (Emptied and truncated sources, in-process:
/// ExecuteTests' `FailedSourceTests`.)
final class FailedSourceTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]
  /// The outputs of `photos/kite.jpg` in `TestJobs.thumbsAndTiny()`.
  static let kiteOutputs = ["thumbs/kite-96.jpg", "thumbs/kite-192.jpg", "webp/kite.webp", "tiny/kite-192.png"]

  /// Permission bits do not deny root (CI may run as root): then every run of this test is
  /// made as the user `nobody` (`setpriv`, util-linux), over a scratch folder it owns.
  func testUnreadableSourceKeepsItsOutputsUnderPrune() throws {
    try check(kept: Self.kiteOutputs, asNobody: geteuid() == 0) {
      try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: $0)
    }
  }

  private func check(
    kept: [String], asNobody: Bool = false, file: StaticString = #filePath, line: UInt = #line,
    damage: (String) throws -> Void
  ) throws {
    let scratch = CLIJob()
    defer { scratch.remove() }
    try scratch.copySamples(Self.photos)
    try scratch.write(TestJobs.thumbsAndTiny())
    let s = Runner(job: scratch, asNobody: asNobody)
    if asNobody { try s.giveToNobody() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0, file: file, line: line)
    let before = try s.tree("out")
    let source = s.path("photos/kite.jpg")
    try damage(source)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: source) }

    let result = try s.run(["run", "job.yaml", "--prune", "--json"])
    XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
    let events = CLIJob.events(result.stdout)
    XCTAssertEqual(
      events.filter { ["pruned", "stale"].contains($0["event"] as? String) }.count, 0, file: file, line: line)
    let keptEvents = events.filter { $0["event"] as? String == "kept" }.compactMap { $0["path"] as? String }
    XCTAssertEqual(Set(keptEvents), Set(kept), result.stdout, file: file, line: line)
    let finished = try XCTUnwrap(events.last)
    XCTAssertEqual(finished["kept"] as? Int, kept.count, file: file, line: line)
    XCTAssertEqual(finished["pruned"] as? Int, 0, file: file, line: line)
    XCTAssertEqual(finished["stale"] as? Int, 0, file: file, line: line)
    // Every file is still there, byte for byte.
    XCTAssertEqual(
      try s.tree("out").filter { !$0.key.hasPrefix(".cropjob") && !$0.key.hasPrefix("cropjob-manifest") },
      before.filter { !$0.key.hasPrefix(".cropjob") && !$0.key.hasPrefix("cropjob-manifest") }, file: file, line: line)
    // The manifest lists them, marked, and nothing else marked.
    let marked = try manifest(s).filter { $0["fromLastGoodRun"] as? Bool == true }.compactMap { $0["path"] as? String }
    XCTAssertEqual(Set(marked), Set(kept), file: file, line: line)
    XCTAssertEqual(try manifest(s).count, 3 * Self.photos.count + Self.photos.count, file: file, line: line)
    // The text summary says so.
    try damage(source)
    let text = try s.run(["run", "job.yaml", "--prune"])
    XCTAssertTrue(
      text.stderr.contains("\(kept.count) kept from the last good run"), text.stderr, file: file, line: line)
    XCTAssertTrue(text.stderr.contains("kept from the last good run: \(kept[0])"), text.stderr, file: file, line: line)

    // The photo comes back: rebuilt, nothing marked any more.
    try FileManager.default.removeItem(atPath: source)
    try scratch.copySamples(["kite.jpg"])
    if asNobody { try s.giveToNobody() }
    let again = try s.run(["run", "job.yaml", "--prune", "-q"])
    XCTAssertEqual(again.status, 0, again.stderr, file: file, line: line)
    XCTAssertEqual(try manifest(s).filter { $0["fromLastGoodRun"] != nil }.count, 0, file: file, line: line)
  }

  private func manifest(_ s: Runner) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json")))
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try XCTUnwrap(object["outputs"] as? [[String: Any]])
  }

  /// Runs of `cropjob` in a scratch folder, as this user or as `nobody`.
  struct Runner {
    let job: CLIJob
    let asNobody: Bool

    func path(_ relative: String) -> String { job.path(relative) }
    func tree(_ relative: String) throws -> [String: Data] { try job.tree(relative) }

    func run(_ arguments: [String]) throws -> CLIRunner.Result {
      guard asNobody else { return try job.run(arguments) }
      return try Subprocess.run(
        "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.binary.path] + arguments,
        cwd: job.folder, environment: [:], unset: CLIJob.shardVariables)
    }

    /// The scratch folder, and everything in it, owned by `nobody`.
    func giveToNobody() throws {
      let chown = try Subprocess.run("/bin/chown", ["-R", "65534:65534", job.folder.path], cwd: job.folder)
      XCTAssertEqual(chown.status, 0, chown.stderr)
    }
  }
}
