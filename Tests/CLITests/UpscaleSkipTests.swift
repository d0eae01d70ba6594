import Foundation
import TestSupport
import XCTest

/// Sizes one photo cannot fill (issues 28.3 and 24.7): with `upscale: false` sizes of one
/// photo that collapse onto one name are written once, with a warning naming them, and the
/// other photos are made as always; `upscale: skip` writes only the sizes a photo fills and one
/// output at its own size for the rest (eleventy-img's rule). The manifest's pixel sizes are
/// checked against Pillow's reading of the files.
final class UpscaleSkipTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png"]

  func job(upscale: String, sizes: String, path: String) -> String {
    """
    version: 1
    output: out
    jobs:
      avatar:
        sources: ["photos"]
        guide: {shape: circle, size: 128}
        place: {upscale: \(upscale)}
        outputs: [{path: "\(path)", \(sizes), encode: {format: png}}]
    overrides:
      - {job: avatar, source: photos/kite.jpg, crop: {x: 10, y: 10, width: 100, height: 100}}
    """
  }

  func scratch(_ job: String, _ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(Self.photos)
    try s.write(job)
    return s
  }

  /// Output path → pixel size, from the manifest and from Pillow; they must agree.
  func sizes(_ s: CLIJob, file: StaticString = #filePath, line: UInt = #line) throws -> [String: String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json")))
    let outputs = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["outputs"] as? [[String: Any]])
    var manifest: [String: String] = [:]
    for entry in outputs { manifest[entry["path"] as! String] = "\(entry["width"]!)x\(entry["height"]!)" }
    let script = """
      import json, os, sys
      from PIL import Image
      out = {}
      for folder, _, names in os.walk('out'):
          for name in names:
              if name.endswith('.png'):
                  path = os.path.join(folder, name)
                  out[os.path.relpath(path, 'out')] = '%dx%d' % Image.open(path).size
      print(json.dumps(out))
      """
    let pillow = try Subprocess.run("/usr/bin/python3", ["-c", script], cwd: s.folder)
    let files = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(pillow.stdout.utf8)) as? [String: String])
    XCTAssertEqual(manifest, files, "the manifest gives each file's pixel size", file: file, line: line)
    return files
  }

  func testCappedSizesOfOnePhotoOnOneNameAreWrittenOnceAndTheBatchRuns() throws {
    let s = try scratch(job(upscale: "false", sizes: "widths: [128, 256]", path: "{stem}-{width}.png"))
    defer { s.remove() }
    let plan = try s.run(["plan", "job.yaml"])
    XCTAssertEqual(plan.status, 0, plan.stdout + plan.stderr)
    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(
      run.stderr.contains(
        "warning: job avatar photos/kite.jpg → kite-100.png: upscale is off: the 128x128 and 256x256 sizes collapse onto kite-100.png (100x100): written once"
      ), run.stderr)
    XCTAssertEqual(
      try sizes(s),
      [
        "kite-100.png": "100x100", "bridge-128.png": "128x128", "bridge-256.png": "256x256",
        "cat-128.png": "128x128", "cat-256.png": "256x256",
      ])
  }

  func testSkipWritesTheWidthsAPhotoFillsAndOneAtItsOwnSize() throws {
    let s = try scratch(job(upscale: "skip", sizes: "widths: [64, 128, 256]", path: "{stem}-{width}.png"))
    defer { s.remove() }
    XCTAssertEqual(try s.run(["validate", "job.yaml"]).status, 0)
    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(
      run.stderr.contains(
        "upscale: skip: the photo cannot fill 128x128 or 256x256; kite-100.png (100x100) stands for them"),
      run.stderr)
    XCTAssertEqual(
      try sizes(s).filter { $0.key.hasPrefix("kite") }, ["kite-64.png": "64x64", "kite-100.png": "100x100"])
    XCTAssertEqual(try sizes(s).count, 2 + 3 + 3)
  }

  /// Names that do not collapse (`{scale}`): `false` writes each size capped, `skip` only one.
  func testSkipWritesOneCappedOutputWhenNamesDiffer() throws {
    let capped = try scratch(job(upscale: "false", sizes: "scales: [1, 2]", path: "{stem}@{scale}x.png"))
    defer { capped.remove() }
    XCTAssertEqual(try capped.run(["run", "job.yaml", "-q"]).status, 0)
    XCTAssertEqual(
      try sizes(capped).filter { $0.key.hasPrefix("kite") }, ["kite@1x.png": "100x100", "kite@2x.png": "100x100"])
    let skip = try scratch(job(upscale: "skip", sizes: "scales: [1, 2]", path: "{stem}@{scale}x.png"))
    defer { skip.remove() }
    XCTAssertEqual(try skip.run(["run", "job.yaml", "-q"]).status, 0)
    XCTAssertEqual(try sizes(skip).filter { $0.key.hasPrefix("kite") }, ["kite@1x.png": "100x100"])
    XCTAssertEqual(try sizes(skip)["cat@2x.png"], "256x256")
  }

  /// Only `true`, `false` and `skip`, in the decoder and in the schema (Python jsonschema).
  func testValidateAndSchemaAgreeOnUpscaleValues() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(Self.photos)
    let schema = try CLIRunner.run(["schema"])
    try schema.stdout.write(toFile: s.path("schema.json"), atomically: true, encoding: .utf8)
    for (value, valid) in [("true", true), ("false", true), ("skip", true), ("sometimes", false), ("1", false)] {
      try s.write(job(upscale: value, sizes: "widths: [64]", path: "{stem}-{width}.png"))
      let validate = try s.run(["validate", "job.yaml"])
      XCTAssertEqual(validate.status == 0, valid, "\(value): \(validate.stdout)\(validate.stderr)")
      let check = try Subprocess.run(
        "/usr/bin/python3",
        [
          "-c",
          "import json, yaml, jsonschema; jsonschema.validate(yaml.safe_load(open('job.yaml')), json.load(open('schema.json')))",
        ], cwd: s.folder)
      XCTAssertEqual(check.status == 0, valid, "\(value): \(check.stderr)")
    }
  }
}
