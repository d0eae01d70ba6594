import CropSpec
import Foundation
import TestSupport
import XCTest

/// The printed schema (checked by Python's jsonschema) and the decoder give the same verdict
/// on every list rule and every per-format range of the table. The fields are found in the
/// table, so a list field or a per-format range added later is tested too, and the expected
/// verdict is what the table states: a decoder or a schema writer that does not follow the
/// table fails here.
final class JobSchemaAgreementTests: XCTestCase {
  struct Case {
    var file: String
    var accepted: Bool
    var what: String
  }

  // MARK: - List fields

  /// Every list field, at each place the table puts it: a valid list, an empty list, a
  /// repeated item, an unknown item, and one item too many where there is a maximum.
  func testListRulesAgreeForEveryListField() throws {
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    var cases: [Case] = []
    var fields: [String] = []
    for object in JobSchema.objects {
      for field in object.fields {
        guard let rule = field.listRule else { continue }
        let name = "\(object.name).\(field.name)"
        fields.append(name)
        let items = try XCTUnwrap(Self.items(rule.item), "\(name): no sample items for \(rule.item)")
        let count = max(rule.minItems, 1)
        var lists: [(String, [String], Bool)] = [
          ("valid", Array(items.good.prefix(count)), true),
          ("empty", [], rule.minItems == 0),
          ("repeated item", Array(repeating: items.good[0], count: max(rule.minItems, 2)), !rule.unique),
          ("unknown item", [items.bad] + items.good.prefix(count - 1), false),
        ]
        if let maxItems = rule.maxItems {
          lists.append(("one item too many", Array(items.good.prefix(maxItems + 1)), false))
        }
        for (what, list, accepted) in lists {
          XCTAssertTrue(what == "empty" || !list.isEmpty, "\(name): too few sample items for \(what)")
          let value = "[" + list.joined(separator: ", ") + "]"
          let text = try XCTUnwrap(Self.jobFile(object.name, field.name, value), "\(name): no place in a job file")
          let url = folder.appendingPathComponent("\(object.name)-\(field.name)-\(cases.count).yaml")
          try text.write(to: url, atomically: true, encoding: .utf8)
          cases.append(Case(file: url.path, accepted: accepted, what: "\(name): \(what) \(value)"))
        }
      }
    }
    // Each list field of the reference (docs/job-file.md), placed in a job file here.
    XCTAssertEqual(
      Set(fields),
      [
        "file.overrides", "defaults.outputs", "defaults.metadata", "job.sources", "job.exclude", "job.outputs",
        "job.metadata", "place.offset", "place.focus", "place.flip", "place.background", "output.scales",
        "output.widths", "output.metadata", "override.offset", "override.focus", "override.flip",
        "override.background", "place.regions", "override.regions", "defaults.placeholders", "job.placeholders",
        "output.placeholders", "placeholders.kinds", "placeholders.blurhash_components",
      ])
    try assertAgreement(cases)
  }

  /// The decisions written in docs/job-file.md ("Lists"), stated once more by hand so that a
  /// change of the table shows here: empty lists of exceptions are allowed, of what to make
  /// are not; repeated metadata kinds, flips, scales, widths, outputs and overrides are not.
  func testListDecisions() {
    func rule(_ object: SchemaObject, _ key: String) -> (Int, Bool)? {
      object.field(key)?.listRule.map { ($0.minItems, $0.unique) }
    }
    XCTAssertTrue(rule(JobSchema.output, "metadata")! == (0, true))
    XCTAssertTrue(rule(JobSchema.place, "flip")! == (0, true))
    XCTAssertTrue(rule(JobSchema.job, "exclude")! == (0, false))
    XCTAssertTrue(rule(JobSchema.job, "sources")! == (1, false))
    XCTAssertTrue(rule(JobSchema.job, "outputs")! == (1, true))
    XCTAssertTrue(rule(JobSchema.output, "scales")! == (1, true))
    XCTAssertTrue(rule(JobSchema.file, "overrides")! == (0, true))
    let decoded = JobFileLoader.load(
      bytes: Array(Self.jobFile("output", "metadata", "[]")!.utf8), path: "empty-metadata.yaml")
    XCTAssertEqual(decoded.jobFile?.jobs.first?.outputs.first?.metadata, .strip, "an empty list keeps nothing")
    let repeated = JobFileLoader.load(
      bytes: Array(Self.jobFile("output", "metadata", "[icc, gps, icc]")!.utf8), path: "j.yaml")
    XCTAssertEqual(
      repeated.diagnostics.map(\.description),
      [
        "j.yaml:7:66: error: jobs.a.outputs[0].metadata[2]: expected distinct values but received icc again (as at [0])"
      ])
  }

  /// Sample items of a list's item type: distinct valid ones, and one the type refuses.
  static func items(_ type: SchemaType) -> (good: [String], bad: String)? {
    switch type.resolved {
    case .choice(let names): return (names, "no_such_name")
    case .integer(let range):
      return ((0..<6).map { String(range.lowerBound + $0) }, String(range.upperBound + 1))
    case .number(let range):
      let width = range.upperBound - range.lowerBound
      let good = [0, 1, 0.5, 0.25, 0.75].map { NodeReader.format(range.lowerBound + width * $0) }
      return (good, NodeReader.format(range.upperBound + width))
    case .string: return ((0..<6).map { "s\($0).jpg" }, "5")
    case .ref("output"): return ((0..<6).map { "{path: \"{stem}-\($0).jpg\"}" }, "5")
    case .ref("override"): return ((0..<6).map { "{source: s\($0).jpg, zoom: 2}" }, "5")
    default: return nil
    }
  }

  /// A valid job file with `key: value` in the mapping `object`, or nil for a mapping this
  /// helper does not place.
  static func jobFile(_ object: String, _ key: String, _ value: String) -> String? {
    var top = ""
    var job: [(String, String)] = [
      ("sources", "a.jpg"), ("guide", "{size: 100}"), ("outputs", "[{path: \"{stem}@{scale}x.jpg\"}]"),
    ]
    func set(_ key: String, _ value: String) {
      if let index = job.firstIndex(where: { $0.0 == key }) { job[index].1 = value } else { job.append((key, value)) }
    }
    switch object {
    case "file": top = "\(key): \(value)\n"
    case "defaults":
      top = "defaults: {\(key): \(value)}\n"
      if key == "outputs" { job.removeAll { $0.0 == "outputs" } }
    case "job": set(key, value)
    case "place": set("place", "{\(key): \(value)}")
    case "output": set("outputs", "[{path: \"{stem}@{scale}x.jpg\", \(key): \(value)}]")
    case "override": top = "overrides: [{source: a.jpg, \(key): \(value)}]\n"
    case "placeholders":
      let settings = key == "kinds" ? "kinds: \(value)" : "kinds: [blurhash], \(key): \(value)"
      set("outputs", "[{path: \"{stem}@{scale}x.jpg\", placeholders: {\(settings)}}]")
    default: return nil
    }
    return "version: 1\noutput: out\n\(top)jobs:\n  a:\n" + job.map { "    \($0.0): \($0.1)\n" }.joined()
  }

  // MARK: - Per-format ranges

  /// Every integer whose range depends on the format (`encode.effort`), for each format at
  /// both bounds and one beyond each, with the format named by `encode.format` (each of its
  /// names), by the path's extension (each of them, and one in capitals), and by
  /// `defaults.encode.format` beside the value while the output's path says png (the value
  /// is held to the format written beside it).
  func testPerFormatRangesAgreeAtTheirBounds() throws {
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    var cases: [Case] = []
    var formats: Set<OutputFormat> = []
    for object in JobSchema.objects {
      for field in object.fields {
        for range in field.formatRanges {
          for format in range.formats {
            formats.insert(format)
            let low = range.range.lowerBound
            let high = range.range.upperBound
            let bounds = [(low, true), (high, true), (low - 1, false), (high + 1, false)]
            let extensions = JobSchema.extensionFormats.filter { $0.value == format }.keys.sorted()
            var places: [(String, (Int) -> String)] = []
            for name in JobSchema.names(of: format) {
              places.append(("format \(name)", { Self.encodeFile(path: "{stem}.{format}", "format: \(name), ", $0) }))
              places.append(
                ("defaults format \(name)", { Self.encodeFile(path: "{stem}.png", defaults: "format: \(name), ", $0) }))
            }
            for ext in extensions + [extensions[0].uppercased()] {
              places.append(("path .\(ext)", { Self.encodeFile(path: "{stem}.\(ext)", "", $0) }))
            }
            for (place, file) in places {
              for (value, accepted) in bounds {
                let url = folder.appendingPathComponent("\(field.name)-\(format)-\(cases.count).yaml")
                try file(value).write(to: url, atomically: true, encoding: .utf8)
                cases.append(Case(file: url.path, accepted: accepted, what: "\(field.name) \(value), \(place)"))
              }
            }
          }
        }
      }
    }
    XCTAssertEqual(formats, [.webp, .avif, .heif, .jxl])
    try assertAgreement(cases)
  }

  /// A job file whose output at `path` has `encode: {<own>effort: value}`, or whose defaults
  /// have `encode: {<defaults>effort: value}`.
  static func encodeFile(path: String, _ own: String = "", defaults: String? = nil, _ value: Int) -> String {
    let top = defaults.map { "defaults: {encode: {\($0)effort: \(value)}}\n" } ?? ""
    let encode = defaults == nil ? ", encode: {\(own)effort: \(value)}" : ""
    return """
      version: 1
      output: out
      \(top)jobs:
        a:
          sources: a.jpg
          guide: {size: 100}
          outputs: [{path: "\(path)"\(encode)}]

      """
  }

  // MARK: - Named types

  /// Every named type (`$defs`) of the printed schema is used by some field, but the crop
  /// table's row: the schema of a line of a JSON Lines table, not of the job file.
  func testEveryNamedTypeIsReferenced() throws {
    let text = JobSchema.text
    let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let defs = try XCTUnwrap(root["$defs"] as? [String: Any])
    XCTAssertNotNil(defs[JobSchema.cropTable.name])
    for name in defs.keys.sorted() where name != JobSchema.cropTable.name {
      XCTAssertTrue(text.contains("\"$ref\": \"#/$defs/\(name)\""), "$defs/\(name) is never referenced")
    }
  }

  // MARK: - Verdicts

  /// The decoder's and the schema's verdicts on each case are the expected one. The decoder's
  /// are checked first, so that a machine without python3-jsonschema still checks them.
  func assertAgreement(_ cases: [Case], file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertFalse(cases.isEmpty, file: file, line: line)
    for c in cases {
      let diagnostics = JobFileLoader.load(path: c.file).diagnostics
      XCTAssertEqual(
        !diagnostics.hasErrors, c.accepted, "decoder, \(c.what): \(diagnostics.map(\.message))", file: file,
        line: line)
    }
    let verdicts = try Self.schemaVerdicts(cases.map(\.file))
    for c in cases {
      XCTAssertEqual(
        verdicts[c.file]?.valid, c.accepted, "schema, \(c.what): \(verdicts[c.file]?.errors ?? [])", file: file,
        line: line)
    }
  }

  /// Python's jsonschema on `files` with the printed schema; verdicts by path. Skips without
  /// python3-jsonschema (scripts/install-deps.sh installs it): callers check the decoder first.
  static func schemaVerdicts(_ files: [String]) throws -> [String: (valid: Bool, errors: [String])] {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let schema = folder.appendingPathComponent("job-file.schema.json")
    try JobSchema.text.write(to: schema, atomically: true, encoding: .utf8)
    let checker = TestPaths.repoRoot.appendingPathComponent("scripts/jsonschema-check.py")
    let checked = try Subprocess.run(python, [checker.path, schema.path] + files)
    if checked.status == 3 { throw Skipped.because("python3-jsonschema or python3-yaml missing: \(checked.stderr)") }
    XCTAssertNotEqual(checked.status, 2, "the schema is not a valid draft 2020-12 schema: \(checked.stderr)")
    var verdicts: [String: (Bool, [String])] = [:]
    for line in String(decoding: checked.stdoutData, as: UTF8.self).split(separator: "\n") {
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let messages = (object["errors"] as? [[String: Any]] ?? []).map { "\($0["path"] ?? ""): \($0["message"] ?? "")" }
      let file = try XCTUnwrap(object["file"] as? String)
      verdicts[file] = (try XCTUnwrap(object["valid"] as? Bool), messages)
    }
    XCTAssertEqual(verdicts.count, files.count)
    // Exit 1 when any file is invalid, so that the script can gate CI (issue 40).
    XCTAssertEqual(checked.status, verdicts.values.allSatisfy(\.0) ? 0 : 1, checked.stderr)
    return verdicts
  }
}
