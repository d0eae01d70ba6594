import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `cropjob` with a deadline (killed with SIGKILL after it), optionally through
/// a wrapper (`setpriv` to drop root, `/usr/bin/time` to measure memory), and says how long
/// it took. For the reliability tests, where a hang is a failure and not a stuck test run.
enum TimedRunner {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    var timedOut: Bool
    /// `status` when the process exited, nil when a signal ended it.
    var exitCode: Int32? { signalled ? nil : status }
    var signalled: Bool
    var combined: String { stdout + stderr }
  }

  static func run(
    _ arguments: [String], cwd: URL? = nil, timeout: Double = 60, wrapper: [String] = [],
    environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    if wrapper.isEmpty {
      process.executableURL = CLIRunner.binary
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: wrapper[0])
      process.arguments = Array(wrapper.dropFirst()) + [CLIRunner.binary.path] + arguments
    }
    process.currentDirectoryURL = cwd ?? TestPaths.repoRoot
    var env = ProcessInfo.processInfo.environment
    env["SWIFT_BACKTRACE"] = "enable=no"
    for (k, v) in environment { env[k] = v }
    process.environment = env
    // Files, not pipes: a killed process cannot leave the reader waiting.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-timed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outURL = folder.appendingPathComponent("out")
    let errURL = folder.appendingPathComponent("err")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    let started = Date()
    try process.run()
    var timedOut = false
    while process.isRunning {
      if Date().timeIntervalSince(started) > timeout {
        timedOut = true
        kill(process.processIdentifier, SIGKILL)
        break
      }
      usleep(5_000)
    }
    process.waitUntilExit()
    try? out.close()
    try? err.close()
    return Result(
      status: process.terminationStatus,
      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
      seconds: Date().timeIntervalSince(started), timedOut: timedOut,
      signalled: process.terminationReason == .uncaughtSignal)
  }

  /// A wrapper that runs cropjob as `nobody` (root ignores file modes), when this system
  /// has setpriv and we are root; nil otherwise.
  static var asNobody: [String]? {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      let nobody = getpwnam("nobody")
    else { return nil }
    return [
      "/usr/bin/setpriv", "--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)", "--clear-groups",
      "--",
    ]
  }

  /// The last JSON object cropjob --json printed with `"event":"finished"`.
  static func finished(_ stdout: String) -> [String: Any]? {
    for line in stdout.split(separator: "\n").reversed() {
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["event"] as? String == "finished"
      else { continue }
      return object
    }
    return nil
  }

  /// A folder everyone may write to (for runs as `nobody`), removed by the caller.
  static func openFolder(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = URL(fileURLWithPath: "/tmp").appendingPathComponent(
      "cropjob-rel-\(getpid())-\(safe)-\(UUID().uuidString.prefix(6))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    chmod(url.path, 0o777)
    return url
  }
}
