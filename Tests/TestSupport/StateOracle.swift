import Foundation
import XCTest

/// cropjob's state database read by programs cropjob did not write: the `sqlite3` command
/// reads the rows, `sha256sum` hashes the files they describe.
public enum StateOracle {
  /// One row of the `outputs` table as sqlite3 prints it.
  public struct Output: Equatable, Sendable {
    public var path: String
    public var bytes: Int
    public var sha256: String
    public var sourcePath: String
    public var sourceSHA256: String
  }

  /// The `outputs` rows of `database`, by path.
  public static func outputs(_ database: String) throws -> [String: Output] {
    var rows: [String: Output] = [:]
    for row in try query(database, "SELECT path, bytes, sha256, source_path, source_sha256 FROM outputs") {
      guard let path = row["path"] as? String, let bytes = row["bytes"] as? Int, let sha256 = row["sha256"] as? String,
        let sourcePath = row["source_path"] as? String, let sourceSHA256 = row["source_sha256"] as? String
      else { throw OracleError("an outputs row of \(database) lacks a field: \(row)") }
      rows[path] = Output(
        path: path, bytes: bytes, sha256: sha256, sourcePath: sourcePath, sourceSHA256: sourceSHA256)
    }
    return rows
  }

  /// The `sources` rows of `database` that carry a hash: absolute path → SHA-256.
  public static func sourceHashes(_ database: String) throws -> [String: String] {
    var hashes: [String: String] = [:]
    for row in try query(database, "SELECT path, sha256 FROM sources WHERE sha256 IS NOT NULL") {
      if let path = row["path"] as? String, let sha256 = row["sha256"] as? String { hashes[path] = sha256 }
    }
    return hashes
  }

  /// Whether `database` has the table `name` (a state file killed while it was being created
  /// may have none yet).
  public static func hasTable(_ database: String, _ name: String) throws -> Bool {
    try !query(database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '\(name)'").isEmpty
  }

  /// `sql` through `sqlite3 -readonly -json`; an empty result is an empty list.
  public static func query(_ database: String, _ sql: String) throws -> [[String: Any]] {
    let sqlite = "/usr/bin/sqlite3"
    guard FileManager.default.isExecutableFile(atPath: sqlite) else {
      throw Skipped.because("\(sqlite) is not installed")
    }
    let result = try Subprocess.run(sqlite, ["-readonly", "-json", database, sql])
    guard result.status == 0 else { throw OracleError("sqlite3 \(database): \(result.stderr)") }
    let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return [] }
    guard let rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
      throw OracleError("sqlite3 printed no JSON array: \(text.prefix(200))")
    }
    return rows
  }

  /// SHA-256 of each file, by `sha256sum`: path → hex digest.
  public static func sha256sum(_ paths: [String]) throws -> [String: String] {
    if paths.isEmpty { return [:] }
    let result = try Subprocess.run("/usr/bin/sha256sum", ["--"] + paths)
    guard result.status == 0 else { throw OracleError("sha256sum: \(result.stderr)") }
    var digests: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      let digest = line.prefix(64)
      digests[String(line.dropFirst(66))] = String(digest)
    }
    return digests
  }

  public struct OracleError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}

extension XCTestCase {
  /// Checks the state database of the output root `root` (or `database`) with sqlite3 and
  /// sha256sum: every recorded output exists under `root` with the recorded size and SHA-256,
  /// and every recorded source that still exists has the recorded SHA-256; with `jobFolder`
  /// (what relative source paths are relative to), each output's source hash is its source
  /// file's. Returns the rows.
  @discardableResult
  public func assertStateMatchesFiles(
    root: String, database: String? = nil, jobFolder: String? = nil, file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> [String: StateOracle.Output] {
    let database = database ?? root + "/.cropjob/state.sqlite3"
    let outputs = try StateOracle.outputs(database)
    let onDisk = outputs.keys.map { root + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    let digests = try StateOracle.sha256sum(onDisk)
    for (path, row) in outputs {
      let full = root + "/" + path
      XCTAssertEqual(digests[full], row.sha256, "\(path): recorded SHA-256 is not the file's", file: file, line: line)
      let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? -1
      XCTAssertEqual(size, row.bytes, "\(path): recorded size is not the file's", file: file, line: line)
    }
    let sources = try StateOracle.sourceHashes(database)
    let present = sources.keys.filter { FileManager.default.fileExists(atPath: $0) }
    let sourceDigests = try StateOracle.sha256sum(present)
    for path in present {
      XCTAssertEqual(sourceDigests[path], sources[path], "source \(path): recorded SHA-256", file: file, line: line)
    }
    if let jobFolder {
      func resolved(_ path: String) -> String { path.hasPrefix("/") ? path : jobFolder + "/" + path }
      let sourceFiles = Set(outputs.values.map { resolved($0.sourcePath) })
      let fileDigests = try StateOracle.sha256sum(sourceFiles.sorted())
      for (path, row) in outputs {
        XCTAssertEqual(
          fileDigests[resolved(row.sourcePath)], row.sourceSHA256, "\(path): source SHA-256 is not \(row.sourcePath)'s",
          file: file, line: line)
      }
    }
    return outputs
  }
}
