import Foundation
import TestSupport
import XCTest

/// The plan's `key` and the manifest's `key` as the README states them, computed outside
/// cropjob (Python's hashlib, and the README's shell line): the manifest's key is
/// `sha256("<plan key>\nsource=<sha256 of the source>")`. The plan key's recipe is an
/// internal text, so its documented properties are checked instead: it changes with a
/// setting that changes an output's bytes (only for that output), not with the photo's
/// content; the manifest's changes with both. The plan names the manifest's key before the
/// run (`manifestKey`) for a new photo, a changed one and one the state knows.
final class OutputKeyRecipeTests: XCTestCase {
  let python = "/usr/bin/python3"

  /// `path → key` of `plan --format json` and of the manifest after `run`.
  func keys(_ job: CLIJob) throws -> (plan: [String: String], manifest: [String: String], sources: [String: String]) {
    let plan = try job.run(["plan", "--format", "json", "job.yaml"])
    XCTAssertEqual(plan.status, 0, plan.stderr)
    let planned = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
    let run = try job.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let data = try Data(contentsOf: URL(fileURLWithPath: job.path("out/cropjob-manifest.json")))
    let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    func byPath(_ outputs: Any?, _ value: ([String: Any]) -> String?) throws -> [String: String] {
      let list = try XCTUnwrap(outputs as? [[String: Any]])
      return Dictionary(uniqueKeysWithValues: list.map { ($0["path"] as! String, value($0) ?? "") })
    }
    let manifestKeys = try byPath(manifest["outputs"]) { $0["key"] as? String }
    XCTAssertEqual(try byPath(planned["outputs"]) { $0["manifestKey"] as? String }, manifestKeys)
    return (
      try byPath(planned["outputs"]) { $0["key"] as? String },
      manifestKeys,
      try byPath(manifest["outputs"]) { ($0["source"] as? [String: Any])?["path"] as? String }
    )
  }

  /// Each manifest key, computed by Python from the plan's key and the source file's bytes.
  func assertManifestKeysFollowTheRecipe(_ job: CLIJob, file: StaticString = #filePath, line: UInt = #line) throws {
    let k = try keys(job)
    XCTAssertEqual(Set(k.plan.keys), Set(k.manifest.keys), file: file, line: line)
    XCTAssertEqual(k.plan.count, 4, file: file, line: line)
    let script = """
      import hashlib, sys
      args = sys.argv[1:]
      for plan_key, source in zip(args[0::2], args[1::2]):
          digest = hashlib.sha256(open(source, "rb").read()).hexdigest()
          print(hashlib.sha256(f"{plan_key}\\nsource={digest}".encode()).hexdigest())
      """
    let paths = k.plan.keys.sorted()
    let arguments = paths.flatMap { [k.plan[$0]!, job.path(k.sources[$0]!)] }
    let computed = try Subprocess.run(python, ["-c", script] + arguments)
    XCTAssertEqual(computed.status, 0, computed.stderr, file: file, line: line)
    XCTAssertEqual(
      computed.stdout.split(separator: "\n").map(String.init), paths.map { k.manifest[$0]! }, file: file, line: line)
  }

  func testTheManifestKeyIsThePlanKeyAndTheSourceHash() throws {
    guard FileManager.default.isExecutableFile(atPath: python) else { throw Skipped.because("no \(python)") }
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg", "kite.jpg"], into: ".")
    let text = """
      version: 1
      output: out
      jobs:
        a:
          sources: "*.jpg"
          guide: {size: 64}
          outputs: [{path: "{stem}.jpg", encode: {quality: QUALITY}}, {path: "{stem}.webp", size: 32}]

      """
    try job.write(text.replacingOccurrences(of: "QUALITY", with: "80"))
    try assertManifestKeysFollowTheRecipe(job)
    let first = try keys(job)

    // The README's shell line gives the same key.
    let shell = try Subprocess.run(
      "/bin/sh",
      [
        "-c", "printf '%s\\nsource=%s' \"$1\" \"$(sha256sum < \"$2\" | cut -c1-64)\" | sha256sum | cut -c1-64", "sh",
        first.plan["astronaut.jpg"]!, job.path("astronaut.jpg"),
      ])
    XCTAssertEqual(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines), first.manifest["astronaut.jpg"])

    // A setting that changes the JPEG's bytes changes its keys, not the WebP's.
    try job.write(text.replacingOccurrences(of: "QUALITY", with: "70"))
    let quality = try keys(job)
    for path in ["astronaut.jpg", "kite.jpg"] {
      XCTAssertNotEqual(quality.plan[path], first.plan[path], path)
      XCTAssertNotEqual(quality.manifest[path], first.manifest[path], path)
    }
    for path in ["astronaut.webp", "kite.webp"] {
      XCTAssertEqual(quality.plan[path], first.plan[path], path)
      XCTAssertEqual(quality.manifest[path], first.manifest[path], path)
    }

    // Other pixels in a file of the same size in pixels: the plan's keys stay, the manifest's
    // change, and still follow the recipe.
    let resave = try Subprocess.run(
      python,
      [
        "-c",
        "from PIL import Image; import sys; Image.open(sys.argv[1]).rotate(180).save(sys.argv[1], quality=60)",
        job.path("kite.jpg"),
      ])
    if resave.status != 0 { throw Skipped.because("no Pillow: \(resave.stderr)") }
    let content = try keys(job)
    XCTAssertEqual(content.plan, quality.plan)
    for path in ["kite.jpg", "kite.webp"] { XCTAssertNotEqual(content.manifest[path], quality.manifest[path], path) }
    for path in ["astronaut.jpg", "astronaut.webp"] {
      XCTAssertEqual(content.manifest[path], quality.manifest[path], path)
    }
    try assertManifestKeysFollowTheRecipe(job)
  }

  /// No key is named where the photo's hash cannot be known before the run: an earlier job's
  /// output (`from:`, written by the run) and a damaged photo.
  func testThePlanNamesNoManifestKeyItCannotKnow() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["kite.jpg"], into: ".")
    try job.write(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: "*.jpg"
          guide: {size: 64}
          outputs: [{path: "a/{stem}.jpg"}]
        b:
          from: a
          guide: {size: 32}
          outputs: [{path: "b/{stem}.jpg"}]

      """)
    try Data(repeating: 0xff, count: 100).write(to: URL(fileURLWithPath: job.path("broken.jpg")))
    let plan = try job.run(["plan", "--format", "json", "job.yaml"])
    let planned = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
    let outputs = try XCTUnwrap(planned["outputs"] as? [[String: Any]])
    let named = Dictionary(uniqueKeysWithValues: outputs.map { ($0["path"] as! String, $0["manifestKey"] != nil) })
    XCTAssertEqual(named, ["a/kite.jpg": true, "b/kite.jpg": false], plan.stdout)
  }
}
