import XCTest

/// The CLI conventions: help and version on stdout with exit 0, usage errors on stderr with
/// exit 64, runtime failures exit 1, an invalid job file exits 2 for `run`.
final class HelpVersionExitCodeTests: XCTestCase {
  func testHelpListsCommandsInFixedOrder() throws {
    let result = try CLIRunner.run(["--help"])
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.stderr.isEmpty)
    let order = ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "EXIT CODES:"].map {
      result.stdout.range(of: $0)?.lowerBound
    }
    XCTAssertFalse(order.contains(nil), result.stdout)
    XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted())
    for command in ["run", "plan", "validate", "formats"] {
      XCTAssertTrue(result.stdout.contains("\n  \(command) "), "missing \(command) in\n\(result.stdout)")
    }
    XCTAssertEqual(try CLIRunner.run(["-h"]).stdout, result.stdout)
    XCTAssertEqual(try CLIRunner.run(["help"]).stdout, result.stdout)
  }

  func testHelpRunShowsItsOptions() throws {
    let result = try CLIRunner.run(["help", "run"])
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.stdout.hasPrefix("OVERVIEW: "))
    for option in ["--jobs", "--dry-run", "--force", "--shard", "EXIT CODES:"] {
      XCTAssertTrue(result.stdout.contains(option), option)
    }
    XCTAssertEqual(try CLIRunner.run(["run", "--help"]).stdout, result.stdout)
  }

  func testVersionPrintsCropjobLibvipsAndTheFaceDetector() throws {
    let result = try CLIRunner.run(["--version"])
    XCTAssertEqual(result.status, 0)
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 3)
    XCTAssertTrue(lines[0].hasPrefix("cropjob "))
    XCTAssertNotNil(lines[1].range(of: #"^libvips \d+\.\d+\.\d+"#, options: .regularExpression), String(lines[1]))
    XCTAssertEqual(
      lines[2],
      "faces yunet libfacedetection 0.0.3 (yuface 2023.5.1), "
        + "/usr/local/lib/cropjob/yuface-2023.5.1/yuface/libfacedetection.so")
  }

  func testUsageErrorsExit64WithUsageOnStderr() throws {
    for arguments in [
      [], ["frobnicate"], ["run"], ["run", "a.yaml", "b.yaml"], ["run", "--jobs", "zero", "x.yaml"],
      ["plan", "--format", "xml", "x.yaml"], ["run", "--bogus", "x.yaml"], ["help", "nothing"],
      ["run", "--shard", "4/4", "x.yaml"],
    ] {
      let result = try CLIRunner.run(arguments)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("Usage: "), "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stdout.isEmpty)
    }
  }

  func testSuggestsCloseCommandsAndOptions() throws {
    XCTAssertTrue(try CLIRunner.run(["rnu"]).stderr.contains("did you mean \"run\""))
    XCTAssertTrue(try CLIRunner.run(["run", "--forse", "x.yaml"]).stderr.contains("did you mean --force"))
  }

  func testMissingJobFileIsAClearErrorNamingThePath() throws {
    let run = try CLIRunner.run(["run", "no/such/job.yaml"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.contains("no/such/job.yaml"), run.stderr)
    XCTAssertTrue(run.stderr.contains("no such job file"), run.stderr)
    let plan = try CLIRunner.run(["plan", "no/such/job.yaml"])
    XCTAssertEqual(plan.status, 2)
    let validate = try CLIRunner.run(["validate", "no/such/job.yaml"])
    XCTAssertEqual(validate.status, 2)
    XCTAssertTrue(validate.stdout.contains("no/such/job.yaml"), validate.stdout)
  }

  func testFolderAsJobFileIsRefused() throws {
    let run = try CLIRunner.run(["run", "jobs"])
    XCTAssertEqual(run.status, 2)
    XCTAssertTrue(run.stderr.contains("jobs:0:0: error: is a folder"), run.stderr)
  }

  func testSampleJobsAreValid() throws {
    let result = try CLIRunner.run(["validate", "jobs/avatars.yaml", "jobs/thumbnails.yaml"])
    XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
  }

  func testFormatsListsJpegAndPng() throws {
    let result = try CLIRunner.run(["formats"])
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.stdout.contains("write: jpeg png"), result.stdout)
  }
}
