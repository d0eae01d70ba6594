import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The delivery index as a step of the run: listed from the state after the outputs, the same
/// bytes for any -j and shard count, not rewritten by a no-op re-run, a failed source's new
/// outputs never listed, and a file cropjob did not write never replaced.
final class DeliveryIndexRunTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]

  static func job(index: String = "{path: \"pages/{stem}.html\"}", widths: String = "[64, 128]") -> String {
    """
    version: 1
    output: out
    jobs:
      hero:
        sources: ["photos"]
        guide: {aspect: "16:9", width: 128}
        index: \(index)
        outputs:
          - {path: "img/{stem}-{width}.webp", widths: \(widths)}
          - {path: "img/{stem}-{width}.jpg", widths: \(widths)}
      all:
        sources: ["photos"]
        guide: {size: 40}
        index: {path: "all.html", base_url: "https://cdn.example/a b"}
        outputs: [{path: "sq/{stem}.png"}]
    """
  }

  /// The index files under `root`, by path relative to it.
  func indexFiles(_ root: String) throws -> [String: Data] {
    try treeContents(root).filter {
      ($0.key.hasSuffix(".html") || $0.key.hasSuffix(".json")) && !$0.key.hasPrefix("cropjob-manifest")
    }
  }

  func testListsEachSourcesOutputsByFormatWithSizes() throws {
    let harness = try RunHarness(samples: Self.photos, job: Self.job())
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0)
    XCTAssertEqual(summary.indexed, 8)  // three pages and all.html, each with its JSON
    let data = try Data(contentsOf: URL(fileURLWithPath: harness.outputRoot + "/pages/kite.json"))
    let index = try JSONDecoder().decode(DeliveryIndex.self, from: data)
    let image = try XCTUnwrap(index.images.first)
    XCTAssertEqual(index.images.count, 1)
    XCTAssertEqual(image.formats.map(\.format), ["webp", "jpeg"])
    XCTAssertEqual(image.fallback, "jpeg")
    XCTAssertEqual(image.formats[0].srcset, "../img/kite-64.webp 64w, ../img/kite-128.webp 128w")
    XCTAssertEqual(image.formats[1].candidates.map(\.height), [36, 72])
    XCTAssertEqual([image.width, image.height], [128, 72])
    // Every candidate is the file the manifest lists, at the size its pixels have.
    let manifest = try JSONDecoder().decode(
      Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: harness.outputRoot + "/cropjob-manifest.json")))
    for candidate in image.formats.flatMap(\.candidates) {
      let entry = try XCTUnwrap(manifest.outputs.first { $0.path == candidate.path })
      XCTAssertEqual([entry.width, entry.height, entry.bytes], [candidate.width, candidate.height, candidate.bytes])
    }
    try Self.validate(harness.outputRoot, ["pages/kite.json", "pages/cat.json", "all.json"])
    let all = try JSONDecoder().decode(
      DeliveryIndex.self, from: Data(contentsOf: URL(fileURLWithPath: harness.outputRoot + "/all.json")))
    XCTAssertEqual(all.images.map(\.source), ["photos/bridge.jpg", "photos/cat.png", "photos/kite.jpg"])
    XCTAssertEqual(all.images[0].formats[0].candidates[0].url, "https://cdn.example/a%20b/sq/bridge.png")
  }

  /// Validates the index JSON files `names` under `root` with docs/index.schema.json, by
  /// Python's `jsonschema` (Debian python3-jsonschema; not our code).
  static func validate(_ root: String, _ names: [String]) throws {
    guard Subprocess.succeeds("/usr/bin/python3", ["-c", "import jsonschema"]) else {
      // A check that cannot run is a failure, not a pass (scripts/install-deps.sh installs it).
      return XCTFail("/usr/bin/python3 cannot import jsonschema (Debian python3-jsonschema)")
    }
    let schema = TestPaths.repoRoot.appendingPathComponent("docs/index.schema.json").path
    let script = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      for path in sys.argv[2:]:
          jsonschema.Draft202012Validator(schema).validate(json.load(open(path)))
      """
    let result = try Subprocess.run("/usr/bin/python3", ["-c", script, schema] + names.map { root + "/" + $0 })
    XCTAssertEqual(result.status, 0, result.stderr)
  }

  func testPlanJSONListsTheIndexFilesWholeOrStreamed() throws {
    let harness = try RunHarness(samples: Self.photos, job: Self.job())
    defer { harness.remove() }
    let file = try harness.load()
    var streamed: [UInt8] = []
    PlanRenderer.writeJSON(PlanStream.make(file, planner: Planner(), window: 1)) { streamed += $0 }
    XCTAssertEqual(streamed, Array((PlanRenderer.render(Planner().plan(file), format: .json) + "\n").utf8))
    struct Listed: Decodable {
      struct File: Decodable, Equatable {
        var path: String
        var json: String
        var job: String
        var sources: Int
      }
      var indexes: [File]
    }
    let listed = try JSONDecoder().decode(Listed.self, from: Data(streamed)).indexes
    XCTAssertEqual(listed.map(\.path), ["all.html", "pages/bridge.html", "pages/cat.html", "pages/kite.html"])
    XCTAssertEqual(listed.map(\.sources), [3, 1, 1, 1])
    XCTAssertEqual(listed[1].json, "pages/bridge.json")
  }

  func testSameBytesForAnyJobsAndShardsAndNoRewrite() throws {
    let harness = try RunHarness(samples: Self.photos, job: Self.job())
    defer { harness.remove() }
    try harness.run { $0.jobs = 1 }
    let one = try indexFiles(harness.outputRoot)
    let other = harness.folder.appendingPathComponent("other").path
    try harness.run(outputRoot: other) { $0.jobs = 3 }
    XCTAssertEqual(try indexFiles(other), one)
    // Shards write the per-source pages of their sources; the batch index is the unsharded run's.
    let sharded = harness.folder.appendingPathComponent("sharded").path
    for index in 0..<3 { try harness.run(outputRoot: sharded) { $0.shard = Shard(index: index, count: 3) } }
    var shardPages = try indexFiles(sharded)
    XCTAssertNil(shardPages["all.html"])
    shardPages["all.html"] = one["all.html"]
    shardPages["all.json"] = one["all.json"]
    XCTAssertEqual(shardPages, one)
    try harness.run(outputRoot: sharded)
    XCTAssertEqual(try indexFiles(sharded), one)
    // A re-run that changes nothing writes no index; a changed `sizes` rewrites the pages only.
    let before = try FileManager.default.attributesOfItem(atPath: harness.outputRoot + "/pages/kite.html")
    let (again, _) = try harness.run()
    XCTAssertEqual(again.indexed, 0)
    let after = try FileManager.default.attributesOfItem(atPath: harness.outputRoot + "/pages/kite.html")
    XCTAssertEqual(before[.systemFileNumber] as? Int, after[.systemFileNumber] as? Int)
    try harness.writeJob(Self.job(index: "{path: \"pages/{stem}.html\", sizes: \"50vw\"}"))
    let (resized, _) = try harness.run()
    XCTAssertEqual([resized.written, resized.indexed], [0, 6])
  }

  func testFailedSourceKeepsLastGoodOutputsAndNewOnesAreNotListed() throws {
    let harness = try RunHarness(samples: Self.photos, job: Self.job())
    defer { harness.remove() }
    try harness.run()
    // kite.jpg is damaged, and a new width is asked for: its old outputs are kept from the last
    // good run (marked so), the new one was never made and is not listed.
    let kite = harness.folder.appendingPathComponent("photos/kite.jpg").path
    try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: kite))
    try harness.writeJob(Self.job(widths: "[64, 128, 96]"))
    let (summary, _) = try harness.run()
    XCTAssertGreaterThan(summary.failed, 0)
    let index = try JSONDecoder().decode(
      DeliveryIndex.self, from: Data(contentsOf: URL(fileURLWithPath: harness.outputRoot + "/pages/kite.json")))
    let widths = index.images.first?.formats.map { $0.candidates.map(\.width) }
    XCTAssertEqual(widths, [[64, 128], [64, 128]])
    XCTAssertEqual(Set(index.images[0].formats.flatMap(\.candidates).map(\.fromLastGoodRun)), [true])
    try Self.validate(harness.outputRoot, ["pages/kite.json", "pages/bridge.json", "all.json"])
    let bridge = try JSONDecoder().decode(
      DeliveryIndex.self, from: Data(contentsOf: URL(fileURLWithPath: harness.outputRoot + "/pages/bridge.json")))
    XCTAssertEqual(bridge.images.first?.formats.map { $0.candidates.map(\.width) }, [[64, 96, 128], [64, 96, 128]])
  }

  func testRefusesAFileCropjobDidNotWrite() throws {
    let harness = try RunHarness(samples: Self.photos, job: Self.job())
    defer { harness.remove() }
    let page = harness.outputRoot + "/pages/cat.html"
    try FileManager.default.createDirectory(
      atPath: harness.outputRoot + "/pages", withIntermediateDirectories: true)
    try Data("<p>mine</p>".utf8).write(to: URL(fileURLWithPath: page))
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.written, 0)
    XCTAssertEqual(summary.failures.map(\.output), ["pages/cat.html"])
    XCTAssertEqual(try String(contentsOfFile: page, encoding: .utf8), "<p>mine</p>")
    let (forced, _) = try harness.run { $0.overwrite = true }
    XCTAssertEqual(forced.failed, 0)
    XCTAssertTrue(try String(contentsOfFile: page, encoding: .utf8).contains("cropjob index"))
  }
}
