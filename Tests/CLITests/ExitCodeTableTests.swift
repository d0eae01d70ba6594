import Foundation
import TestSupport
import XCTest

/// The exit codes are written in three places: each command's help (EXIT CODES, made from
/// the command's own table), docs/cli.md, and the README's summary. The help is the source;
/// the two documents are held to it.
final class ExitCodeTableTests: XCTestCase {
  typealias Table = [(code: Int, meaning: String)]

  /// The commands `cropjob --help` lists.
  func commands() throws -> [String] {
    let help = try CLIRunner.run(["--help"]).stdout
    let section = try XCTUnwrap(help.components(separatedBy: "SUBCOMMANDS:\n").last)
    return section.components(separatedBy: "\n\n")[0].split(separator: "\n").compactMap { line in
      let name = line.split(separator: " ").first.map(String.init)
      return name == "help" ? nil : name
    }
  }

  /// A command's EXIT CODES section: `  N    meaning` rows, continued on indented lines.
  func helpTable(_ command: String) throws -> Table {
    let help = try CLIRunner.run(["help", command])
    XCTAssertEqual(help.status, 0)
    let section = try XCTUnwrap(help.stdout.components(separatedBy: "EXIT CODES:\n").dropFirst().first, command)
    var table: Table = []
    for line in section.split(separator: "\n") {
      let words = line.split(separator: " ", maxSplits: 1)
      if line.hasPrefix("  "), !line.hasPrefix("   "), let code = Int(words[0]) {
        table.append((code, words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""))
      } else if line.hasPrefix("       "), !table.isEmpty {
        table[table.count - 1].meaning += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    return table
  }

  /// The rows of the first Markdown table from `heading` on in `text` (the heading may be
  /// the table's header row).
  func markdownRows(_ text: String, from heading: String) throws -> [[String]] {
    let rest = try XCTUnwrap(text.components(separatedBy: heading).dropFirst().first, heading)
    let lines = (heading + rest).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("|") }, heading)
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { row in
      row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  func testEveryCommandHasAnExitCodeTable() throws {
    let names = try commands()
    XCTAssertEqual(
      names, ["run", "plan", "validate", "schema", "preview", "manifest", "state", "formats", "completions", "man"])
    for name in names {
      let table = try helpTable(name)
      XCTAssertEqual(table.first?.code, 0, name)
      XCTAssertTrue(table.contains { $0.code == 64 }, name)
    }
  }

  func testDocsCliHasEachCommandsTableWordForWord() throws {
    let text = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
    for name in try commands() {
      let help = try helpTable(name)
      let rows = try markdownRows(text, from: "### `cropjob \(name)`")
      XCTAssertEqual(rows.map { Int($0[0]) ?? -1 }, help.map(\.code), name)
      XCTAssertEqual(rows.map { $0[1] }, help.map(\.meaning), name)
    }
  }

  /// The README's summary: for each code, the commands that use it, exactly.
  func testTheReadmeSummaryListsEachCodeWithTheCommandsThatUseIt() throws {
    let text = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let rows = try markdownRows(text, from: "| exit code | meaning | commands |\n")
    var readme: [Int: Set<String>] = [:]
    for row in rows {
      readme[Int(row[0]) ?? -1] = Set(row[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }
    var help: [Int: Set<String>] = [:]
    for name in try commands() {
      for row in try helpTable(name) { help[row.code, default: []].insert(name) }
    }
    XCTAssertEqual(readme, help)
  }

  /// The commands (and `command --flag`s) that `text` names, as `pattern` finds them:
  /// `(name)( --flag)?` with the command names put in.
  func mentions(_ text: String, _ names: [String], backticked: Bool) throws -> [(command: String, flag: String?)] {
    let words = names.joined(separator: "|")
    let pattern = backticked ? "`(\(words))( --[a-z-]+)?`" : "\\b(\(words))(\\s+--[a-z-]+)?\\b"
    let regex = try NSRegularExpression(pattern: pattern)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
      let command = String(text[Range(match.range(at: 1), in: text)!])
      let flag = Range(match.range(at: 2), in: text).map { text[$0].trimmingCharacters(in: .whitespacesAndNewlines) }
      return (command, flag)
    }
  }

  /// What a code's meaning in the README or in `cropjob --help` says of a command holds in
  /// that command's own table: the command has the code, and a flag named with it
  /// (`run --dry-run`) is named in the command's row for the code. The README had
  /// `run --dry-run` of an invalid job under 1, where `cropjob help run` puts it under 2.
  func testWhatTheSummariesSayOfEachCommandIsInItsTable() throws {
    let names = try commands()
    var tables: [String: Table] = [:]
    for name in names { tables[name] = try helpTable(name) }
    func check(_ code: Int, _ meaning: String, backticked: Bool, _ place: String) throws {
      let named = try mentions(meaning, names, backticked: backticked)
      XCTAssertFalse(named.isEmpty && code == 1, "\(place): code 1 names no command")
      for (command, flag) in named {
        let row = tables[command]?.first { $0.code == code }
        XCTAssertNotNil(row, "\(place) names \(command) under \(code), which `cropjob help \(command)` does not list")
        if let flag, let row {
          XCTAssertTrue(
            row.meaning.contains(flag),
            "\(place) names \(command) \(flag) under \(code); `cropjob help \(command)` says \(code): \(row.meaning)")
        }
      }
    }
    let text = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
    for row in try markdownRows(text, from: "| exit code | meaning | commands |\n") {
      try check(Int(row[0]) ?? -1, row[1], backticked: true, "README")
    }
    let help = try CLIRunner.run(["--help"]).stdout
    let section = try XCTUnwrap(help.components(separatedBy: "EXIT CODES:\n").dropFirst().first)
    let summary = section.components(separatedBy: "\n\n")[0].split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    let codes = try NSRegularExpression(pattern: "(?:^|; )([0-9]+) ")
    let starts = codes.matches(in: summary, range: NSRange(summary.startIndex..., in: summary))
    XCTAssertEqual(starts.count, 5, summary)
    for (i, start) in starts.enumerated() {
      let end = i + 1 < starts.count ? starts[i + 1].range.location : (summary as NSString).length
      let code = Int((summary as NSString).substring(with: start.range(at: 1)))!
      let meaning = (summary as NSString).substring(
        with: NSRange(location: start.range.location, length: end - start.range.location))
      try check(code, meaning, backticked: false, "cropjob --help")
    }
  }
}
