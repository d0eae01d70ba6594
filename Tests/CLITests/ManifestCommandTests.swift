import CropKit
import Foundation
import TestSupport
import XCTest

/// `cropjob manifest`: the state database exported as JSON (byte for byte the manifest a run
/// writes, shards merged), JSON Lines and CSV (README.md, "State").
final class ManifestCommandTests: XCTestCase {
  func scratch(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(["kite.jpg", "cat.png", "bridge.jpg", "coffee-alpha.png"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*"]
          guide: {shape: circle, size: 64}
          outputs:
            - path: "jpeg/{stem}, \\"q\\".jpg"
            - path: "png/{stem}.png"
              encode: {format: png}
      """)
    return s
  }

  func testTheThreeFormatsListEveryRecordedOutputSortedByPath() throws {
    let s = try scratch()
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    let written = try Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json")))
    let manifest = try JSONDecoder().decode(Manifest.self, from: written)
    XCTAssertEqual(manifest.outputs.count, 8)

    let json = try s.run(["manifest", "job.yaml"])
    XCTAssertEqual(json.status, 0, json.stderr)
    XCTAssertEqual(json.stdoutData, written, "the export differs from cropjob-manifest.json")

    let jsonl = try s.run(["manifest", "job.yaml", "--format", "jsonl"])
    XCTAssertEqual(jsonl.status, 0, jsonl.stderr)
    let lines = jsonl.stdout.split(separator: "\n")
    XCTAssertEqual(
      try lines.map { try JSONDecoder().decode(Manifest.Entry.self, from: Data($0.utf8)) }, manifest.outputs)

    let csv = try s.run(["manifest", "job.yaml", "--format", "csv"])
    XCTAssertEqual(csv.status, 0, csv.stderr)
    let csvPath = s.path("export.csv")
    try csv.stdoutData.write(to: URL(fileURLWithPath: csvPath))
    // Python's csv module reads it back: the header, then one row per output, quoting intact.
    let read = try Subprocess.run(
      "/usr/bin/python3",
      [
        "-c",
        "import csv,json,sys; rows=list(csv.DictReader(open(sys.argv[1], newline=''))); print(json.dumps([[r['path'], r['sha256'], r['scale']] for r in rows]))",
        csvPath,
      ])
    XCTAssertEqual(read.status, 0, read.stderr)
    let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: read.stdoutData) as? [[String]])
    XCTAssertEqual(rows.map { $0[0] }, manifest.outputs.map(\.path))
    XCTAssertEqual(rows.map { $0[1] }, manifest.outputs.map(\.sha256))
    XCTAssertEqual(rows.map { Double($0[2]) }, manifest.outputs.map(\.geometry.scale))
  }

  func testShardFilesExportAsTheUnshardedManifest() throws {
    let s = try scratch()
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--output", "whole"]).status, 0)
    for index in 0..<3 {
      XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--output", "sharded", "--shard", "\(index)/3"]).status, 0)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: s.path("sharded/.cropjob/state.shard-2-of-3.sqlite3")))
    let export = try s.run(["manifest", "job.yaml", "--output", "sharded"])
    XCTAssertEqual(export.status, 0, export.stderr)
    XCTAssertEqual(export.stdoutData, try Data(contentsOf: URL(fileURLWithPath: s.path("whole/cropjob-manifest.json"))))
  }

  func testAnEmptyOrDamagedStateExportsNothingOrFails() throws {
    let s = try scratch()
    defer { s.remove() }
    let empty = try s.run(["manifest", "job.yaml", "--format", "jsonl"])
    XCTAssertEqual(empty.status, 0, empty.stderr)
    XCTAssertEqual(empty.stdout, "")
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: s.path("out/.cropjob/state.sqlite3")))
    let damaged = try s.run(["manifest", "job.yaml"])
    XCTAssertEqual(damaged.status, 1)
    XCTAssertTrue(damaged.stderr.contains("damaged") && damaged.stderr.contains("state.sqlite3"), damaged.stderr)
  }
}
