import Foundation
import TestSupport
import XCTest

/// `cropjob validate` end to end: whole outputs in each format, exit codes 0/1/64, `--strict`.
/// And `cropjob schema`.
final class ValidateCommandTests: XCTestCase {
  let fixtures = "Tests/Fixtures"

  func testValidFilesExitZero() throws {
    let result = try CLIRunner.run(["validate", "jobs/avatars.yaml", "jobs/thumbnails.yaml"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "jobs/avatars.yaml: valid\njobs/thumbnails.yaml: valid\n")
    XCTAssertEqual(result.stderr, "")
  }

  func testThreeBrokenFilesInText() throws {
    let files = ["cycle", "unknown-key", "bad-colour"].map { "\(fixtures)/invalid/\($0).yaml" }
    let result = try CLIRunner.run(["validate"] + files)
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stdout,
      """
      \(files[0]):9:11: error: jobs.a.from: expected a from chain that ends at a job with sources but received the cycle a → c → b → a
      \(files[0]):15:11: error: jobs.d.from: expected a from chain that ends at a job with sources but received the cycle d → d
      \(files[1]):5:3: error: jobs.avatar.guide: expected a guide (the crop frame: shape and size) but received no "guide"
      \(files[1]):7:5: error: jobs.avatar.gude: expected one of the keys sources, exclude, from, allow_empty, guide, place, outputs, encode, metadata, placeholders, index but received the unknown key "gude"; did you mean "guide"?
      \(files[2]):8:39: error: jobs.a.place.background: expected a colour: "#rrggbb", "#rrggbbaa", "#rgb", black, gray, grey, transparent, white or [r, g, b(, a)] but received the string "#ffff0"
      \(files[2]):13:45: error: jobs.b.place.background[1]: expected an integer between 0 and 255 but received the number 300
      \(files[2]):18:39: error: jobs.c.place.background: expected a colour: "#rrggbb", "#rrggbbaa", "#rgb", black, gray, grey, transparent, white or [r, g, b(, a)] but received the string "whte"; did you mean "white"?
      \(files[0]): invalid (2 errors)
      \(files[1]): invalid (2 errors)
      \(files[2]): invalid (3 errors)

      """)
  }

  /// A crop table's bad cells are located in the table, next to the job file's verdict.
  func testCropTableErrorsAreLocatedInTheTable() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-validate-table-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try """
    version: 1
    output: out
    jobs: {a: {sources: "*.jpg", guide: {size: 100}, outputs: [{path: "{stem}.jpg"}]}}
    overrides_from: crops.csv

    """.write(to: folder.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
    try "source,x,y,width,height\na.jpg,1,2,-3,4\nb.jpg,1,2,3,x\n".write(
      to: folder.appendingPathComponent("crops.csv"), atomically: true, encoding: .utf8)
    let result = try CLIRunner.run(["validate", "job.yaml"], cwd: folder)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertEqual(
      result.stdout,
      """
      crops.csv:2:11: error: width: expected a number between 1 and 1000000 but received the number -3
      crops.csv:3:13: error: height: expected a number between 1 and 1000000 but received the string "x"
      job.yaml: invalid (2 errors)

      """)
  }

  func testValidAndInvalidTogetherFail() throws {
    let bad = "\(fixtures)/invalid/range.yaml"
    let result = try CLIRunner.run(["validate", "jobs/avatars.yaml", bad])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stdout,
      """
      \(bad):5:21: error: defaults.encode.quality: expected an integer between 1 and 100 but received the number 120
      jobs/avatars.yaml: valid
      \(bad): invalid (1 error)

      """)
  }

  func testGitHubAnnotations() throws {
    let bad = "\(fixtures)/invalid/from-missing.yaml"
    let warned = "\(fixtures)/warnings/settings-without-effect.yaml"
    let result = try CLIRunner.run(["validate", "--format", "github", bad, warned, "no/such,file.yaml"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stdout,
      """
      ::error file=\(bad),line=10,col=11::jobs.small.from: expected the name of another job (avatar) but received "avtar"; did you mean "avatar"?
      ::warning file=\(warned),line=10,col=31::jobs.icons.outputs[0].encode.progressive: expected a setting that png output uses but received progressive, which applies to jpeg
      ::warning file=\(warned),line=11,col=15::jobs.icons.outputs[1].path: expected the extension of a format cropjob writes (avif, gif, heic, heif, jpeg, jpg, jxl, png, tif, tiff, webp) but received .jpgg; writing jpeg; did you mean "jpeg"?
      ::error file=no/such%2Cfile.yaml::no such job file

      """)
    let clean = try CLIRunner.run(["validate", "--format=github", "jobs/avatars.yaml"])
    XCTAssertEqual(clean.status, 0)
    XCTAssertEqual(clean.stdout, "")
  }

  func testJSONReportsEveryFile() throws {
    let bad = "\(fixtures)/invalid/cycle.yaml"
    let result = try CLIRunner.run(["validate", "--format", "json", "jobs/avatars.yaml", bad])
    XCTAssertEqual(result.status, 2)
    let reports = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    XCTAssertEqual(reports.count, 2)
    XCTAssertEqual(reports[0]["file"] as? String, "jobs/avatars.yaml")
    XCTAssertEqual(reports[0]["valid"] as? Bool, true)
    XCTAssertEqual(reports[0]["errors"] as? Int, 0)
    XCTAssertEqual((reports[0]["diagnostics"] as? [Any])?.count, 0)
    XCTAssertEqual(reports[1]["file"] as? String, bad)
    XCTAssertEqual(reports[1]["valid"] as? Bool, false)
    XCTAssertEqual(reports[1]["errors"] as? Int, 2)
    XCTAssertEqual(reports[1]["warnings"] as? Int, 0)
    let first = try XCTUnwrap((reports[1]["diagnostics"] as? [[String: Any]])?.first)
    XCTAssertEqual(first["file"] as? String, bad)
    XCTAssertEqual(first["line"] as? Int, 9)
    XCTAssertEqual(first["column"] as? Int, 11)
    XCTAssertEqual(first["severity"] as? String, "error")
    XCTAssertEqual(first["field"] as? String, "jobs.a.from")
    XCTAssertEqual(
      first["message"] as? String,
      "expected a from chain that ends at a job with sources but received the cycle a → c → b → a")
  }

  func testStrictTurnsWarningsIntoFailure() throws {
    let warned = "\(fixtures)/warnings/settings-without-effect.yaml"
    let lenient = try CLIRunner.run(["validate", warned])
    XCTAssertEqual(lenient.status, 0)
    XCTAssertTrue(lenient.stdout.hasSuffix("\(warned): valid (2 warnings)\n"), lenient.stdout)
    XCTAssertTrue(lenient.stdout.hasPrefix("\(warned):10:31: warning: jobs.icons.outputs[0].encode.progressive: "))
    let strict = try CLIRunner.run(["validate", "--strict", warned])
    XCTAssertEqual(strict.status, 2)
    XCTAssertTrue(strict.stdout.hasSuffix("\(warned): invalid (2 warnings, --strict)\n"), strict.stdout)
    let json = try CLIRunner.run(["validate", "--strict", "--format", "json", warned])
    XCTAssertEqual(json.status, 2)
    XCTAssertTrue(json.stdout.contains("\"valid\" : false"), json.stdout)
    XCTAssertEqual(try CLIRunner.run(["validate", "--strict", "jobs/avatars.yaml"]).status, 0)
  }

  func testMissingFileAndYAMLErrors() throws {
    let result = try CLIRunner.run(["validate", "no/such.yaml", "jobs"])
    XCTAssertEqual(result.status, 2)
    XCTAssertEqual(
      result.stdout,
      """
      no/such.yaml:0:0: error: no such job file
      jobs:0:0: error: is a folder; expected a YAML job file
      no/such.yaml: invalid (1 error)
      jobs: invalid (1 error)

      """)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-validate-\(getpid()).yaml")
    defer { try? FileManager.default.removeItem(at: scratch) }
    try "version: 1\noutput: out\noutput: again\n".write(to: scratch, atomically: true, encoding: .utf8)
    let duplicate = try CLIRunner.run(["validate", scratch.path])
    XCTAssertEqual(duplicate.status, 2)
    XCTAssertEqual(
      duplicate.stdout,
      "\(scratch.path):3:1: error: duplicate key \"output\" (first at 2:1)\n\(scratch.path): invalid (1 error)\n")
  }

  func testUsageErrorsExit64() throws {
    for arguments in [
      ["validate"], ["validate", "--format", "xml", "jobs/avatars.yaml"], ["validate", "--bogus", "jobs/avatars.yaml"],
      ["validate", "--format"], ["validate", "--strict=yes", "jobs/avatars.yaml"],
    ] {
      let result = try CLIRunner.run(arguments)
      XCTAssertEqual(result.status, 64, "\(arguments)")
      XCTAssertTrue(result.stderr.hasPrefix("Error: "), result.stderr)
      XCTAssertTrue(result.stderr.contains("Usage: cropjob validate"), result.stderr)
      XCTAssertEqual(result.stdout, "")
    }
  }

  func testHelp() throws {
    let result = try CLIRunner.run(["validate", "--help"])
    XCTAssertEqual(result.status, 0)
    for text in [
      "--format <format>", "--strict", "EXIT CODES:\n  0    every file is valid", "  2    a file is missing",
      "  64   usage error",
    ] {
      XCTAssertTrue(result.stdout.contains(text), text)
    }
  }

  // MARK: - schema

  /// The schema is built from dictionaries and sets in places: its text must not follow
  /// their order, which changes from one process to the next.
  func testSchemaIsTheSameInEveryProcess() throws {
    let printed = try CLIRunner.stdoutOfSeparateProcesses(["schema"])
    XCTAssertGreaterThan(printed[0].count, 1000)
    XCTAssertEqual(Set(printed).count, 1, "cropjob schema printed \(Set(printed).count) different texts")
  }

  func testSchemaPrintsTheCommittedSchema() throws {
    let result = try CLIRunner.run(["schema"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stderr, "")
    let committed = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/job-file.schema.json"), encoding: .utf8)
    XCTAssertEqual(result.stdout, committed)
    let schema = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(schema["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
    XCTAssertTrue(try CLIRunner.run(["--help"]).stdout.contains("\n  schema "))
    let usage = try CLIRunner.run(["schema", "extra"])
    XCTAssertEqual(usage.status, 64)
    XCTAssertTrue(usage.stderr.contains("Usage: cropjob schema"), usage.stderr)
  }
}
