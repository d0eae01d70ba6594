import CropKit
import Foundation
import TestSupport
import XCTest

/// File-system faults through `cropjob run`: each gives a clear error naming the path,
/// leaves nothing partial, and the other outputs carry on (docs/reliability.md, "File-system
/// faults"). The tests run as root, which file modes do not stop: permission tests run the
/// binary as `nobody` (setpriv), read-only and full disks are small tmpfs mounts; each skips
/// when this machine cannot do that.
final class FilesystemFaultTests: XCTestCase {
  var folder: URL!
  var mounts: [String] = []

  override func setUpWithError() throws {
    folder = try TimedRunner.openFolder("fs")
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    chmod(photos.path, 0o755)
    for name in ["kite.jpg", "cat.png", "bridge.jpg", "coffee-alpha.png"] {
      let target = photos.appendingPathComponent(name).path
      try FileManager.default.copyItem(
        atPath: TestPaths.repoRoot.appendingPathComponent("samples/\(name)").path, toPath: target)
      chmod(target, 0o644)
    }
  }

  override func tearDown() {
    for mount in mounts.reversed() { _ = Self.shell("/bin/umount", ["-l", mount]) }
    try? FileManager.default.removeItem(at: folder)
  }

  @discardableResult
  static func shell(_ tool: String, _ arguments: [String]) -> Int32 {
    (try? Subprocess.run(tool, arguments))?.status ?? -1
  }

  /// Mounts a tmpfs of `kilobytes` at `path` (read-only with `readOnly`), or skips.
  func mountTmpfs(_ path: String, kilobytes: Int, readOnly: Bool = false) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let options = "size=\(kilobytes)k,mode=0777" + (readOnly ? ",ro" : "")
    guard getuid() == 0, Self.shell("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path]) == 0 else {
      throw Skipped.because("cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)", test: name)
    }
    mounts.append(path)
  }

  func writeJob(_ outputs: String, sources: String = #"["photos/*"]"#, output: String = "out") throws -> String {
    let path = folder.appendingPathComponent("job-\(UUID().uuidString.prefix(6)).yaml").path
    try """
    version: 1
    output: \(output)
    jobs:
      t:
        sources: \(sources)
        guide: {shape: square, size: 96}
        outputs:
    \(outputs)
    """.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o644)
    return path
  }

  struct Outcome {
    var result: TimedRunner.Result
    /// Failure reasons by output path (plan-time failures by source path).
    var failures: [String: String]
    var written: [String]
  }

  func run(_ job: String, _ extra: [String] = [], wrapper: [String] = []) throws -> Outcome {
    let result = try TimedRunner.run(["run", job, "--json"] + extra, cwd: folder, timeout: 60, wrapper: wrapper)
    XCTAssertFalse(result.timedOut, result.combined)
    XCTAssertFalse(result.signalled, "cropjob crashed: \(result.combined)")
    var failures: [String: String] = [:]
    for failure in (TimedRunner.finished(result.stdout)?["failures"] as? [[String: Any]]) ?? [] {
      let output = failure["output"] as? String ?? ""
      let key = output.hasPrefix("(") ? (failure["source"] as? String ?? "") : output
      failures[key] = failure["reason"] as? String ?? ""
    }
    var written: [String] = []
    for line in result.stdout.split(separator: "\n") {
      if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["event"] as? String == "wrote"
      {
        written.append(object["path"] as? String ?? "")
      }
    }
    return Outcome(result: result, failures: failures, written: written.sorted())
  }

  /// Nothing partial under `root`: no temporary files, every image decodes, and every output
  /// the manifest lists has its recorded SHA-256.
  func assertNothingPartial(_ root: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let manifest = Manifest.loadAll(root: root)
    for relative in regularFiles(below: root) {
      let path = (root as NSString).appendingPathComponent(relative)
      let name = PathText.lastComponent(relative)
      XCTAssertFalse(
        name.hasPrefix(AtomicWriter.temporaryPrefix), "temporary file left: \(relative)", file: file, line: line)
      if name.hasPrefix("cropjob-manifest") { continue }
      do {
        let header = try SourceHeader.read(path: path)
        _ = try DecodedSource.decode(path: path, header: header, shrink: 1)
      } catch {
        XCTFail("\(relative) does not decode: \(error)", file: file, line: line)
      }
      if let entry = manifest[relative] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(
          SHA256.hex([UInt8](data)), entry.sha256, "\(relative) differs from the manifest", file: file, line: line)
      }
    }
  }

  func testOutputRootUnderAFileFailsTheRunNamingTheFolder() throws {
    let blocker = folder.appendingPathComponent("blocker").path
    try "not a folder".write(toFile: blocker, atomically: true, encoding: .utf8)
    let job = try writeJob(#"      - path: "{stem}.jpg""#, output: "blocker/out")
    let outcome = try run(job)
    XCTAssertEqual(outcome.result.exitCode, 1, outcome.result.combined)
    XCTAssertTrue(outcome.written.isEmpty)
    // The state folder is made first: its failure stops the run before any output.
    XCTAssertEqual(outcome.failures.keys.sorted(), [".cropjob/state.sqlite3"], outcome.result.combined)
    for (path, reason) in outcome.failures {
      XCTAssertTrue(reason.contains(blocker), "\(path): \(reason)")
      XCTAssertTrue(reason.contains("is not a folder") || reason.contains("Not a directory"), "\(path): \(reason)")
    }
    XCTAssertFalse(outcome.result.combined.contains("error 512"), outcome.result.combined)
    // A missing output folder is created, however deep.
    let deep = try writeJob(#"      - path: "{stem}.jpg""#, output: "new/deeper/out")
    let created = try run(deep)
    XCTAssertEqual(created.result.exitCode, 0, created.result.combined)
    XCTAssertEqual(created.written.count, 4)
    try assertNothingPartial(folder.appendingPathComponent("new/deeper/out").path)
  }

  func testReadOnlyOutputFolderFailsItsOutputsOnly() throws {
    let root = folder.appendingPathComponent("out").path
    try mountTmpfs(root + "/readonly", kilobytes: 64, readOnly: true)
    let job = try writeJob(
      """
            - path: "readonly/{stem}.jpg"
            - path: "writable/{stem}.jpg"
      """)
    let outcome = try run(job)
    XCTAssertEqual(outcome.result.exitCode, 1, outcome.result.combined)
    XCTAssertEqual(outcome.written, ["bridge.jpg", "cat.jpg", "coffee-alpha.jpg", "kite.jpg"].map { "writable/\($0)" })
    XCTAssertEqual(
      outcome.failures.keys.sorted(),
      ["bridge.jpg", "cat.jpg", "coffee-alpha.jpg", "kite.jpg"].map { "readonly/\($0)" })
    for (path, reason) in outcome.failures {
      XCTAssertTrue(reason.contains(root + "/" + path), "\(path): \(reason)")
      XCTAssertTrue(reason.contains("Read-only file system"), "\(path): \(reason)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/readonly"), [])
    try assertNothingPartial(root)
    XCTAssertEqual(Manifest.loadAll(root: root).keys.sorted(), outcome.written)
  }

  func testReadOnlyOutputFolderAsAnotherUser() throws {
    guard let nobody = TimedRunner.asNobody else { throw Skipped.because("not root, or no setpriv") }
    let root = folder.appendingPathComponent("out").path
    try FileManager.default.createDirectory(atPath: root + "/locked", withIntermediateDirectories: true)
    chmod(root, 0o777)
    chmod(root + "/locked", 0o755)  // root's: nobody may not write here
    let job = try writeJob(
      """
            - path: "locked/{stem}.png"
            - path: "open/{stem}.png"
      """)
    let outcome = try run(job, wrapper: nobody)
    XCTAssertEqual(outcome.result.exitCode, 1, outcome.result.combined)
    XCTAssertEqual(outcome.written.count, 4, outcome.result.combined)
    XCTAssertEqual(outcome.failures.count, 4, outcome.result.combined)
    for (path, reason) in outcome.failures {
      XCTAssertTrue(
        path.hasPrefix("locked/") && reason.contains("Permission denied") && reason.contains(root + "/" + path),
        "\(path): \(reason)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/locked"), [])
    try assertNothingPartial(root)
  }

  /// Root reads any file whatever its mode, so the run is made as `nobody` (setpriv); and,
  /// for any user, sources that are a FIFO or a device.
  func testUnreadableSourcesFailAloneNamingThePath() throws {
    let secret = folder.appendingPathComponent("photos/secret.jpg").path
    try FileManager.default.copyItem(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples/nuthatch.jpg").path, toPath: secret)
    chmod(secret, 0o000)
    XCTAssertEqual(mkfifo(folder.appendingPathComponent("photos/pipe.jpg").path, 0o644), 0)
    let job = try writeJob(
      #"      - path: "{stem}.jpg""#,
      sources: #"["photos/kite.jpg", "photos/cat.png", "photos/secret.jpg", "photos/pipe.jpg", "/dev/zero"]"#)
    // Not root: the mode stops this user's own read. Root: the run is made as `nobody`; a root
    // without setpriv cannot check the mode, which is a recorded skip (a failure in CI).
    var wrapper: [String] = []
    if getuid() == 0 {
      guard let nobody = TimedRunner.asNobody else {
        throw Skipped.because("running as root without /usr/bin/setpriv: a file's mode cannot stop root's read")
      }
      wrapper = nobody
      chmod(folder.path, 0o777)
    }
    do {
      let outcome = try run(job, wrapper: wrapper)
      XCTAssertEqual(outcome.result.exitCode, 1, outcome.result.combined)
      XCTAssertEqual(outcome.written, ["cat.jpg", "kite.jpg"], outcome.result.combined)
      XCTAssertTrue(
        outcome.failures["photos/secret.jpg"]?.lowercased().contains("permission denied") ?? false,
        outcome.result.combined)
      XCTAssertTrue(outcome.failures["photos/pipe.jpg"]?.contains("FIFO") ?? false, outcome.result.combined)
      XCTAssertTrue(outcome.failures["/dev/zero"]?.contains("character device") ?? false, outcome.result.combined)
    }
    // As root: the mode does not stop the read, the special files still fail alone.
    chmod(secret, 0o644)
    let outcome = try run(job, ["--output", "out-root"])
    XCTAssertEqual(outcome.result.exitCode, 1, outcome.result.combined)
    XCTAssertEqual(outcome.written, ["cat.jpg", "kite.jpg", "secret.jpg"], outcome.result.combined)
    XCTAssertEqual(outcome.failures.keys.sorted(), ["/dev/zero", "photos/pipe.jpg"], outcome.result.combined)
    try assertNothingPartial(folder.appendingPathComponent("out-root").path)
  }

  /// A 200 kB tmpfs fills up part way: the outputs that fit are whole, the others fail with
  /// ENOSPC naming their path, the state's commit fails naming the errno, nothing partial
  /// stays; with room again, a re-run writes only what is missing (the outputs written but
  /// not recorded are claimed: cropjob's own, rewritten without --overwrite).
  func testDiskFullMidRun() throws {
    let root = folder.appendingPathComponent("out").path
    try mountTmpfs(root, kilobytes: 200)
    let job = try writeJob(
      """
            - path: "{stem}-{width}.png"
              widths: [96, 192, 288]
              encode: {format: png, compression: 0}
      """)
    let outcome = try run(job, ["--jobs", "1"])
    XCTAssertEqual(outcome.result.exitCode, 1, outcome.result.combined)
    XCTAssertFalse(outcome.failures.isEmpty)
    XCTAssertFalse(outcome.written.isEmpty, "nothing fit: \(outcome.result.combined)")
    for (path, reason) in outcome.failures {
      XCTAssertTrue(reason.contains("No space left on device"), "\(path): \(reason)")
      if path.hasPrefix(".cropjob/") {
        XCTAssertTrue(reason.contains(root + "/.cropjob/state.sqlite3"), "\(path): \(reason)")
        XCTAssertTrue(reason.contains("errno 28") || reason.contains("flush"), "\(path): \(reason)")
        continue
      }
      if path == "cropjob-manifest.json" { continue }
      XCTAssertTrue(reason.contains(root + "/" + path), "\(path): \(reason)")
      XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/" + path), "\(path) left behind")
    }
    try assertNothingPartial(root)
    let recorded = Set(Manifest.loadAll(root: root).keys)
    XCTAssertEqual(Self.shell("/bin/mount", ["-o", "remount,size=20m", root]), 0)
    let again = try run(job)
    XCTAssertEqual(again.result.exitCode, 0, again.result.combined)
    XCTAssertTrue(
      Set(again.written).isSuperset(of: Set(outcome.failures.keys).filter { !$0.contains("cropjob") }),
      again.result.combined)
    XCTAssertTrue(Set(again.written).isDisjoint(with: recorded), again.result.combined)
    try assertNothingPartial(root)
    XCTAssertEqual(Manifest.loadAll(root: root).count, 12)
  }

  /// The disk is full when a later run starts: its state commit fails naming the errno, and
  /// what earlier runs recorded stays recorded and intact; with room, only the new outputs
  /// are written.
  func testDiskFullWhileCommittingKeepsEarlierOutputs() throws {
    let root = folder.appendingPathComponent("out").path
    try mountTmpfs(root, kilobytes: 2048)
    let first = """
            - path: "{stem}.png"
              encode: {format: png}
      """
    let job = try writeJob(first)
    XCTAssertEqual(try run(job).result.exitCode, 0)
    let before = try treeContents(root)
    XCTAssertEqual(Manifest.loadAll(root: root).count, 4)
    let grown = try writeJob(first + "\n      - path: \"big/{stem}.jpg\"")
    // Fill the disk to the last block.
    let filler = root + "/filler"
    XCTAssertNotEqual(Self.shell("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4k"]), -1)
    let full = try run(grown)
    XCTAssertEqual(full.result.exitCode, 1, full.result.combined)
    XCTAssertFalse(full.failures.isEmpty, full.result.combined)
    for (path, reason) in full.failures {
      XCTAssertTrue(reason.contains("No space left on device"), "\(path): \(reason)")
    }
    XCTAssertTrue(full.failures.values.contains { $0.contains("errno 28") }, full.result.combined)
    // Earlier outputs: still recorded, still the same bytes.
    let recorded = Manifest.loadAll(root: root)
    for (path, bytes) in before where path.hasSuffix(".png") {
      XCTAssertEqual(recorded[path]?.sha256, SHA256.hex([UInt8](bytes)), path)
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)), bytes, path)
    }
    unlink(filler)
    try assertNothingPartial(root)
    let again = try run(grown)
    XCTAssertEqual(again.result.exitCode, 0, again.result.combined)
    XCTAssertTrue(again.written.allSatisfy { $0.hasPrefix("big/") }, again.result.combined)
    XCTAssertEqual(Manifest.loadAll(root: root).count, 8)
  }
}
