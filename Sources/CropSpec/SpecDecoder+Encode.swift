extension SpecDecoder {
  // MARK: Encode and metadata

  mutating func encode(
    _ e: [String: Inherited], own: Set<String>, extension ext: String, mark: SourceMark, field: String
  ) -> EncodeSpec? {
    let implied = JobSchema.extensionFormats[ext]
    var format = implied ?? .jpeg
    var ok = true
    if let f = e["format"] {
      if let v = reader.choice(f.node, f.field, OutputFormat.self, aliases: JobSchema.formatAliases) {
        format = v
        if let implied, implied != format {
          reader.error(
            f.node.mark, f.field,
            Diagnostic.expected(
              "a format that agrees with the path's extension .\(ext) (\(implied.rawValue))", received: format.rawValue)
          )
          ok = false
        }
      } else {
        return nil
      }
    }
    if !canWrite(format) {
      reader.error(
        e["format"]?.node.mark ?? mark, e["format"]?.field ?? join(field, "format"),
        Diagnostic.expected(
          "a format this build of libvips can write (\((probedFormats ?? []).map(\.rawValue).joined(separator: ", ")))",
          received: format.rawValue))
      ok = false
    }
    var options = EncodeOptions(format: format)
    var spec = EncodeSpec(options: options, maxBytes: nil)
    func int(_ key: String) -> Int? {
      guard let entry = e[key] else { return nil }
      let value = reader.int(entry.node, entry.field, JobSchema.encode[key], for: format)
      if value == nil { ok = false }
      return value
    }
    func bool(_ key: String) -> Bool? {
      guard let entry = e[key] else { return nil }
      let value = reader.bool(entry.node, entry.field)
      if value == nil { ok = false }
      return value
    }
    if let v = int("quality") { options.quality = v }
    if let v = bool("lossless") { options.lossless = v }
    if let v = int("effort") { options.effort = v }
    if let v = bool("progressive") { options.progressive = v }
    if let s = e["subsample"] {
      let values: [String: Bool?] = ["auto": nil, "4:2:0": true, "4:4:4": false]
      if case .scalar(let text, _) = s.node.value, let v = values[text] {
        options.chromaSubsampling = v
      } else {
        reader.expected(s.node, s.field, "one of " + JobSchema.subsampleNames.joined(separator: ", "))
        ok = false
      }
    }
    if let v = int("compression") { options.compression = v }
    if let v = bool("palette") { options.palette = v }
    if let v = int("max_bytes"), let entry = e["max_bytes"] {
      spec.maxBytes = v
      if let problem = JobSchema.budgetProblem(format, palette: options.palette, lossless: options.lossless) {
        reader.error(
          entry.node.mark, entry.field,
          Diagnostic.expected(
            "a lossy format for a byte budget (jpeg, webp, avif, heif, jxl, or png with palette: true)",
            received: problem))
        ok = false
      }
    }
    if let v = int("min_quality") { spec.minQuality = v }
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) -> E? where E.RawValue == String {
      guard let entry = e[key] else { return nil }
      let value = reader.choice(entry.node, entry.field, type)
      if value == nil { ok = false }
      return value
    }
    if let v = choice("over_budget", OverBudget.self) { spec.overBudget = v }
    if let v = choice("colour", ColourPolicy.self) { spec.colour = v }
    if let v = choice("frames", FramesPolicy.self), let entry = e["frames"] {
      spec.frames = v
      // An output's own `frames: all` needs a format that animates; an inherited one leaves
      // the outputs that cannot animate at the first frame (docs/job-file.md, "Animations").
      if v == .all && !format.animates {
        spec.frames = .first
        if own.contains("frames") {
          let animating = OutputFormat.allCases.filter(\.animates).map(\.rawValue).joined(separator: " or ")
          reader.error(
            entry.node.mark, entry.field,
            Diagnostic.expected(
              "frames: first, or a format that animates (\(animating)) for frames: all",
              received: "frames: all on a \(format.rawValue) output, which holds one still image"))
          ok = false
        }
      }
    }
    if let t = e["target"] {
      if let target = qualityTarget(t.node, t.field) {
        // Lossless output has no quality to search: the target does nothing (said where it is the
        // output's own).
        if options.lossless {
          if own.contains("target") {
            reader.warning(
              t.node.mark, t.field,
              Diagnostic.expected("a lossy output for a quality target", received: "lossless (target does nothing)"))
          }
        } else if spec.frames == .all {
          // The score reads one still image: an animation is written at `quality`.
          if own.contains("target") {
            reader.warning(
              t.node.mark, t.field,
              Diagnostic.expected(
                "a still output for a quality target", received: "frames: all (target does nothing)"))
          }
        } else {
          spec.target = target
        }
      } else {
        ok = false
      }
    }
    if spec.overBudget == .shrink, spec.maxBytes == nil, own.contains("over_budget"), let entry = e["over_budget"] {
      reader.warning(
        entry.node.mark, entry.field,
        Diagnostic.expected("max_bytes beside over_budget: shrink", received: "no max_bytes (over_budget does nothing)")
      )
    }
    if spec.maxBytes != nil || spec.target != nil, spec.minQuality > options.quality {
      if let entry = e["min_quality"] {
        reader.error(
          entry.node.mark, entry.field,
          Diagnostic.expected(
            "min_quality at most quality (\(options.quality))", received: "min_quality \(spec.minQuality)"))
      } else {
        let entry = e["quality"]
        reader.error(
          entry?.node.mark ?? mark, entry?.field ?? join(field, "quality"),
          Diagnostic.expected(
            "quality at least min_quality (\(spec.minQuality) by default) for "
              + (spec.maxBytes != nil ? "a byte budget" : "a quality target"),
            received: "quality \(options.quality)"))
      }
      ok = false
    }
    // Keys of the output's own encode that do nothing for its format (inherited ones are
    // meant for other formats too).
    let erroneous = Set(
      reader.diagnostics.filter { $0.severity == .error }.map { SourceMark(line: $0.line, column: $0.column) })
    for key in own.sorted() {
      guard let entry = e[key], let formats = JobSchema.encode.field(key)?.formats, !erroneous.contains(entry.node.mark)
      else { continue }
      let pngQuality = format == .png && !options.palette && (key == "quality" || key == "min_quality")
      guard !formats.contains(format) || pngQuality else { continue }
      let applies = pngQuality ? "png only with palette: true" : formats.map(\.rawValue).joined(separator: ", ")
      reader.warning(
        entry.node.mark, entry.field,
        Diagnostic.expected(
          "a setting that \(format.rawValue) output uses", received: "\(key), which applies to \(applies)"))
    }
    spec.options = options
    return ok ? spec : nil
  }

  /// `encode.target`: `{ssim: 0…1}`.
  mutating func qualityTarget(_ node: YAMLNode, _ field: String) -> QualityTarget? {
    guard let e = reader.mapping(node, field, known: JobSchema.target.keys) else { return nil }
    guard let n = e["ssim"] else {
      reader.error(
        node.mark, join(field, "ssim"), Diagnostic.missing("ssim", "the score to reach, e.g. target: {ssim: 0.98}"))
      return nil
    }
    guard let ssim = reader.double(n, join(field, "ssim"), JobSchema.target["ssim"].type) else { return nil }
    return QualityTarget(ssim: ssim)
  }

  /// `strip`, `keep`, or a list of kinds to keep, held to the table's list rule (no kind
  /// twice; an empty list keeps nothing, as `strip`).
  mutating func metadataPolicy(_ node: YAMLNode, _ field: String) -> MetadataPolicy? {
    let named = JobSchema.namedMetadataPolicies
    let kinds = MetadataPolicy.Kind.allCases.map(\.rawValue)
    let rule = JobSchema.output["metadata"].list
    let expected = named.map(\.description).joined(separator: ", ") + " or a list of: " + kinds.joined(separator: ", ")
    switch node.value {
    case .scalar(let text, _):
      if let policy = named.first(where: { $0.description == text }) { return policy }
      reader.error(
        node.mark, field,
        Diagnostic.expected(expected, received: NodeReader.describe(node))
          + Suggestion.didYouMean(text, in: named.map(\.description) + kinds))
      return nil
    case .sequence(let items):
      if items.count < rule.minItems {
        reader.expected(node, field, "at least \(rule.minItems) of: " + kinds.joined(separator: ", "))
        return nil
      }
      var kept = Set<MetadataPolicy.Kind>()
      var seen: [MetadataPolicy.Kind: Int] = [:]
      for (i, item) in items.enumerated() {
        guard let kind = reader.choice(item, field + "[\(i)]", MetadataPolicy.Kind.self) else { return nil }
        if rule.unique && !reader.distinct(kind, item, field, index: i, seen: &seen) { return nil }
        kept.insert(kind)
      }
      return MetadataPolicy(kept: kept)
    case .mapping:
      reader.expected(node, field, expected)
      return nil
    }
  }

  /// An encode mapping that names its format is held to that format's ranges where it is
  /// written, as the schema holds it: `defaults.encode: {format: webp, effort: 9}` is an
  /// error even when the outputs that inherit it take another format from their paths. A
  /// value outside every format's range is reported where it is used, as any other.
  mutating func checkFormatRanges(_ e: [String: YAMLNode], _ field: String) {
    guard let node = e["format"], case .scalar(let name, _) = node.value,
      let format = OutputFormat(rawValue: name) ?? JobSchema.formatAliases[name]
    else { return }
    for entry in JobSchema.encode.fields where !entry.formatRanges.isEmpty {
      guard let n = e[entry.name], let value = NodeReader.plainText(n).flatMap(NodeReader.wholeValue),
        entry.type.integerRange?.contains(value) == true
      else { continue }
      _ = reader.int(n, join(field, entry.name), entry, for: format)
    }
  }
}
