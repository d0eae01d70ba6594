import CropStorage

extension SpecDecoder {
  /// A job's `index` mapping: its path template (relative, no `..`, ending in `.html`, with
  /// only `{job}`, `{stem}` and `{name}`), sizes, loading, decoding and base URL.
  mutating func index(_ node: YAMLNode, _ field: String) -> IndexSpec? {
    let table = JobSchema.index
    guard let entries = reader.mapping(node, field, known: table.keys) else { return nil }
    var ok = true
    var path: String? = nil
    if let entry = entries["path"] {
      indexPathMarks[field] = entry.mark
      path = reader.string(entry, join(field, "path"), what: "an index path ending in .html")
      if path == nil { ok = false }
      if let text = path, location(text, entry, join(field, "path"), use: .file(what: "an index file")) == nil {
        path = nil
      } else if let text = path, let problem = Self.indexPathProblem(text) {
        reader.error(entry.mark, join(field, "path"), problem)
        path = nil
      }
    } else {
      reader.error(node.mark, join(field, "path"), Diagnostic.missing("path", "path (the index's HTML file)"))
    }
    func text(_ key: String) -> String? {
      guard let entry = entries[key] else { return nil }
      let value = reader.string(entry, join(field, key))
      if value == nil { ok = false }
      return value
    }
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) -> E where E.RawValue == String {
      guard let entry = entries[key] else { return table[key].defaultChoice(type) }
      guard let value = reader.choice(entry, join(field, key), type) else {
        ok = false
        return table[key].defaultChoice(type)
      }
      return value
    }
    let sizes = text("sizes") ?? table["sizes"].defaultValue?.stringValue ?? ""
    let loading = choice("loading", IndexLoading.self)
    let decoding = choice("decoding", IndexDecoding.self)
    let baseURL = text("base_url")
    guard ok, let path else { return nil }
    return IndexSpec(path: path, sizes: sizes, loading: loading, decoding: decoding, baseURL: baseURL)
  }

  /// Why `template` cannot be an index path, or nil.
  static func indexPathProblem(_ template: String) -> String? {
    if template.hasPrefix("/") { return "expected a path relative to the output root but received \"\(template)\"" }
    if template.split(separator: "/").contains("..") {
      return "expected a path inside the output root but received \"\(template)\", whose \"..\" leaves it"
    }
    if !template.hasSuffix(".html") { return "expected a path ending in .html but received \"\(template)\"" }
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else { break }
      if rest[..<open].contains("}") { break }
      let name = String(rest[rest.index(after: open)..<close])
      if !IndexSpec.placeholders.contains(name) {
        return "expected a placeholder among {job} {stem} {name} but received {\(name)}"
          + Suggestion.didYouMean(name, in: IndexSpec.placeholders)
      }
      rest = rest[rest.index(after: close)...]
    }
    if rest.contains("{") || rest.contains("}") {
      return "expected placeholders written {job}, {stem} or {name} but received \"\(template)\", with a lone brace"
    }
    return nil
  }

  /// Two jobs whose index is one batch file (a path with none of `{job}`, `{stem}` and
  /// `{name}`) would write the same file: an error of the file, so that `validate` and
  /// `plan` refuse it as `run` does. Per-source paths shared by jobs are checked by the plan,
  /// which knows the sources.
  mutating func checkIndexPaths(_ jobs: [Job]) {
    var first: [String: String] = [:]
    for job in jobs {
      guard let path = job.index?.path, !path.contains("{job}"), job.index?.perSource == false else { continue }
      guard let other = first[path] else {
        first[path] = job.name
        continue
      }
      let field = "jobs.\(job.name).index"
      let mark = indexPathMarks[field] ?? indexPathMarks["defaults.index"] ?? SourceMark(line: 1, column: 1)
      reader.error(
        mark, join(field, "path"),
        Diagnostic.expected(
          "an index file of this job's own (put {job} in index.path)",
          received: "\"\(path)\", which job \(other) writes too"))
    }
  }
}
