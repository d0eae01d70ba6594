import CropKit
import Foundation
import XCTest

@testable import cropjob

/// Each command's argument table is the one declaration of its options: the parser accepts
/// exactly what the table declares and stores it in the typed value, the help text and the
/// usage line are generated from it, the limit options take their names, ranges and defaults
/// from `JobSchema.limits`, and one suggester answers typos in commands, options and values.
final class ArgumentTableTests: XCTestCase {
  func testEveryDeclaredOptionIsInHelpAndUsageAndIsParsedIntoTheTypedValue() throws {
    for command in CLI.commands { try checkTable(of: command) }
  }

  func checkTable<Command: ParsableCommand>(of command: Command.Type) throws {
    let name = Command.configuration.name
    let options = Command.arguments.flatMap(\.options)
    let names = options.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) } + HelpOption.names
    XCTAssertEqual(Set(names).count, names.count, "\(name): an option name is declared twice")
    let positionals = Command.arguments.flatMap(\.positionals).isEmpty ? [] : ["job.yaml"]
    let untouched = String(describing: Command())
    // The usage line shows exactly the options marked for it.
    let inUsage = try NSRegularExpression(pattern: "--[a-z-]+").matches(
      in: Command.usage, range: NSRange(Command.usage.startIndex..., in: Command.usage)
    ).map { String(Command.usage[Range($0.range, in: Command.usage)!]) }
    XCTAssertEqual(Set(inUsage), Set(options.filter(\.inUsage).map(\.long)), Command.usage)
    XCTAssertTrue(Command.usage.hasPrefix("cropjob \(name)"), Command.usage)
    for option in options {
      XCTAssertTrue(Command.help.contains("\n  \(option.label)  "), "\(name) help lacks \(option.label)")
      if option.inUsage { XCTAssertTrue(Command.usage.contains(option.synopsis), option.synopsis) }
      // Every spelling is accepted, and at least one accepted value changes the typed value.
      var spellings = [[option.long]] + (option.short.map { [[$0]] } ?? [])
      if !option.isFlag { spellings = spellings.flatMap { spelling in option.examples.map { spelling + [$0] } } }
      spellings += option.examples.map { ["\(option.long)=\($0)"] }
      var parsedValues: Set<String> = []
      for spelling in spellings {
        let parsed = try CommandLineParser.parse(
          positionals + spelling, into: Command(), table: Command.arguments, command: name)
        parsedValues.insert(String(describing: parsed))
      }
      XCTAssertFalse(parsedValues.subtracting([untouched]).isEmpty, "\(name) \(option.long) changes nothing")
      if option.isFlag {
        XCTAssertThrowsError(
          try CommandLineParser.parse(
            positionals + ["\(option.long)=x"], into: Command(), table: Command.arguments, command: name)
        ) { error in
          XCTAssertEqual((error as? UsageError)?.message, "\(option.long) takes no value", "\(name)")
        }
      }
    }
  }

  func testTheBinaryPrintsTheGeneratedHelpAndUsage() throws {
    for command in CLI.commands {
      let name = command.configuration.name
      XCTAssertEqual(try CLIRunner.run(["help", name]).stdout, command.help + "\n")
      let mistake = try CLIRunner.run([name, "--no-such-option"])
      XCTAssertEqual(mistake.status, 64)
      XCTAssertTrue(mistake.stderr.contains("Usage: \(command.usage)\n"), mistake.stderr)
    }
  }

  /// The limit options are the keys of `limits` in the job file, with the schema's range
  /// and default: changing the schema changes the command line.
  func testLimitOptionsComeFromTheSchemaTable() throws {
    XCTAssertFalse(JobSchema.limits.fields.isEmpty)
    for command: any ParsableCommand.Type in [RunCommand.self, PlanCommand.self, PreviewCommand.self] {
      try checkLimits(of: command)
    }
  }

  func checkLimits<Command: ParsableCommand>(of command: Command.Type) throws {
    let options = Command.arguments.flatMap(\.options)
    for field in JobSchema.limits.fields {
      guard case .integer(let range) = field.type, case .int(let defaultValue) = field.defaultValue else {
        return XCTFail("limits.\(field.name) is not an integer with a default")
      }
      let long = "--" + field.name.replacing("_", with: "-")
      let option = try XCTUnwrap(options.first { $0.long == long }, "\(Command.configuration.name) lacks \(long)")
      XCTAssertTrue(option.help.contains("(default \(defaultValue))"), option.help)
      func parse(_ value: Int) throws -> Command {
        try CommandLineParser.parse(
          ["job.yaml", long, String(value)], into: Command(), table: Command.arguments, command: "test")
      }
      XCTAssertNoThrow(try parse(range.lowerBound))
      XCTAssertNoThrow(try parse(range.upperBound))
      XCTAssertThrowsError(try parse(range.lowerBound - 1)) { error in
        XCTAssertEqual(
          (error as? UsageError)?.message,
          "\(long) expects an integer between \(range.lowerBound) and \(range.upperBound), got \"\(range.lowerBound - 1)\""
        )
      }
      XCTAssertThrowsError(try parse(range.upperBound + 1)) { error in
        XCTAssertEqual(
          (error as? UsageError)?.message,
          "\(long) expects an integer between \(range.lowerBound) and \(range.upperBound), got \"\(range.upperBound + 1)\""
        )
      }
    }
  }

  func testCommandLineLimitsOverrideTheJobFilesOnly() throws {
    let parsed = try CommandLineParser.parse(
      ["--max-pages", "7"], into: PlanningOptions(), table: PlanningOptions.arguments, command: "test")
    var fromFile = InputLimits()
    fromFile.maxPixels = 100
    let limits = parsed.limits.applied(to: fromFile)
    XCTAssertEqual(limits.maxPages, 7)
    XCTAssertEqual(limits.maxPixels, 100)
    XCTAssertEqual(limits.maxFileBytes, InputLimits().maxFileBytes)
  }

  /// A near miss of any choice in any table is answered with that choice.
  func testValueTyposGetASuggestion() throws {
    for command in CLI.commands { try checkValueTypos(of: command) }
    let cli = try CLIRunner.run(["plan", "--format", "jsno", "jobs/avatars.yaml"])
    XCTAssertEqual(cli.status, 64)
    XCTAssertTrue(
      cli.stderr.hasPrefix("Error: --format expects one of text, json, dot, got \"jsno\"; did you mean \"json\"?\n"),
      cli.stderr)
  }

  /// Integer options outside their range are usage errors (exit 64) naming the range:
  /// `--jobs` takes 1 to 1024 (0 workers would run nothing).
  func testIntegersOutsideTheirRangeAreRefused() throws {
    for value in ["0", "1025", "-1"] {
      let cli = try CLIRunner.run(["run", "jobs/avatars.yaml", "--dry-run", "--jobs", value])
      XCTAssertEqual(cli.status, 64, "--jobs \(value): \(cli.stderr)")
      XCTAssertTrue(
        cli.stderr.hasPrefix("Error: --jobs expects an integer between 1 and 1024, got \"\(value)\""),
        "--jobs \(value): \(cli.stderr)")
    }
    let edge = try CLIRunner.run(["run", "jobs/avatars.yaml", "--dry-run", "-j", "1"])
    XCTAssertNotEqual(edge.status, 64, edge.stderr)
  }

  func checkValueTypos<Command: ParsableCommand>(of command: Command.Type) throws {
    for option in Command.arguments.flatMap(\.options) {
      for choice in option.choices ?? [] where choice.count >= 3 {
        var letters = Array(choice)
        letters.swapAt(1, 2)
        let typo = String(letters)
        guard typo != choice else { continue }
        XCTAssertThrowsError(
          try CommandLineParser.parse(
            ["job.yaml", option.long, typo], into: Command(), table: Command.arguments, command: "test")
        ) { error in
          XCTAssertTrue(
            (error as? UsageError)?.message.hasSuffix("; did you mean \"\(choice)\"?") ?? false, "\(typo): \(error)")
        }
      }
    }
  }

  func testCommandAndOptionTyposGetASuggestionFromTheSameSuggester() throws {
    XCTAssertTrue(try CLIRunner.run(["rnu"]).stderr.hasPrefix("Error: unknown command \"rnu\"; did you mean \"run\"?"))
    XCTAssertTrue(try CLIRunner.run(["help", "valdiate"]).stderr.contains("did you mean \"validate\"?"))
    XCTAssertTrue(try CLIRunner.run(["--verison"]).stderr.contains("unknown option --verison; did you mean --version?"))
    XCTAssertTrue(
      try CLIRunner.run(["validate", "--strct", "x.yaml"]).stderr.contains(
        "unknown option --strct; did you mean --strict?"))
    // Far from every option: no suggestion rather than a wild one.
    XCTAssertTrue(try CLIRunner.run(["run", "--bogus", "x.yaml"]).stderr.hasPrefix("Error: unknown option --bogus\n"))
  }

  func testExclusiveOptionsAreRefusedTogether() throws {
    XCTAssertThrowsError(
      try CommandLineParser.parse(
        ["x.yaml", "-q", "--json"], into: RunCommand(), table: RunCommand.arguments, command: "run")
    ) { error in
      XCTAssertEqual((error as? UsageError)?.message, "use --quiet or --json, not both")
    }
  }
}
