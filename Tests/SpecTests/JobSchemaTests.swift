import CropSpec
import Foundation
import TestSupport
import XCTest

/// The JSON Schema, the decoder and docs/job-file.md describe one language: checked here
/// with an independent validator (Python's jsonschema) and against the reference.
final class JobSchemaTests: XCTestCase {
  static let fixtures = TestPaths.fixtures

  /// Runs Python's jsonschema over `files`; verdicts by path. Skips without python3-jsonschema,
  /// so callers check the decoder before asking.
  func schemaVerdicts(_ files: [String]) throws -> [String: (valid: Bool, errors: [String])] {
    try JobSchemaAgreementTests.schemaVerdicts(files)
  }

  static func yamlFiles(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
      .map { folder.appendingPathComponent($0).path }
  }

  // MARK: - One table

  func testKeyListsOfTheTopLevelAndOfTheMappingsBuiltFromOthers() {
    XCTAssertEqual(
      JobSchema.file.keys, ["version", "output", "limits", "defaults", "jobs", "overrides", "overrides_from"])
    XCTAssertEqual(Set(JobSchema.override.keys), Set(["job", "source"] + JobSchema.place.keys))
    XCTAssertEqual(
      Set(JobSchema.job.keys), Set(["sources", "exclude", "from", "allow_empty", "index"] + JobSchema.defaults.keys))
  }

  /// The decoder takes its key lists from the schema's table, so comparing the lists proves
  /// nothing; what it does with job files is compared instead. In every mapping, a key the
  /// schema does not list is refused as unknown, and the keys the decoder then says it knows
  /// are the schema's; every key the schema lists is read: a value of the wrong type there is
  /// refused at that key (not ignored, not called unknown).
  func testDecoderReadsExactlyTheSchemasKeysInEveryMapping() throws {
    XCTAssertEqual(Set(Self.probePaths.keys), Set(JobSchema.objects.map(\.name)), "a mapping without a probe")
    let valid = JobFileLoader.load(bytes: Array(Self.probeFile().utf8), path: "probe.yaml")
    XCTAssertEqual(valid.diagnostics.map(\.description), [], Self.probeFile())
    for object in JobSchema.objects {
      let path = try XCTUnwrap(Self.probePaths[object.name])
      func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

      let unknown = Self.probeFile(object.name, set: ["zz_probe": "1"])
      let refused = JobFileLoader.load(bytes: Array(unknown.utf8), path: "probe.yaml").diagnostics
      let message = try XCTUnwrap(
        refused.first { $0.field == field("zz_probe") }?.message, "\(object.name): zz_probe accepted: \(refused)")
      let known = try XCTUnwrap(Self.knownKeys(in: message), "\(object.name): \(message)")
      XCTAssertEqual(known.sorted(), object.keys.sorted(), "\(object.name): the keys the decoder knows")

      for key in object.keys {
        // The job's `from` excludes `sources`; an override's place key replaces its zoom.
        let remove: Set<String> =
          object.name == "job" && key == "from" ? ["sources"] : object.name == "override" ? ["zoom"] : []
        let text = Self.probeFile(object.name, set: [key: "{zz_probe: 1}"], remove: remove)
        let diagnostics = JobFileLoader.load(bytes: Array(text.utf8), path: "probe.yaml").diagnostics
        let atKey = diagnostics.filter {
          $0.field == field(key) || $0.field.hasPrefix(field(key) + ".") || $0.field.hasPrefix(field(key) + "[")
        }
        XCTAssertFalse(atKey.isEmpty, "\(field(key)): a wrong value was not refused there: \(diagnostics)\n\(text)")
        XCTAssertFalse(
          atKey.contains { $0.message.contains("unknown key \"\(key)\"") }, "\(field(key)) is unknown: \(atKey)")
      }
    }
  }

  /// Where each mapping of the schema is in `probeFile`, as the decoder names fields.
  static let probePaths = [
    "file": "", "limits": "limits", "defaults": "defaults", "job": "jobs.a", "guide": "jobs.a.guide",
    "place": "jobs.a.place", "crop": "jobs.a.place.crop", "output": "jobs.a.outputs[0]",
    "encode": "jobs.a.outputs[0].encode", "override": "overrides[0]", "crop_table": "overrides_from",
    "placeholders": "jobs.a.outputs[0].placeholders", "target": "jobs.a.outputs[0].encode.target",
    "index": "jobs.a.index",
  ]

  /// A valid job file, with one of each mapping (a crop only when `object` is crop), whose
  /// mapping `object` has the entries `set` added or replaced and `remove` left out.
  static func probeFile(_ object: String = "", set: [String: String] = [:], remove: Set<String> = []) -> String {
    func mapping(_ name: String, _ base: [String: String]) -> String {
      var entries = base
      if name == object {
        for key in remove { entries[key] = nil }
        entries.merge(set) { $1 }
      }
      return "{" + entries.keys.sorted().map { "\($0): \(entries[$0]!)" }.joined(separator: ", ") + "}"
    }
    let crop = mapping("crop", ["x": "0", "y": "0", "width": "10", "height": "10"])
    let output = mapping(
      "output",
      [
        "path": #""{stem}.png""#,
        "encode": mapping("encode", object == "target" ? ["target": mapping("target", ["ssim": "0.98"])] : [:]),
        "placeholders": mapping("placeholders", ["kinds": "[blurhash]"]),
      ])
    let job = mapping(
      "job",
      [
        "sources": "a.jpg", "guide": mapping("guide", ["shape": "square", "size": "100"]),
        "place": mapping("place", object == "crop" ? ["crop": crop] : [:]), "outputs": "[\(output)]",
        "index": mapping("index", ["path": #""i.html""#]),
      ])
    return mapping(
      "file",
      [
        "version": "1", "output": "out", "limits": mapping("limits", [:]), "defaults": mapping("defaults", [:]),
        "jobs": "{a: \(job)}", "overrides": "[\(mapping("override", ["source": "a.jpg", "zoom": "1"]))]",
      ].merging(object == "crop_table" ? ["overrides_from": mapping("crop_table", ["path": "t.csv"])] : [:]) { $1 })
      + "\n"
  }

  /// The keys an unknown-key diagnostic says are known ("expected one of the keys a, b but
  /// received the unknown key …").
  static func knownKeys(in message: String) -> [String]? {
    guard let start = message.range(of: "one of the keys "),
      let end = message.range(of: " but received the unknown key")
    else { return nil }
    return message[start.upperBound..<end.lowerBound].components(separatedBy: ", ")
  }

  func testSchemaDefaultsAreTheDecodersDefaults() {
    func defaultValue(_ object: SchemaObject, _ key: String) -> SchemaJSON? { object.field(key)?.defaultValue }
    let place = PlaceSpec()
    XCTAssertEqual(defaultValue(JobSchema.place, "fit"), .string(place.fit.rawValue))
    XCTAssertEqual(defaultValue(JobSchema.place, "zoom"), .int(Int(place.zoom)))
    XCTAssertEqual(defaultValue(JobSchema.place, "rotate"), .int(Int(place.rotate)))
    XCTAssertEqual(defaultValue(JobSchema.place, "offset"), [.int(Int(place.offset.x)), .int(Int(place.offset.y))])
    XCTAssertEqual(defaultValue(JobSchema.place, "focus"), "centre")
    XCTAssertEqual(place.focus, .named(.centre))
    XCTAssertEqual(defaultValue(JobSchema.place, "overflow"), .string(place.overflow.rawValue))
    XCTAssertEqual(defaultValue(JobSchema.place, "upscale"), .bool(place.upscale))
    XCTAssertEqual(defaultValue(JobSchema.place, "flip"), "none")
    XCTAssertFalse(place.flipHorizontal || place.flipVertical)
    let options = EncodeOptions(format: .jpeg)
    // Quality's default is the format's (issue 40): no one default, each named in the description.
    XCTAssertNil(defaultValue(JobSchema.encode, "quality"))
    XCTAssertEqual(options.quality, 80)
    for format in [OutputFormat.jpeg, .webp, .avif, .heif, .jxl, .png] {
      XCTAssertEqual(EncodeOptions(format: format).quality, format.defaultQuality)
      XCTAssertTrue(
        JobSchema.encode.field("quality")?.description.contains("\(format.rawValue) \(format.defaultQuality)") == true,
        "\(format)")
    }
    XCTAssertEqual(defaultValue(JobSchema.encode, "compression"), .int(options.compression))
    XCTAssertEqual(defaultValue(JobSchema.encode, "lossless"), .bool(options.lossless))
    XCTAssertEqual(defaultValue(JobSchema.encode, "progressive"), .bool(options.progressive))
    XCTAssertEqual(defaultValue(JobSchema.encode, "palette"), .bool(options.palette))
    XCTAssertEqual(
      defaultValue(JobSchema.encode, "min_quality"), .int(EncodeSpec(options: options, maxBytes: nil).minQuality))
    let limits = InputLimits()
    XCTAssertEqual(defaultValue(JobSchema.limits, "max_pixels"), .int(limits.maxPixels))
    XCTAssertEqual(defaultValue(JobSchema.limits, "max_file_bytes"), .int(limits.maxFileBytes))
    XCTAssertEqual(defaultValue(JobSchema.limits, "max_pages"), .int(limits.maxPages))
    XCTAssertEqual(defaultValue(JobSchema.guide, "shape"), "rect")
    XCTAssertEqual(defaultValue(JobSchema.output, "metadata"), .string(MetadataPolicy.strip.description))
  }

  func testEverythingFixtureUsesEveryKeyTheSchemaLists() throws {
    let text = try String(contentsOf: Self.fixtures.appendingPathComponent("valid/everything.yaml"), encoding: .utf8)
    var keys = Set<String>()
    func collect(_ node: YAMLNode) {
      switch node.value {
      case .scalar: break
      case .sequence(let items): items.forEach(collect)
      case .mapping(let pairs):
        for pair in pairs {
          keys.insert(pair.key.scalar ?? "")
          collect(pair.value)
        }
      }
    }
    collect(try XCTUnwrap(YAMLParser.parse(text)))
    for object in JobSchema.objects {
      XCTAssertEqual(Set(object.keys).subtracting(keys), [], "\(object.name) keys missing from everything.yaml")
    }
  }

  // MARK: - The printed schema

  func testSchemaShape() throws {
    let data = Data(JobSchema.text.utf8)
    let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(root["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
    XCTAssertEqual(root["required"] as? [String], ["version", "output", "jobs"])
    XCTAssertEqual(root["additionalProperties"] as? Bool, false)
    let defs = try XCTUnwrap(root["$defs"] as? [String: Any])
    for object in JobSchema.objects.dropFirst() {
      let def = try XCTUnwrap(defs[object.name] as? [String: Any], object.name)
      XCTAssertEqual(def["additionalProperties"] as? Bool, false, object.name)
      let properties = try XCTUnwrap(def["properties"] as? [String: [String: Any]])
      XCTAssertEqual(Set(properties.keys), Set(object.keys))
      for (key, property) in properties {
        XCTAssertFalse((property["description"] as? String ?? "").isEmpty, "\(object.name).\(key) has no description")
      }
    }
    let focus = try XCTUnwrap(defs["focus"] as? [String: Any])
    XCTAssertEqual((focus["oneOf"] as? [Any])?.count, 3)
  }

  func testCommittedSchemaFileIsCurrent() throws {
    let committed = TestPaths.repoRoot.appendingPathComponent("docs/job-file.schema.json")
    let text = try String(contentsOf: committed, encoding: .utf8)
    XCTAssertEqual(
      text, JobSchema.text, "docs/job-file.schema.json is stale: run `cropjob schema > docs/job-file.schema.json`")
  }

  // MARK: - An independent validator

  func testJobFilesAndValidFixturesPassTheSchemaAndTheDecoder() throws {
    let files =
      try Self.yamlFiles(in: TestPaths.jobs) + Self.yamlFiles(in: Self.fixtures.appendingPathComponent("valid"))
    XCTAssertGreaterThanOrEqual(files.count, 3)
    for file in files {
      XCTAssertEqual(JobFileLoader.load(path: file).diagnostics.map(\.description), [], file)
    }
    let verdicts = try schemaVerdicts(files)
    for file in files {
      XCTAssertEqual(verdicts[file]?.valid, true, "\(file): \(verdicts[file]?.errors ?? [])")
    }
  }

  /// Each fixture says what the decoder reports (`# expect: line:column: …`) and whether
  /// the schema rejects it too (`# schema: rejects`) or cannot see the mistake (`# schema:
  /// accepts (why)`).
  func testInvalidFixturesDecoderAndSchemaAgree() throws {
    let files = try Self.yamlFiles(in: Self.fixtures.appendingPathComponent("invalid"))
    XCTAssertGreaterThanOrEqual(files.count, 30)
    var schemaRejects: [String: Bool] = [:]
    for file in files {
      let text = try String(contentsOfFile: file, encoding: .utf8)
      let lines = text.split(separator: "\n").map(String.init)
      let expected = lines.filter { $0.hasPrefix("# expect: ") }.map { $0.dropFirst("# expect: ".count) }.map(
        String.init)
      let schema = try XCTUnwrap(lines.first { $0.hasPrefix("# schema: ") }, "\(file) has no # schema: line")
      XCTAssertFalse(expected.isEmpty, "\(file) has no # expect: lines")
      let result = JobFileLoader.load(path: file)
      XCTAssertNil(result.jobFile, file)
      XCTAssertEqual(result.diagnostics.map { String($0.description.dropFirst(file.count + 1)) }, expected, file)
      schemaRejects[file] = schema.hasPrefix("# schema: rejects")
      XCTAssertTrue(schemaRejects[file]! || schema.hasPrefix("# schema: accepts ("), "\(file): \(schema)")
    }
    let rejected = schemaRejects.values.filter { $0 }.count
    XCTAssertGreaterThanOrEqual(rejected, files.count * 2 / 3, "most mistakes should be visible to editors")
    let verdicts = try schemaVerdicts(files)
    for (file, rejects) in schemaRejects {
      XCTAssertEqual(verdicts[file]?.valid, !rejects, "\(file): schema says \(verdicts[file]?.errors ?? [])")
    }
  }

  /// For every integer and number field: the bounds are accepted and one step beyond them is
  /// refused, by the decoder and by the schema alike.
  func testRangesAgreeAtTheirBounds() throws {
    let folder = TestPaths.scratch()
    var cases: [(file: String, accepted: Bool, what: String)] = []
    for object in JobSchema.objects {
      for field in object.fields {
        let bounds: [(String, Bool)]
        switch field.type {
        case .integer(let range):
          let low =
            object.name == "encode" && field.name == "effort"
            ? JobSchema.effortRange(Self.rangeFormat).lowerBound : range.lowerBound
          bounds = [
            (String(low), true), (String(range.upperBound), true), (String(range.lowerBound - 1), false),
            (String(range.upperBound + 1), false),
          ]
        case .number(let range):
          let step = max(1e-6, (range.upperBound - range.lowerBound) * 1e-6)
          bounds = [
            (NodeReader.format(range.lowerBound), true), (NodeReader.format(range.upperBound), true),
            (String(range.lowerBound - step), false), (String(range.upperBound + step), false),
          ]
        default: continue
        }
        for (value, accepted) in bounds {
          guard let text = Self.jobFile(object: object.name, key: field.name, value: value) else { continue }
          let url = folder.appendingPathComponent("\(object.name)-\(field.name)-\(cases.count).yaml")
          try text.write(to: url, atomically: true, encoding: .utf8)
          cases.append((url.path, accepted, "\(object.name).\(field.name): \(value)"))
        }
      }
    }
    XCTAssertGreaterThanOrEqual(cases.count, 4 * 18)
    for c in cases {
      let result = JobFileLoader.load(path: c.file)
      XCTAssertEqual(!result.diagnostics.hasErrors, c.accepted, "decoder, \(c.what): \(result.diagnostics)")
    }
    let verdicts = try schemaVerdicts(cases.map(\.file))
    for c in cases {
      XCTAssertEqual(verdicts[c.file]?.valid, c.accepted, "schema, \(c.what): \(verdicts[c.file]?.errors ?? [])")
    }
  }

  /// A valid job file with `key: value` in the mapping `object`.
  static func jobFile(object: String, key: String, value: String) -> String? {
    var limits = ""
    var guide = "{shape: square, size: 100}"
    var place = "{}"
    var output = "path: \"{stem}@{scale}x.\(rangeFormat.fileExtension)\""
    var encode = "{}"
    switch object {
    case "limits": limits = "limits: {\(key): \(value)}\n"
    case "guide": guide = "{shape: square, \(key): \(value)}"
    case "place": place = "{\(key): \(value)}"
    case "crop":
      var crop = ["x": "0", "y": "0", "width": "10", "height": "10"]
      crop[key] = value
      place = "{crop: {" + crop.keys.sorted().map { "\($0): \(crop[$0]!)" }.joined(separator: ", ") + "}}"
    case "output": output += ", \(key): \(key == "size" ? value : "[\(value)]")"
    case "encode": encode = key == "min_quality" ? "{\(key): \(value), quality: 100}" : "{\(key): \(value)}"
    default: return nil
    }
    return """
      version: 1
      output: out
      \(limits)jobs:
        a:
          sources: a.jpg
          guide: \(guide)
          place: \(place)
          outputs: [{\(output), encode: \(encode)}]

      """
  }

  /// A format whose effort range is the widest the schema allows (0...9): AVIF. The loader's
  /// default (`FormatAvailability.unchecked`) accepts it whether or not this machine writes it.
  static var rangeFormat: OutputFormat { .avif }

  // MARK: - The reference

  /// Field names in the tables of docs/job-file.md whose header starts with `| field |`.
  static func documentedFields() throws -> (fields: [String], placeholders: [String]) {
    let doc = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/job-file.md"), encoding: .utf8)
    var fields: [String] = []
    var placeholders: [String] = []
    var table: String? = nil
    for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        table = nil
        continue
      }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let first = cells.first else { continue }
      if table == nil {
        table = first
        continue
      }
      guard first.hasPrefix("`"), first.hasSuffix("`") else { continue }
      let name = String(first.dropFirst().dropLast())
      if table == "field" { fields.append(name) }
      if table == "placeholder" { placeholders.append(name) }
    }
    return (fields, placeholders)
  }

  func testReferenceDocumentsEveryFieldAndNothingElse() throws {
    let documented = try Self.documentedFields().fields
    let schema = JobSchema.objects.flatMap { object in
      object.keys.map { object.name == "file" ? $0 : "\(object.name).\($0)" }
    }
    XCTAssertEqual(Set(schema).subtracting(documented).sorted(), [], "in the schema but not in docs/job-file.md")
    XCTAssertEqual(Set(documented).subtracting(schema).sorted(), [], "in docs/job-file.md but not in the schema")
    XCTAssertEqual(documented.count, Set(documented).count, "documented twice")
  }

  func testReferenceDocumentsEveryPlaceholder() throws {
    let documented = try Self.documentedFields().placeholders
    XCTAssertEqual(documented, JobSchema.placeholders.map { "{\($0.name)}" })
  }
}
