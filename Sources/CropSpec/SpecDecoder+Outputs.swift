import CropGeometry
import CropSupport

extension SpecDecoder {
  // MARK: Outputs

  /// One output entry; `paths` holds the index of each template the job's outputs use.
  mutating func output(
    _ node: YAMLNode, _ field: String, settings: Settings, guide: Guide?, paths: inout [String: Int], index: Int
  ) -> OutputSpec? {
    guard let e = reader.mapping(node, field, known: Self.outputKeys, what: Self.outputWhat) else { return nil }
    var ok = true
    var template: String? = nil
    if let pathNode = e["path"] {
      template = reader.string(pathNode, join(field, "path"), what: "a path template such as \"{stem}.jpg\"")
      if let t = template {
        ok = checkTemplate(t, node: pathNode, field: join(field, "path")) && ok
        if let first = paths[t] {
          reader.error(
            pathNode.mark, join(field, "path"),
            Diagnostic.expected(
              "a path template unlike the other outputs' (else both write the same files)",
              received: "the same template as outputs[\(first)]: \"\(t)\""))
          ok = false
        } else {
          paths[t] = index
        }
      } else {
        ok = false
      }
    } else {
      reader.error(node.mark, join(field, "path"), Diagnostic.missing("path", "a path template such as \"{stem}.jpg\""))
      ok = false
    }
    let sizeKeys = ["size", "scales", "widths"].filter { e[$0] != nil }
    if sizeKeys.count > 1 {
      reader.error(
        e[sizeKeys[1]]!.mark, join(field, sizeKeys[1]),
        Diagnostic.expected("one of size, scales and widths", received: sizeKeys.joined(separator: " and ")))
      ok = false
    }
    var sizes = OutputSizes.scales(JobSchema.output["scales"].defaultNumbers)
    var sizeNodes: [YAMLNode] = []
    if let n = e["size"] {
      if let v = reader.int(n, join(field, "size"), JobSchema.output["size"].type) {
        sizes = .widths([v])
        sizeNodes = [n]
      } else {
        ok = false
      }
    } else if let n = e["scales"] {
      let rule = JobSchema.output["scales"].list
      if let values = numbers(
        n, join(field, "scales"), rule, what: "scales such as [1, 2, 3]", { $0.double($1, $2, rule.item) })
      {
        sizes = .scales(values.map(\.0))
        sizeNodes = values.map(\.1)
      } else {
        ok = false
      }
    } else if let n = e["widths"] {
      let rule = JobSchema.output["widths"].list
      if let values = numbers(
        n, join(field, "widths"), rule, what: "pixel widths such as [320, 640]", { $0.int($1, $2, rule.item) })
      {
        sizes = .widths(values.map(\.0))
        sizeNodes = values.map(\.1)
      } else {
        ok = false
      }
    }
    let count: Int
    switch sizes {
    case .scales(let s): count = s.count
    case .widths(let w): count = w.count
    }
    if count > 1, let t = template, let pathNode = e["path"],
      !JobSchema.sizePlaceholders.contains(where: { t.contains("{\($0)}") })
    {
      reader.error(
        pathNode.mark, join(field, "path"),
        Diagnostic.expected(
          "{width}, {height} or {scale} in the path (\(count) sizes would be written to the same file)",
          received: "\"\(t)\""))
      ok = false
    }
    if let guide { ok = checkOutputSizes(sizes, nodes: sizeNodes, guide: guide, field: field, e: e) && ok }
    var encodeEntries = settings.encode
    let ext = template.map { PathText.pathExtension($0).lowercased() } ?? ""
    if JobSchema.extensionFormats[ext] != nil {
      // The path's extension wins over an inherited format; only the output's own clashes.
      encodeEntries["format"] = nil
    }
    var own = Set<String>()
    if let n = e["encode"], let entries = reader.mapping(n, join(field, "encode"), known: Self.encodeKeys) {
      for (key, value) in entries {
        encodeEntries[key] = Inherited(node: value, field: join(join(field, "encode"), key))
        own.insert(key)
      }
    }
    if let t = template, let pathNode = e["path"] {
      checkExtension(
        ext, template: t, hasFormat: encodeEntries["format"] != nil, node: pathNode, field: join(field, "path"))
    }
    let encode = self.encode(
      encodeEntries, own: own, extension: ext, mark: e["path"]?.mark ?? node.mark, field: join(field, "encode"))
    if encode == nil { ok = false }
    var metadata = JobSchema.output["metadata"].defaultMetadata
    if let n = e["metadata"] {
      if let v = metadataPolicy(n, join(field, "metadata")) { metadata = v } else { ok = false }
    } else if let inherited = settings.metadata {
      if let v = metadataPolicy(inherited.node, inherited.field) { metadata = v } else { ok = false }
    }
    var placeholders: PlaceholderSpec? = nil
    if let n = e["placeholders"] {
      if let v = placeholderSpec(n, join(field, "placeholders")) { placeholders = v } else { ok = false }
    } else if let inherited = settings.placeholders {
      if let v = placeholderSpec(inherited.node, inherited.field) { placeholders = v } else { ok = false }
    }
    var cacheControl: String? = nil
    if let n = e["cache_control"] {
      cacheControl = reader.string(n, join(field, "cache_control"), what: "a Cache-Control value")
      if cacheControl == nil { ok = false }
    }
    guard ok, let template, let encode else { return nil }
    return OutputSpec(
      pathTemplate: template, sizes: sizes, encode: encode, metadata: metadata, mark: node.mark,
      placeholders: placeholders?.kinds.isEmpty == false ? placeholders : nil, cacheControl: cacheControl)
  }

  /// A list of values, each read by `read`, as many and as distinct as `rule` asks (a
  /// non-empty list of distinct values).
  mutating func numbers<T: Hashable>(
    _ node: YAMLNode, _ field: String, _ rule: ListRule, what: String,
    _ read: (inout NodeReader, YAMLNode, String) -> T?
  ) -> [(T, YAMLNode)]? {
    guard let items = reader.list(node, field, what: "a list of \(what)") else { return nil }
    if items.count < rule.minItems {
      reader.expected(node, field, "a non-empty list of \(what)")
      return nil
    }
    var values: [(T, YAMLNode)] = []
    var seen: [T: Int] = [:]
    var ok = true
    for (index, item) in items.enumerated() {
      guard let value = read(&reader, item, "\(field)[\(index)]") else {
        ok = false
        continue
      }
      if rule.unique && !reader.distinct(value, item, field, index: index, seen: &seen) {
        ok = false
        continue
      }
      values.append((value, item))
    }
    return ok ? values : nil
  }

  /// Each size's nominal pixel size must lie in 1...maxSide.
  mutating func checkOutputSizes(
    _ sizes: OutputSizes, nodes: [YAMLNode], guide: Guide, field: String, e: [String: YAMLNode]
  ) -> Bool {
    let gw = Double(guide.size.width)
    let gh = Double(guide.size.height)
    let pixels: [(Double, Double, String)]
    switch sizes {
    case .scales(let scales): pixels = scales.map { (gw * $0, gh * $0, "scale \(NodeReader.format($0))") }
    case .widths(let widths): pixels = widths.map { (Double($0), Double($0) * gh / gw, "width \($0)") }
    }
    var ok = true
    let key = ["size", "scales", "widths"].first { e[$0] != nil } ?? "size"
    for (index, ((w, h, what), node)) in zip(pixels, nodes).enumerated() {
      let size = PixelSize(width: Int(w.rounded()), height: Int(h.rounded()))
      guard size.width < 1 || size.height < 1 || size.width > JobSchema.maxSide || size.height > JobSchema.maxSide
      else { continue }
      reader.error(
        node.mark, join(field, key) + (key == "size" ? "" : "[\(index)]"),
        Diagnostic.expected(
          "an output of 1 to \(JobSchema.maxSide) pixels a side",
          received: "\(what) of a \(guide.size.width)x\(guide.size.height) guide, giving \(size.width)x\(size.height)"))
      ok = false
    }
    return ok
  }

  /// Placeholders must exist; the template must be a relative path.
  mutating func checkTemplate(_ template: String, node: YAMLNode, field: String) -> Bool {
    var ok = true
    if template.hasPrefix("/") {
      reader.error(
        node.mark, field,
        Diagnostic.expected("a path relative to the output root", received: "the absolute path \"\(template)\""))
      ok = false
    }
    if template.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
      reader.error(
        node.mark, field,
        Diagnostic.expected("a path inside the output root", received: "\"\(template)\", whose \"..\" leaves it"))
      ok = false
    }
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else {
        reader.error(node.mark, field, Diagnostic.expected("a \"}\" closing each \"{\"", received: "\"\(template)\""))
        return false
      }
      let name = String(rest[rest.index(after: open)..<close])
      if !Self.placeholders.contains(name) {
        reader.error(
          node.mark, field,
          Diagnostic.expected(
            "a placeholder among " + Self.placeholders.map { "{\($0)}" }.joined(separator: " "), received: "{\(name)}")
            + Suggestion.didYouMean(name, in: Self.placeholders))
        ok = false
      }
      rest = rest[rest.index(after: close)...]
    }
    if !template.contains("{stem}") && !template.contains("{name}") {
      reader.error(
        node.mark, field,
        Diagnostic.expected(
          "{stem} or {name} in the path (else every photo is written to the same file)", received: "\"\(template)\""))
      ok = false
    }
    return ok
  }

  /// Warns when the file name's extension does not say what is written.
  mutating func checkExtension(_ ext: String, template: String, hasFormat: Bool, node: YAMLNode, field: String) {
    let known = JobSchema.extensionFormats.keys.sorted()
    let name = PathText.lastComponent(template)
    if ext.isEmpty || !name.contains(".") {
      reader.warning(
        node.mark, field,
        Diagnostic.expected("a file extension such as .jpg, .png or .{format}", received: "\"\(template)\" without one")
      )
    } else if ext == "{ext}" {
      reader.warning(
        node.mark, field,
        Diagnostic.expected(
          ".{format} or a format's extension (the source's extension does not choose the output format)",
          received: "\"\(template)\""))
    } else if !ext.contains("{") && JobSchema.extensionFormats[ext] == nil {
      reader.warning(
        node.mark, field,
        Diagnostic.expected(
          "the extension of a format cropjob writes (\(known.joined(separator: ", ")))", received: ".\(ext)")
          + (hasFormat ? "" : "; writing jpeg") + Suggestion.didYouMean(ext, in: known))
    }
  }
}
