import Foundation
import TestSupport
import XCTest

@testable import cropjob

/// scripts/install.sh puts cropjob, the man page and the shell completions under a prefix, and
/// the installed copy finds its face detector (installed by install-deps.sh); the completions
/// and the man page come from the argument tables (bash, groff and man read them).
final class InstallTests: XCTestCase {
  func testInstallUnderAPrefixFindsTheDetectorAndShipsManAndCompletions() throws {
    let s = CLIJob()
    defer { s.remove() }
    let prefix = s.path("prefix with space")
    let script = TestPaths.repoRoot.appendingPathComponent("scripts/install.sh").path
    let installed = try Subprocess.run(
      "/bin/bash", [script, "--prefix", prefix, "--build-dir", CLIRunner.binary.deletingLastPathComponent().path])
    XCTAssertEqual(installed.status, 0, installed.stderr)
    for file in [
      "bin/cropjob", "lib/cropjob/cropjob", "share/man/man1/cropjob.1", "share/bash-completion/completions/cropjob",
      "share/zsh/site-functions/_cropjob", "share/fish/vendor_completions.d/cropjob.fish",
    ] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), file)
    }
    // Run from elsewhere through the link: the detector's library is found at its fixed place.
    let version = try Subprocess.run("\(prefix)/bin/cropjob", ["--version"], cwd: URL(fileURLWithPath: "/"))
    XCTAssertEqual(version.status, 0, version.stderr)
    let faces = version.stdout.split(separator: "\n").first { $0.hasPrefix("faces ") } ?? ""
    XCTAssertFalse(faces.isEmpty || faces.contains("unavailable"), version.stdout)

    // bash completes commands, options and an option's choices with the installed script.
    let completion = "\(prefix)/share/bash-completion/completions/cropjob"
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let result = try Subprocess.run(
        "/bin/bash",
        [
          "-c",
          "source '\(completion)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _cropjob; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\"",
        ], cwd: s.folder)
      XCTAssertEqual(result.status, 0, result.stderr)
      return result.stdout.split(separator: "\n").map(String.init)
    }
    XCTAssertEqual(try complete(["cropjob", "va"]), ["validate"])
    XCTAssertEqual(try complete(["cropjob", "plan", "--form"]), ["--format"])
    XCTAssertEqual(try complete(["cropjob", "plan", "--format", ""]), ["text", "json", "dot"])
    XCTAssertEqual(try complete(["cropjob", "completions", "z"]), ["zsh"])
    try "version: 1\n".write(toFile: s.path("nightly.yaml"), atomically: true, encoding: .utf8)
    try "x".write(toFile: s.path("notes.txt"), atomically: true, encoding: .utf8)
    XCTAssertEqual(try complete(["cropjob", "run", "n"]), ["nightly.yaml"])

    // The man page renders, and lists every command and every option of `run`.
    let page = try Subprocess.run(
      "/usr/bin/groff", ["-man", "-Tascii", "-P", "-cbu", "\(prefix)/share/man/man1/cropjob.1"])
    XCTAssertEqual(page.status, 0, page.stderr)
    for command in CLI.commands.map({ $0.configuration.name }) {
      XCTAssertTrue(page.stdout.contains("   \(command)\n"), command)
    }
    for option in ["--jobs", "--dry-run", "--prune", "--rebuild-state", "--shard-count", "--max-pixels"] {
      XCTAssertTrue(page.stdout.contains(option), option)
    }
  }
}
