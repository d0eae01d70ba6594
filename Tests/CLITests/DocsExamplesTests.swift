import Foundation
import TestSupport
import XCTest

/// Every job-file example in README.md and docs/ (each fenced `yaml` block) goes through
/// `cropjob validate` and the JSON Schema (Python's jsonschema) and must be valid in both
/// (issue 28.8). A whole job file is checked as it is; a fragment (`guide:`, `place:`,
/// `encode:`, `metadata:` lines, an `outputs:` or `overrides:` block, a `jobs:` mapping) is put
/// into a small job file of its own (`embed`). The sources the examples name do not exist
/// here: `photos/` holds one photo, and a job whose sources match nothing is allowed to be
/// empty (`allow_empty`) where the decoder knows it, else such a verdict is the one error
/// tolerated (`toleratedErrors`).
final class DocsExamplesTests: XCTestCase {
  /// The documents whose examples are checked.
  static let documents = ["README.md"] + docs()

  static func docs() -> [String] {
    let folder = TestPaths.repoRoot.appendingPathComponent("docs").path
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".md") }
      .sorted().map { "docs/\($0)" }
  }

  /// Fenced `yaml` blocks of `text`, with the line each starts on.
  static func yamlBlocks(_ text: String) -> [(line: Int, body: String)] {
    var blocks: [(Int, String)] = []
    var current: [String]? = nil
    var start = 0
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if current == nil, line == "```yaml" || line == "```yml" {
        current = []
        start = number + 2
      } else if current != nil, line.hasPrefix("```") {
        blocks.append((start, current!.joined(separator: "\n")))
        current = nil
      } else if current != nil {
        current!.append(String(line))
      }
    }
    return blocks
  }

  /// A block without its common indentation.
  static func dedent(_ body: String) -> String {
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
    let indent =
      lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }.min()
      ?? 0
    return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
  }

  static let job = """
    version: 1
    output: out
    jobs:
      avatar:
        sources: ["photos"]
    """

  /// The job files a block stands for: itself, or each fragment inside a job of its own.
  static func embed(_ block: String) -> [String] {
    let body = dedent(block)
    let lines = body.split(separator: "\n").map(String.init).filter {
      !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#")
    }
    // Blocks of other files (a Kubernetes Job in docs/sharding.md) are not job files.
    guard let first = lines.first, jobFileKeys.contains(where: { first.hasPrefix($0 + ":") }) else { return [] }
    if lines.contains(where: { $0.hasPrefix("version:") }) { return [body] }
    if first.hasPrefix("jobs:") || first.hasPrefix("defaults:") { return ["version: 1\noutput: out\n" + body] }
    let indented = lines.dropFirst().map { "    " + $0 }.joined(separator: "\n")
    let guide = "    guide: {shape: square, size: 100}"
    let output = "    outputs: [{path: \"{stem}.jpg\"}]"
    if first.hasPrefix("outputs:") { return ["\(job)\n\(guide)\n    \(first)\n\(indented)"] }
    if first.hasPrefix("overrides:") { return ["\(job)\n\(guide)\n\(output)\n\(body)"] }
    // One-line fragments, each in a job of its own.
    return lines.map { line in
      let fragment = "    " + (line.components(separatedBy: "  #").first ?? line)
      if line.hasPrefix("guide:") { return "\(job)\n\(fragment)\n\(output)" }
      if line.hasPrefix("encode:") {
        let ext = line.contains("palette") ? "png" : line.contains("format: webp") ? "webp" : "jpg"
        return "\(job)\n\(guide)\n    outputs: [{path: \"{stem}.\(ext)\"}]\n\(fragment)"
      }
      return "\(job)\n\(guide)\n\(output)\n\(fragment)"
    }
  }

  /// The keys a job-file example starts with.
  static let jobFileKeys = [
    "version", "output", "defaults", "jobs", "limits", "overrides", "overrides_from", "guide", "place", "outputs",
    "encode", "metadata",
  ]

  /// Errors a valid example may get here only because its sources are not on this machine.
  static let toleratedErrors = ["matched no source", "no sources", "does not exist", "the job cannot produce anything"]

  func testEveryJobFileExampleInTheDocsIsValid() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg"])
    let schema = try CLIRunner.run(["schema"])
    try schema.stdout.write(toFile: s.path("schema.json"), atomically: true, encoding: .utf8)
    var files: [(name: String, origin: String)] = []
    for document in Self.documents {
      let text = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent(document), encoding: .utf8)
      for (line, block) in Self.yamlBlocks(text) {
        for (n, example) in Self.embed(block).enumerated() {
          let name = "example-\(files.count).yaml"
          try example.write(toFile: s.path(name), atomically: true, encoding: .utf8)
          files.append((name, "\(document):\(line) (#\(n + 1))\n\(example)"))
        }
      }
    }
    XCTAssertGreaterThanOrEqual(files.count, 20, "the docs' examples were not found")
    for file in files {
      let result = try s.run(["validate", file.name])
      let errors = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
      let real = errors.filter { error in !Self.toleratedErrors.contains { error.contains($0) } }
      XCTAssertTrue(real.isEmpty, "\(file.origin)\n\(result.stdout)\(result.stderr)")
    }
    let script = """
      import json, sys, yaml, jsonschema
      schema = json.load(open('schema.json'))
      for name in sys.argv[1:]:
          try:
              jsonschema.validate(yaml.safe_load(open(name)), schema)
              print(name + ': ok')
          except jsonschema.ValidationError as error:
              print(name + ': ' + error.message)
      """
    let check = try Subprocess.run("/usr/bin/python3", ["-c", script] + files.map(\.name), cwd: s.folder)
    XCTAssertEqual(check.status, 0, check.stderr)
    let verdicts = check.stdout.split(separator: "\n")
    XCTAssertEqual(verdicts.count, files.count, check.stdout)
    for (file, verdict) in zip(files, verdicts) {
      XCTAssertEqual(String(verdict), "\(file.name): ok", file.origin)
    }
  }
}
