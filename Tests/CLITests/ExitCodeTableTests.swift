import Foundation
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
      contentsOf: CLIRunner.repoRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
    for name in try commands() {
      let help = try helpTable(name)
      let rows = try markdownRows(text, from: "### `cropjob \(name)`")
      XCTAssertEqual(rows.map { Int($0[0]) ?? -1 }, help.map(\.code), name)
      XCTAssertEqual(rows.map { $0[1] }, help.map(\.meaning), name)
    }
  }

  /// The README's summary: for each code, the commands that use it, exactly.
  func testTheReadmeSummaryListsEachCodeWithTheCommandsThatUseIt() throws {
    let text = try String(contentsOf: CLIRunner.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
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
}
