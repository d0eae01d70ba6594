import Foundation
import TestSupport
import XCTest

/// "A second signal ends the process at once" (README, SIGINT/SIGTERM): the first SIGINT is
/// sent once the run says it decoded its photo (`--json`'s `decoded` event: an output of
/// several seconds' encoding is then in flight), the next ones right after; the process must be
/// ended by the signal, not exit 130 after finishing the output, and leave no partial file.
final class SecondSignalTests: XCTestCase {
  func testASecondSIGINTEndsTheRunAtOnce() throws {
    let s = CLIJob()
    defer { s.remove() }
    try FileManager.default.createDirectory(atPath: s.path("photos"), withIntermediateDirectories: true)
    let made = try Subprocess.run(
      "/usr/bin/vips", ["resize", TestPaths.sample("mountains.jpg"), s.path("photos/big.jpg"), "3"])
    XCTAssertEqual(made.status, 0, made.stderr)
    // A 4800 px PNG at zlib level 9 with every filter tried: seconds of encoding.
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/big.jpg"]
          guide: {width: 4800, height: 3600}
          outputs: [{path: "{stem}.png", encode: {format: png, compression: 9}}]
      """)
    let stdout = s.path("stdout.txt")
    XCTAssertTrue(FileManager.default.createFile(atPath: stdout, contents: nil))
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["run", "job.yaml", "--json"]
    process.currentDirectoryURL = s.folder
    process.environment = CLIJob.environment(["SWIFT_BACKTRACE": "enable=no"])
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
    process.standardError = FileHandle.nullDevice
    try process.run()
    let started = Date()
    func decoded() -> Bool {
      ((try? String(contentsOfFile: stdout, encoding: .utf8)) ?? "").contains("\"event\":\"decoded\"")
    }
    while process.isRunning && !decoded() && Date().timeIntervalSince(started) < 60 { usleep(2_000) }
    XCTAssertTrue(process.isRunning, "the run ended before the photo was decoded")
    // The event is reported just before the output's encoding starts: a first signal handled
    // before the worker passes its last check abandons the output (exit 130, nothing in flight,
    // which a loaded machine made happen). 0.3 s in, the several seconds of encoding are under way.
    usleep(300_000)
    // Two signals sent close together can reach a process that is not running as one (POSIX
    // keeps one pending signal of a kind): the first is sent, then another every 50 ms until the
    // process ends (at most 100), so that one arrives after the first was handled whatever the load.
    kill(process.processIdentifier, SIGINT)
    let signalled = Date()
    var sent = 1
    while process.isRunning && sent < 100 {
      usleep(50_000)
      if process.isRunning { kill(process.processIdentifier, SIGINT) }
      sent += 1
    }
    process.waitUntilExit()
    let took = Date().timeIntervalSince(signalled)
    XCTAssertEqual(process.terminationReason, .uncaughtSignal, "exited \(process.terminationStatus) instead")
    XCTAssertEqual(process.terminationStatus, SIGINT)
    print("second SIGINT: ended by the signal \(took) s after it")
    let left = (try? FileManager.default.contentsOfDirectory(atPath: s.path("out"))) ?? []
    XCTAssertFalse(left.contains("big.png"), "the output was finished after the second signal")
    XCTAssertTrue(left.allSatisfy { $0.hasPrefix(".") }, "files left: \(left)")
  }
}
