import CropSpec
import Foundation
import TestSupport
import XCTest

/// Wrong (and some right) job files, made from the table field by field and by hand for the
/// rules the table shares between the decoder and the schema, get one verdict from both. The
/// cases on which they differ are exactly those docs/job-file.md lists under "Where the
/// schema and the decoder differ", each named there by its id.
extension JobSchemaAgreementTests {
  struct Variant {
    var id: String
    var file: String
  }

  func testWrongVariantsGetTheSameVerdictFromSchemaAndDecoder() throws {
    var variants: [Variant] = []
    for object in JobSchema.objects {
      for field in object.fields {
        for (n, value) in Self.values(field.type).enumerated() {
          for (place, text) in Self.placed(object.name, field.name, value) {
            variants.append(Variant(id: "\(object.name).\(field.name) = \(value) (\(place), \(n))", file: text))
          }
        }
      }
    }
    variants += Self.handCases.map { Variant(id: $0.0, file: $0.1) }
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    var paths: [String] = []
    var decoder: [String: Bool] = [:]
    for (i, variant) in variants.enumerated() {
      let url = folder.appendingPathComponent("v\(i).yaml")
      try variant.file.write(to: url, atomically: true, encoding: .utf8)
      paths.append(url.path)
      decoder[url.path] = !JobFileLoader.load(path: url.path).diagnostics.hasErrors
    }
    let refused = decoder.values.filter { !$0 }.count
    print("\(variants.count) variants, \(refused) refused by the decoder")
    XCTAssertGreaterThanOrEqual(refused, 80, "wrong variants")
    XCTAssertGreaterThanOrEqual(decoder.count - refused, 20, "right variants")
    let schema = try Self.schemaVerdicts(paths)
    let documented = try Self.documentedDifferences()
    var differing: Set<String> = []
    for (variant, path) in zip(variants, paths) {
      let verdicts = (decoder: decoder[path]!, schema: try XCTUnwrap(schema[path]?.valid))
      guard verdicts.decoder != verdicts.schema else { continue }
      let id = variant.id.split(separator: " ").first.map(String.init) ?? variant.id
      differing.insert(id)
      XCTAssertTrue(
        documented.contains(id),
        "\(variant.id): decoder \(verdicts.decoder ? "accepts" : "refuses"), schema "
          + "\(verdicts.schema ? "accepts" : "refuses"): \(schema[path]!.errors)\n\(variant.file)")
    }
    // Each documented difference is shown by a case here, so the list stays exact.
    XCTAssertEqual(differing.intersection(documented), documented)
  }

  /// The ids listed in docs/job-file.md, "Where the schema and the decoder differ": lines
  /// `- \`id\`: reason`.
  static func documentedDifferences() throws -> Set<String> {
    let text = try String(
      contentsOf: TestPaths.repoRoot.appendingPathComponent("docs/job-file.md"), encoding: .utf8)
    let section = try XCTUnwrap(
      text.components(separatedBy: "### Where the schema and the decoder differ\n").dropFirst().first)
    let lines = section.components(separatedBy: "\n#")[0].split(separator: "\n")
    return Set(
      lines.compactMap { line in
        guard line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
        return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
      })
  }

  /// Values of a type: wrong ones first, then right ones, as YAML flow text.
  static func values(_ type: SchemaType) -> [String] {
    switch type {
    case .integer(let range):
      let inside = min(max(range.lowerBound, 7), range.upperBound)
      return [
        String(range.lowerBound - 1), String(range.upperBound + 1), "1.5", "\"\(inside)\"", "0\(inside)", "yes",
        String(range.lowerBound), String(range.upperBound), grouped(range.upperBound),
      ]
    case .number(let range):
      let inside = min(max(range.lowerBound, 1), range.upperBound)
      var values = [
        NodeReader.format(range.lowerBound - 1), NodeReader.format(range.upperBound + 1),
        "\"\(NodeReader.format(inside))\"", "0\(NodeReader.format(inside))", "no", "1_000.5",
        NodeReader.format(range.lowerBound), NodeReader.format(range.upperBound),
      ]
      if range.contains(1000) { values.append("1_000") }
      return values
    case .boolean: return ["yes", "1", "\"true\"", "true", "false"]
    case .constant(let value): return [String(value + 1), "\"\(value)\"", String(value)]
    case .choice(let names): return ["no_such_name", "12", "[\(names[0])]", names[0]] + names.dropFirst().prefix(1)
    case .string: return ["2024", "{a: 1}"]
    case .pair: return ["[1]", "[0, 0, 0]", "[a, b]", "0", "[0, 0]"]
    case .ref(let name) where JobSchema.value(name) != nil: return values(JobSchema.value(name)!.type)
    case .ref: return ["5", "[]", "{}"]
    case .oneOf(let forms): return ["{no_such_key: 1}"] + forms.flatMap { values($0) }.filter { $0 != "{a: 1}" }
    case .list(let item, _, _, _): return ["[]", "{a: 1}"] + values(item).prefix(2).map { "[\($0)]" }
    case .ordered(let list, _): return values(list)
    case .map: return ["[]", "{}", "{\"bad name\": {}}"]
    }
  }

  /// `30_000` for 30000 (an integer with grouped digits); the number itself below 1000.
  static func grouped(_ value: Int) -> String {
    guard value >= 1000 else { return String(value) }
    var digits = Array(String(value))
    var i = digits.count - 3
    while i > 0 {
      digits.insert("_", at: i)
      i -= 3
    }
    return String(digits)
  }

  /// Job files with `key: value` in mapping `object`, at each place it can be written.
  static func placed(_ object: String, _ key: String, _ value: String) -> [(String, String)] {
    let output = "{path: \"{stem}.jpg\"}"
    switch object {
    case "file":
      if ["version", "output", "jobs"].contains(key) {
        var top = [
          "version": "1", "output": "out", "jobs": "{a: {sources: a.jpg, guide: {size: 100}, outputs: [\(output)]}}",
        ]
        top[key] = value
        return [("top", ["version", "output", "jobs"].map { "\($0): \(top[$0]!)\n" }.joined())]
      }
      if key == "overrides_from" { return [] }  // a file the decoder opens: CropTableSettingsTests
      return [("top", job("\(key): \(value)\n"))]
    case "limits": return [("limits", job("limits: {\(key): \(value)}\n"))]
    case "defaults", "job":
      if ["sources", "exclude", "from", "allow_empty"].contains(key) {
        return [("job", job(jobs: "a: {sources: a.jpg, guide: {size: 100}, outputs: [\(output)], \(key): \(value)}"))]
      }
      return [(object, jobFile(object, key, value)!)]
    case "guide":
      let others = [
        "size": "", "width": "height: 100", "height": "width: 100", "aspect": "width: 160", "shape": "size: 100",
      ]
      let guide = "{\(key): \(value)\(others[key].map { $0.isEmpty ? "" : ", " + $0 } ?? "")}"
      return [("guide", job(jobs: "a: {sources: a.jpg, guide: \(guide), outputs: [\(output)]}"))]
    case "crop":
      var crop = ["x": "0", "y": "0", "width": "10", "height": "10"]
      crop[key] = value
      let text = ["x", "y", "width", "height", "angle"].compactMap { k in crop[k].map { "\(k): \($0)" } }
      return [("crop", jobFile("place", "crop", "{" + text.joined(separator: ", ") + "}")!)]
    case "encode":
      return ["jpg", "webp", "png"].map { ext in
        (
          ext,
          job(
            jobs:
              "a: {sources: a.jpg, guide: {size: 100}, outputs: [{path: \"{stem}.\(ext)\", encode: {\(key): \(value)}}]}"
          )
        )
      } + [("job", jobFile("job", "encode", "{\(key): \(value)}")!)]
    case "output":
      if key == "path" { return [("output", jobFile("job", "outputs", "[{path: \(value)}]")!)] }
      return [("output", jobFile("output", key, value)!)]
    case "place", "override":
      return jobFile(object, key, value).map { [(object, $0)] } ?? []
    default: return []
    }
  }

  /// A job file: `top` lines, then `jobs:` with `jobs` (one flow mapping entry per job).
  static func job(
    _ top: String = "", jobs: String = "a: {sources: a.jpg, guide: {size: 100}, outputs: [{path: \"{stem}.jpg\"}]}"
  ) -> String {
    "version: 1\noutput: out\n\(top)jobs:\n  \(jobs)\n"
  }

  /// The rules issue 28 found broken, and the documented differences, by hand: an id (the
  /// difference's name in docs/job-file.md, or a word), and the top lines or a whole job.
  static var handCases: [(String, String)] {
    let j = { (guide: String, outputs: String, extra: String) in
      "jobs:\n  a: {sources: a.jpg, guide: \(guide), outputs: [\(outputs)]\(extra)}\n"
    }
    func file(
      _ top: String, _ guide: String = "{size: 100}", _ outputs: String = "{path: \"{stem}.jpg\"}", _ extra: String = ""
    ) -> String {
      top + j(guide, outputs, extra)
    }
    var cases: [(String, String)] = [
      ("format-at-job", file("", "{size: 100}", "{path: \"{stem}.jpg\"}", ", encode: {format: bmp}")),
      ("format-at-defaults", file("defaults: {encode: {format: jpegg}}\n")),
      ("format-inline-number", file("", "{size: 100}", "{path: \"{stem}.jpg\", encode: {format: 12}}")),
      ("format-agrees", file("", "{size: 100}", "{path: \"{stem}.jpg\", encode: {format: jpg}}")),
      ("format-clashes", file("", "{size: 100}", "{path: \"{stem}.jpg\", encode: {format: png}}")),
      ("format-capitals", file("", "{size: 100}", "{path: \"{stem}.JPG\", encode: {format: webp}}")),
      (
        "focus-after-attention",
        file("", "{size: 100}", "{path: \"{stem}.jpg\"}", ", place: {focus: [faces, attention, top]}")
      ),
      (
        "focus-finders",
        file("", "{size: 100}", "{path: \"{stem}.jpg\"}", ", place: {focus: [faces, regions, [0.2, 0.3]]}")
      ),
      (
        "focus-two-points",
        file("", "{size: 100}", "{path: \"{stem}.jpg\"}", ", place: {focus: [[0.1, 0.2], [0.3, 0.4]]}")
      ),
      ("focus-finder-twice", file("", "{size: 100}", "{path: \"{stem}.jpg\"}", ", place: {focus: [faces, faces]}")),
      ("focus-point-first", file("", "{size: 100}", "{path: \"{stem}.jpg\"}", ", place: {focus: [[0.5, 0.5], faces]}")),
      ("aspect-alone", file("", "{aspect: \"16:9\"}")),
      ("aspect-both", file("", "{aspect: \"16:9\", width: 160, height: 90}")),
      ("aspect-one", file("", "{aspect: \"16:9\", height: 90}")),
      ("aspect-defaults", file("defaults: {guide: {aspect: \"4:3\"}}\n", "{shape: rect}")),
      ("square-sides", file("", "{shape: square, width: 10, height: 20}")),
      ("square-equal", file("", "{shape: circle, width: 20, height: 20}")),
      ("quality-leading-zero", file("", "{size: 100}", "{path: \"{stem}.jpg\", encode: {quality: 010}}")),
      ("crop-grouped", file("overrides: [{source: a.jpg, crop: {x: 1_000, y: 0, width: 2_000, height: 10}}]\n")),
      (
        "crop-fraction-grouped", file("overrides: [{source: a.jpg, crop: {x: 1_000.5, y: 0, width: 10, height: 10}}]\n")
      ),
      (
        "inherited-budget",
        file(
          "defaults: {encode: {palette: true}}\n", "{size: 100}", "{path: \"{stem}.png\", encode: {max_bytes: 5000}}")
      ),
      (
        "inherited-format",
        file(
          "defaults: {encode: {format: webp, effort: 5}}\n", "{size: 100}", "{path: \"{stem}\", encode: {effort: 9}}")
      ),
      (
        "inherited-format",
        file("defaults: {encode: {format: webp}}\n", "{size: 100}", "{path: \"{stem}\", encode: {frames: all}}")
      ),
      ("from-unknown-job", "jobs:\n  a: {from: b, guide: {size: 100}, outputs: [{path: \"{stem}.jpg\"}]}\n"),
      ("same-path-twice", file("", "{size: 100}", "{path: \"{stem}.jpg\"}, {path: \"{stem}.jpg\", size: 50}")),
      ("output-too-large", file("", "{width: 4000, height: 3000}", "{path: \"{stem}@{scale}x.jpg\", scales: [1, 8]}")),
      ("override-unknown-job", file("overrides: [{job: b, source: a.jpg, zoom: 2}]\n")),
      ("override-twice", file("overrides: [{source: a.jpg, zoom: 2}, {source: ./a.jpg, zoom: 3}]\n")),
    ]
    for (ext, budget) in [
      ("tif", "max_bytes: 5000"), ("TIFF", "max_bytes: 5000"), ("png", "max_bytes: 5000"),
      ("png", "max_bytes: 5000, palette: true"), ("png", "max_bytes: 5000, palette: false"),
      ("webp", "max_bytes: 5000, lossless: true"), ("webp", "max_bytes: 5000, lossless: false"),
      ("png", "max_bytes: 5000, palette: true, lossless: true"), ("avif", "max_bytes: 5000"),
    ] {
      cases.append(("budget-by-extension", file("", "{size: 100}", "{path: \"{stem}.\(ext)\", encode: {\(budget)}}")))
    }
    for (path, encode) in [
      ("{stem}.gif", "frames: all"), ("{stem}.WEBP", "frames: all"), ("{stem}.png", "frames: all"),
      ("{stem}.jpg", "frames: first"), ("{stem}.{format}", "format: gif, frames: all"),
      ("{stem}.{format}", "format: avif, frames: all"),
    ] {
      cases.append(("frames-by-format", file("", "{size: 100}", "{path: \"\(path)\", encode: {\(encode)}}")))
    }
    return cases.map { ($0.0, "version: 1\noutput: out\n" + $0.1) }
  }
}

extension JobSchemaAgreementTests {
  /// `010` is a string, as docs/job-file.md says (it was read as 10 by both): the decoder
  /// says why, and the schema refuses it too.
  func testALeadingZeroMakesAString() throws {
    let text = Self.job(
      jobs: "a: {sources: a.jpg, guide: {size: 100}, outputs: [{path: \"{stem}.jpg\", encode: {quality: 010}}]}")
    XCTAssertEqual(
      JobFileLoader.load(bytes: Array(text.utf8), path: "j.yaml").diagnostics.map(\.description),
      [
        "j.yaml:4:92: error: jobs.a.outputs[0].encode.quality: expected an integer between 1 and 100 but received the "
          + "string \"010\" (a leading zero makes it a string, as in JSON; write 10)"
      ])
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("j.yaml")
    try text.write(to: url, atomically: true, encoding: .utf8)
    XCTAssertEqual(try Self.schemaVerdicts([url.path])[url.path]?.valid, false)
  }
}
