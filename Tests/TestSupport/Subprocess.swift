import Dispatch
import Foundation

/// Runs another program to completion and collects what it prints: the test oracles
/// (Python with Pillow and numpy), libvips' and exiftool's command lines, the built `cropjob`.
public enum Subprocess {
  public struct Result: Sendable {
    public var status: Int32
    public var stdoutData: Data
    public var stderrData: Data
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    public var stderr: String { String(decoding: stderrData, as: UTF8.self) }
  }

  /// Runs `executable` with `arguments` and waits. `environment` entries are added to this
  /// process's environment, after the `unset` ones were removed from it; `input` is written
  /// to its standard input. Both outputs are read at once, so a chatty program cannot block
  /// on a full pipe.
  public static func run(
    _ executable: String, _ arguments: [String], cwd: URL? = nil, environment: [String: String] = [:],
    unset: [String] = [], input: Data? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let cwd { process.currentDirectoryURL = cwd }
    if !environment.isEmpty || !unset.isEmpty {
      var inherited = ProcessInfo.processInfo.environment
      for key in unset { inherited[key] = nil }
      process.environment = inherited.merging(environment) { _, new in new }
    }
    let out = Pipe()
    let err = Pipe()
    let stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    let collected = Collected()
    let group = DispatchGroup()
    for (pipe, isOut) in [(out, true), (err, false)] {
      group.enter()
      DispatchQueue.global().async {
        collected.set(pipe.fileHandleForReading.readDataToEndOfFile(), stdout: isOut)
        group.leave()
      }
    }
    if let input {
      stdin.fileHandleForWriting.write(input)
      try? stdin.fileHandleForWriting.close()
    }
    group.wait()
    process.waitUntilExit()
    return Result(status: process.terminationStatus, stdoutData: collected.stdout, stderrData: collected.stderr)
  }

  /// Whether `executable` exists and exits 0 with `arguments` (e.g. `python3 -c "import PIL"`).
  public static func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: executable) else { return false }
    return (try? run(executable, arguments))?.status == 0
  }

  private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    func set(_ data: Data, stdout: Bool) {
      lock.lock()
      if stdout { out = data } else { err = data }
      lock.unlock()
    }
    var stdout: Data { lock.withLock { out } }
    var stderr: Data { lock.withLock { err } }
  }
}
