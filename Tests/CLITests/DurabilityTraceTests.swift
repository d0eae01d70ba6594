import Foundation
import TestSupport
import XCTest

/// Atomic and durable writes seen from outside cropjob (docs/reliability.md): `strace -f -y`
/// records the calls a run makes on its files, in order.
///
/// - Outputs are recorded only once durable: between the outputs' links into the output
///   folder and the first write of the state's log that follows them, a `syncfs`.
/// - The manifest (written durably) is fsynced before it is linked under its name, and its
///   folder after.
/// - A file replaced by a later run goes through a temporary name and a `rename` over it: the
///   file on disk is the new one (its SHA-256, by `sha256sum`, is the manifest's), and no
///   temporary file is left.
final class DurabilityTraceTests: XCTestCase {
  static let strace = "/usr/bin/strace"

  func traced(_ s: CLIJob, _ arguments: [String]) throws -> [String] {
    let trace = s.path("trace-\(UUID().uuidString.prefix(6)).txt")
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let result = try Subprocess.run(
      Self.strace,
      [
        "-f", "-y", "-qq", "-e", "trace=linkat,rename,renameat,renameat2,syncfs,fsync,fdatasync,pwrite64,write",
        "-o", trace, CLIRunner.binary.path,
      ] + arguments, cwd: s.folder, environment: CLIJob.environment([:]))
    XCTAssertEqual(result.status, 0, result.stderr)
    // Lines start with the thread id: dropped, the order kept. A call another thread's call
    // interrupted is printed as "call(arguments <unfinished ...>" and later "<... call resumed>":
    // its arguments are on the first line, so calls are matched by their start and a failure
    // ("= -1") is looked for rather than a success at the end of the line.
    return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map {
      // "  917 linkat(…" or "12345 linkat(…": the thread id is padded.
      String($0.drop { $0 == " " }.drop { $0.isNumber }.drop { $0 == " " })
    }
  }

  func job(_ s: CLIJob, quality: Int) throws {
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/kite.jpg", "photos/cat.png", "photos/bridge.jpg"]
          guide: {width: 160, height: 120}
          outputs: [{path: "{stem}.jpg", encode: {quality: \(quality)}}]
      """)
  }

  func testOutputsAreDurableBeforeTheyAreRecordedAndReplacedByRename() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.strace) else {
      return XCTFail("\(Self.strace) is not installed (scripts/install-deps.sh installs strace)")
    }
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "cat.png", "bridge.jpg"])
    try job(s, quality: 80)
    let out = s.path("out")
    let first = try traced(s, ["run", "job.yaml", "-q"])
    // The last output linked into place, then the first write to the state's log after it.
    let linked = first.indices.filter { first[$0].hasPrefix("linkat(") && first[$0].contains("\(out)/") }
      .filter { first[$0].contains(".jpg\"") }
    XCTAssertEqual(linked.count, 3, "outputs linked: \(linked.map { first[$0] })")
    let lastLink = try XCTUnwrap(linked.last)
    let logWrite = try XCTUnwrap(
      first.indices.first {
        $0 > lastLink && first[$0].contains("state.sqlite3-wal>") && first[$0].hasPrefix("pwrite64(")
      },
      "no state write after the outputs")
    XCTAssertTrue(
      first[lastLink..<logWrite].contains { $0.hasPrefix("syncfs(") && !$0.contains("= -1") },
      "outputs recorded before a syncfs made them durable:\n" + first[lastLink...logWrite].joined(separator: "\n"))
    // The manifest: its unnamed file fsynced, linked under its name, then the folder fsynced.
    let manifestLink = try XCTUnwrap(
      first.lastIndex { $0.hasPrefix("linkat(") && $0.contains("\(out)/cropjob-manifest.json\"") },
      "manifest not linked")
    XCTAssertTrue(
      first[..<manifestLink].contains { $0.hasPrefix("fsync(") && $0.contains("<\(out)/#") && !$0.contains("= -1") },
      "the manifest was not fsynced before it was linked")
    XCTAssertTrue(
      first[manifestLink...].contains { $0.hasPrefix("fsync(") && $0.contains("<\(out)>") },
      "the output folder was not fsynced after the manifest was linked")

    // Another quality: each file is replaced through a rename, and is the new file.
    let before = try s.tree("out")
    try job(s, quality: 40)
    let second = try traced(s, ["run", "job.yaml", "-q"])
    let renamed = second.filter { $0.hasPrefix("rename(") && $0.contains(".jpg\"") && !$0.contains("= -1") }
    XCTAssertEqual(renamed.count, 3, "replaced outputs: \(renamed)")
    let data = try Data(contentsOf: URL(fileURLWithPath: out + "/cropjob-manifest.json"))
    let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try XCTUnwrap(manifest["outputs"] as? [[String: Any]])
    XCTAssertEqual(entries.count, 3)
    for entry in entries {
      let path = try XCTUnwrap(entry["path"] as? String)
      let sum = try Subprocess.run("/usr/bin/sha256sum", [out + "/" + path]).stdout.prefix(64)
      XCTAssertEqual(String(sum), entry["sha256"] as? String, "\(path) on disk is not the file recorded")
      XCTAssertNotEqual(before[path], try s.tree("out")[path], "\(path) was not replaced")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".cropjob") }.sorted()
    XCTAssertEqual(
      left, ["bridge.jpg", "cat.jpg", "cropjob-manifest.json", "kite.jpg"], "files left in the output folder")
  }
}
