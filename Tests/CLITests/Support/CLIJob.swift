import Foundation
import TestSupport
import XCTest

/// A scratch folder for end-to-end runs of the built binary: job files, copies of samples,
/// output roots; and the runs themselves, with the batch engines' variables under control.
struct CLIJob {
  let folder: URL

  init(_ name: String = #function) {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cropjob-cli-\(getpid())-\(safe)-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

  func remove() { try? FileManager.default.removeItem(at: folder) }

  /// Copies samples into `folder/<into>` (each `copies` times, prefixed `1-`, `2-`... when
  /// more than one).
  func copySamples(_ names: [String]? = nil, into: String = "photos", copies: Int = 1) throws {
    let samples = TestPaths.repoRoot.appendingPathComponent("samples")
    let all =
      try names
      ?? FileManager.default.contentsOfDirectory(atPath: samples.path).filter {
        $0.hasSuffix(".jpg") || $0.hasSuffix(".png")
      }
    let target = folder.appendingPathComponent(into)
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    for copy in 1...copies {
      for name in all {
        let destination = target.appendingPathComponent(copies == 1 ? name : "\(copy)-\(name)")
        try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: destination)
      }
    }
  }

  func write(_ text: String, to relative: String = "job.yaml") throws {
    try text.write(toFile: path(relative), atomically: true, encoding: .utf8)
  }

  /// Variables through which batch engines give a shard; never inherited by the runs.
  static let shardVariables = [
    "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE",
    "CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT", "BATCH_TASK_INDEX", "BATCH_TASK_COUNT",
  ]

  static func environment(_ extra: [String: String]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for key in shardVariables { env[key] = nil }
    for (k, v) in extra { env[k] = v }
    return env
  }

  /// Runs `cropjob` in `folder` (or `cwd`) and waits.
  func run(_ arguments: [String], cwd: URL? = nil, environment: [String: String] = [:]) throws -> CLIRunner.Result {
    try Subprocess.run(
      CLIRunner.binary.path, arguments, cwd: cwd ?? folder, environment: environment, unset: Self.shardVariables)
  }

  /// Every regular file below `relative` (path → bytes).
  func tree(_ relative: String) throws -> [String: Data] { try treeContents(path(relative)) }

  /// Runs `job.yaml` (`-q -j2`) with the environment variable `variable` (or, for a name
  /// starting with `--`, the option) set to `direct` and then to `other`, into the output
  /// folders `direct` and `vips`, and returns the files of each whose names end in one of
  /// `extensions` (path → bytes). A run that fails fails the test.
  func runBothWays(
    _ variable: String, direct: String, other: String, extensions: [String], file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> (direct: [String: Data], vips: [String: Data]) {
    var trees: [[String: Data]] = []
    for (name, value) in [("direct", direct), ("vips", other)] {
      let option = variable.hasPrefix("--")
      let result = try run(
        ["run", "job.yaml", "--output", path(name), "-q", "-j2"] + (option ? [variable, value] : []),
        environment: option ? [:] : [variable: value])
      XCTAssertEqual(result.status, 0, "\(variable)=\(value): \(result.stderr)", file: file, line: line)
      trees.append(try tree(name).filter { entry in extensions.contains { entry.key.hasSuffix($0) } })
    }
    return (trees[0], trees[1])
  }

  /// The NDJSON events of a `--json` run; fails on any line that is not a JSON object.
  static func events(_ stdout: String, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
    stdout.split(separator: "\n").compactMap { text in
      guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        object["event"] is String
      else {
        XCTFail("not an NDJSON event: \(text)", file: file, line: line)
        return nil
      }
      return object
    }
  }
}

final class LockedData: @unchecked Sendable {
  private var data = Data()
  private let lock = NSLock()
  func set(_ value: Data) {
    lock.lock()
    data = value
    lock.unlock()
  }
  func get() -> Data {
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}
