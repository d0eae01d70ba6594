import CropGeometry
import Foundation

/// Decodes a parsed job file into typed values, collecting every problem at once.
struct SpecDecoder {
  var reader: NodeReader
  let availableFormats: [OutputFormat]

  init(file: String, availableFormats: [OutputFormat]) {
    reader = NodeReader(file: file)
    self.availableFormats = availableFormats
  }

  static let topKeys = ["version", "output", "limits", "defaults", "jobs", "overrides"]
  static let settingKeys = ["guide", "place", "outputs", "encode", "metadata"]
  static let jobKeys = ["sources", "exclude", "from"] + settingKeys
  static let guideKeys = ["shape", "size", "width", "height", "aspect"]
  static let placeKeys = ["fit", "zoom", "offset", "focus", "rotate", "flip", "crop", "overflow", "background", "upscale"]
  static let cropKeys = ["x", "y", "width", "height", "angle"]
  static let outputKeys = ["path", "size", "scales", "widths", "encode", "metadata"]
  static let encodeKeys = [
    "format", "quality", "lossless", "effort", "max_bytes", "min_quality", "progressive", "subsample", "compression",
    "palette",
  ]
  static let limitKeys = ["max_pixels", "max_file_bytes", "max_pages"]
  static let overrideKeys = ["job", "source"] + placeKeys
  /// Placeholders a path template may use.
  static let placeholders = ["job", "stem", "name", "ext", "dir", "width", "height", "scale", "format"]
  /// Place fields an exact `crop` replaces.
  static let cropExcludes = ["fit", "zoom", "focus", "offset", "rotate"]

  /// Settings inherited from `defaults` and the job, field by field.
  struct Settings {
    var guide: [String: YAMLNode] = [:]
    var guideMark = SourceMark(line: 1, column: 1)
    var place = PlaceSpec()
    var outputs: YAMLNode? = nil
    var encode: [String: YAMLNode] = [:]
    var metadata: YAMLNode? = nil
  }

  mutating func decode(root: YAMLNode?, path: String) -> JobFile? {
    guard let root else {
      reader.error(SourceMark(line: 1, column: 1), "", "the job file is empty; expected a mapping with version, output and jobs")
      return nil
    }
    guard let top = reader.mapping(root, "", known: Self.topKeys) else { return nil }
    var version = 1
    if let node = top["version"] {
      if let v = reader.int(node, "version", in: 1...1) { version = v }
    } else {
      reader.error(root.mark, "version", "missing required key \"version\" (expected version: 1)")
    }
    var outputRoot = ""
    if let node = top["output"] {
      outputRoot = reader.string(node, "output") ?? ""
    } else {
      reader.error(root.mark, "output", "missing required key \"output\" (the folder every output is written inside)")
    }
    var limits = InputLimits()
    if let node = top["limits"], let entries = reader.mapping(node, "limits", known: Self.limitKeys) {
      if let n = entries["max_pixels"], let v = reader.int(n, "limits.max_pixels", in: 1...(1 << 40)) { limits.maxPixels = v }
      if let n = entries["max_file_bytes"], let v = reader.int(n, "limits.max_file_bytes", in: 1...(1 << 40)) {
        limits.maxFileBytes = v
      }
      if let n = entries["max_pages"], let v = reader.int(n, "limits.max_pages", in: 1...100_000) { limits.maxPages = v }
    }
    var defaults = Settings()
    if let node = top["defaults"] {
      defaults = settings(node, "defaults", known: Self.settingKeys, base: defaults)
    }
    var jobs: [Job] = []
    if let node = top["jobs"], let entries = reader.orderedMapping(node, "jobs") {
      if entries.isEmpty { reader.error(node.mark, "jobs", "expected at least one job") }
      var seen: [String: SourceMark] = [:]
      for (name, jobNode, mark) in entries {
        if let first = seen[name] {
          reader.error(mark, "jobs.\(name)", "duplicate job name (first at \(first.line):\(first.column))")
          continue
        }
        seen[name] = mark
        if !Self.isValidName(name) {
          reader.error(mark, "jobs.\(name)", Diagnostic.expected("a job name of letters, digits, '-' or '_'", received: "\"\(name)\""))
        }
        if let job = self.job(name: name, node: jobNode, mark: mark, defaults: defaults) { jobs.append(job) }
      }
    } else if top["jobs"] == nil {
      reader.error(root.mark, "jobs", "missing required key \"jobs\" (a mapping of job names to jobs)")
    }
    var overrides: [Override] = []
    if let node = top["overrides"], let items = reader.list(node, "overrides") {
      for (index, item) in items.enumerated() {
        if let o = override(item, "overrides[\(index)]", jobs: jobs) { overrides.append(o) }
      }
    }
    checkJobGraph(jobs)
    let base = PathText.deletingLastComponent(path)
    return JobFile(
      path: path, baseDirectory: base.isEmpty ? "." : base, version: version, outputRoot: outputRoot, limits: limits,
      jobs: jobs, overrides: overrides)
  }

  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
  }

  // MARK: Settings shared by defaults and jobs

  mutating func settings(_ node: YAMLNode, _ field: String, known: [String], base: Settings) -> Settings {
    var result = base
    guard let entries = reader.mapping(node, field, known: known) else { return result }
    if let guide = entries["guide"], let g = reader.mapping(guide, join(field, "guide"), known: Self.guideKeys) {
      result.guide.merge(g) { _, new in new }
      result.guideMark = guide.mark
    }
    if let place = entries["place"] {
      result.place = self.place(place, join(field, "place"), base: base.place).0
    }
    if let outputs = entries["outputs"] { result.outputs = outputs }
    if let encode = entries["encode"], let e = reader.mapping(encode, join(field, "encode"), known: Self.encodeKeys) {
      result.encode.merge(e) { _, new in new }
    }
    if let metadata = entries["metadata"] { result.metadata = metadata }
    return result
  }

  mutating func job(name: String, node: YAMLNode, mark: SourceMark, defaults: Settings) -> Job? {
    let field = "jobs.\(name)"
    guard case .mapping = node.value else {
      reader.expected(node, field, "a mapping with sources, guide, place and outputs")
      return nil
    }
    let entries = reader.mapping(node, field, known: Self.jobKeys) ?? [:]
    let settings = self.settings(node, field, known: [], base: defaults)
    var input: JobInput? = nil
    if let sources = entries["sources"] {
      if entries["from"] != nil {
        reader.error(sources.mark, join(field, "sources"), "use either sources or from, not both")
      }
      let include = (reader.list(sources, join(field, "sources"), single: true) ?? []).enumerated().compactMap {
        reader.string($0.element, join(field, "sources") + "[\($0.offset)]")
      }
      if include.isEmpty { reader.error(sources.mark, join(field, "sources"), "expected at least one file, glob or folder") }
      var exclude: [String] = []
      if let node = entries["exclude"] {
        exclude = (reader.list(node, join(field, "exclude"), single: true) ?? []).enumerated().compactMap {
          reader.string($0.element, join(field, "exclude") + "[\($0.offset)]")
        }
      }
      input = .sources(include: include, exclude: exclude)
    } else if let from = entries["from"] {
      if let other = reader.string(from, join(field, "from")) { input = .from(other) }
    } else {
      reader.error(mark, field, "missing \"sources\" (files, globs or folders) or \"from\" (another job)")
    }
    guard let guide = self.guide(settings.guide, field: join(field, "guide"), mark: settings.guideMark, jobMark: mark)
    else { return nil }
    var outputs: [OutputSpec] = []
    if let node = settings.outputs, let items = reader.list(node, join(field, "outputs")) {
      if items.isEmpty { reader.error(node.mark, join(field, "outputs"), "expected at least one output") }
      for (index, item) in items.enumerated() {
        if let output = self.output(item, join(field, "outputs") + "[\(index)]", settings: settings) {
          outputs.append(output)
        }
      }
    } else if settings.outputs == nil {
      reader.error(mark, join(field, "outputs"), "missing \"outputs\" (what to write for each photo)")
    }
    checkOutputPaths(outputs, field: join(field, "outputs"))
    if settings.place.crop != nil && guide.shape != .rect {
      // Fine: the crop's aspect is checked against the guide per photo by the planner.
    }
    guard let input else { return nil }
    return Job(name: name, input: input, guide: guide, place: settings.place, outputs: outputs, mark: mark)
  }

  // MARK: Guide

  mutating func guide(_ e: [String: YAMLNode], field: String, mark: SourceMark, jobMark: SourceMark) -> Guide? {
    if e.isEmpty {
      reader.error(jobMark, field, "missing \"guide\" (the crop frame: shape and size)")
      return nil
    }
    let shape = e["shape"].flatMap { reader.choice($0, join(field, "shape"), GuideShape.self) } ?? .rect
    let maxSide = 16384
    let size = e["size"].flatMap { reader.int($0, join(field, "size"), in: 1...maxSide) }
    let width = e["width"].flatMap { reader.int($0, join(field, "width"), in: 1...maxSide) }
    let height = e["height"].flatMap { reader.int($0, join(field, "height"), in: 1...maxSide) }
    var aspect: Double? = nil
    if let node = e["aspect"] { aspect = self.aspect(node, join(field, "aspect")) }
    if e["size"] != nil && (e["width"] != nil || e["height"] != nil) {
      reader.error(e["size"]!.mark, join(field, "size"), "use either size or width/height, not both")
      return nil
    }
    if e["aspect"] != nil && e["width"] != nil && e["height"] != nil {
      reader.error(e["aspect"]!.mark, join(field, "aspect"), "aspect with both width and height over-determines the guide; give one side")
      return nil
    }
    if e["aspect"] != nil && shape != .rect {
      reader.error(e["aspect"]!.mark, join(field, "aspect"), "a \(shape.rawValue) guide is square; aspect applies to rect guides")
      return nil
    }
    var w: Int? = size ?? width
    var h: Int? = size ?? height
    if let aspect {
      if let w0 = w, h == nil { h = max(1, Int((Double(w0) / aspect).rounded())) }
      if let h0 = h, w == nil { w = max(1, Int((Double(h0) * aspect).rounded())) }
    }
    if shape != .rect {
      if let w0 = width, let h0 = height, w0 != h0 {
        reader.error(
          e["height"]!.mark, join(field, "height"),
          "a \(shape.rawValue) guide needs equal width and height, but width is \(w0) and height is \(h0); use size")
        return nil
      }
      w = w ?? h
      h = h ?? w
    }
    guard let w, let h else {
      if e["size"] == nil && e["width"] == nil && e["height"] == nil {
        reader.error(mark, field, "missing the guide's size: give size, width and height, or aspect with one side")
      } else if e["aspect"] == nil && e["size"] == nil {
        reader.error(mark, field, "a rect guide needs both width and height (or aspect with one side, or size)")
      }
      return nil
    }
    return Guide(shape: shape, size: PixelSize(width: w, height: h))
  }

  mutating func aspect(_ node: YAMLNode, _ field: String) -> Double? {
    if case .scalar(let text, _) = node.value {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      if parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a > 0, b > 0, a.isFinite, b.isFinite {
        return a / b
      }
    }
    reader.expected(node, field, "an aspect ratio such as \"16:9\"")
    return nil
  }

  // MARK: Place

  /// Applies the place fields of `node` onto `base`; returns the fields it set.
  mutating func place(_ node: YAMLNode, _ field: String, base: PlaceSpec) -> (PlaceSpec, Set<String>) {
    guard let e = reader.mapping(node, field, known: Self.placeKeys) else { return (base, []) }
    return applyPlace(e, field, base: base)
  }

  mutating func applyPlace(_ e: [String: YAMLNode], _ field: String, base: PlaceSpec) -> (PlaceSpec, Set<String>) {
    var p = base
    var set = Set<String>()
    if let n = e["fit"], let v = reader.choice(n, join(field, "fit"), Fit.self) { p.fit = v; set.insert("fit") }
    if let n = e["zoom"], let v = reader.double(n, join(field, "zoom"), in: 0.2...5) { p.zoom = v; set.insert("zoom") }
    if let n = e["offset"], let v = reader.pair(n, join(field, "offset"), in: -100_000...100_000) {
      p.offset = Point(x: v.0, y: v.1)
      set.insert("offset")
    }
    if let n = e["focus"], let v = focus(n, join(field, "focus")) { p.focus = v; set.insert("focus") }
    if let n = e["rotate"], let v = reader.double(n, join(field, "rotate"), in: -360...360) { p.rotate = v; set.insert("rotate") }
    if let n = e["flip"], let v = flip(n, join(field, "flip")) {
      p.flipHorizontal = v.0
      p.flipVertical = v.1
      set.insert("flip")
    }
    if let n = e["overflow"], let v = reader.choice(n, join(field, "overflow"), Overflow.self) {
      p.overflow = v
      set.insert("overflow")
    }
    if let n = e["background"], let v = ColourParser.parse(n, join(field, "background"), reader: &reader) {
      p.background = v
      set.insert("background")
    }
    if let n = e["upscale"], let v = reader.bool(n, join(field, "upscale")) { p.upscale = v; set.insert("upscale") }
    if let n = e["crop"] {
      if let v = crop(n, join(field, "crop")) { p.crop = v; set.insert("crop") }
      for key in Self.cropExcludes where e[key] != nil {
        reader.error(
          e[key]!.mark, join(field, key),
          "\(key) cannot be combined with crop (an exact crop rectangle replaces fit, zoom, focus, offset and rotate)")
      }
    } else if !set.isDisjoint(with: Self.cropExcludes) {
      p.crop = nil  // A placement set here replaces an inherited exact crop.
    }
    return (p, set)
  }

  mutating func focus(_ node: YAMLNode, _ field: String) -> FocusSpec? {
    switch node.value {
    case .sequence:
      guard let (x, y) = reader.pair(node, field, in: 0...1) else { return nil }
      return .point(Point(x: x, y: y))
    case .scalar(let text, _):
      let aliases = ["center": "centre", "middle": "centre"]
      let name = aliases[text] ?? text
      if let named = NamedPosition(rawValue: name) { return .named(named) }
      if let smart = SmartStrategy(rawValue: text) { return .smart(smart) }
      let names = NamedPosition.allCases.map(\.rawValue) + SmartStrategy.allCases.map(\.rawValue)
      reader.error(
        node.mark, field,
        Diagnostic.expected(
          "a position (\(NamedPosition.allCases.map(\.rawValue).joined(separator: ", "))), a smart strategy (attention, entropy) or a point [x, y] in 0...1",
          received: NodeReader.describe(node)) + Suggestion.didYouMean(text, in: names))
      return nil
    case .mapping:
      reader.expected(node, field, "a position name, attention, entropy or a point [x, y]")
      return nil
    }
  }

  mutating func flip(_ node: YAMLNode, _ field: String) -> (Bool, Bool)? {
    let names = ["horizontal", "vertical", "both", "none"]
    var h = false
    var v = false
    for item in reader.list(node, field, single: true) ?? [] {
      guard case .scalar(let text, _) = item.value, names.contains(text) else {
        reader.expected(item, field, "horizontal, vertical, both or none")
        return nil
      }
      if text == "horizontal" || text == "both" { h = true }
      if text == "vertical" || text == "both" { v = true }
    }
    return (h, v)
  }

  mutating func crop(_ node: YAMLNode, _ field: String) -> CropRect? {
    guard let e = reader.mapping(node, field, known: Self.cropKeys) else { return nil }
    var ok = true
    func required(_ key: String, _ range: ClosedRange<Double>) -> Double {
      guard let n = e[key] else {
        reader.error(node.mark, join(field, key), "missing \"\(key)\" (crop needs x, y, width and height in source pixels)")
        ok = false
        return 0
      }
      guard let v = reader.double(n, join(field, key), in: range) else {
        ok = false
        return 0
      }
      return v
    }
    let x = required("x", -1_000_000...1_000_000)
    let y = required("y", -1_000_000...1_000_000)
    let w = required("width", 1...1_000_000)
    let h = required("height", 1...1_000_000)
    let angle = e["angle"].flatMap { reader.double($0, join(field, "angle"), in: -360...360) } ?? 0
    return ok ? CropRect(x: x, y: y, width: w, height: h, angle: angle) : nil
  }

  // MARK: Outputs

  mutating func output(_ node: YAMLNode, _ field: String, settings: Settings) -> OutputSpec? {
    guard let e = reader.mapping(node, field, known: Self.outputKeys) else { return nil }
    guard let pathNode = e["path"] else {
      reader.error(node.mark, join(field, "path"), "missing \"path\" (a name template such as \"{stem}.jpg\")")
      return nil
    }
    guard let template = reader.string(pathNode, join(field, "path")) else { return nil }
    var ok = checkTemplate(template, node: pathNode, field: join(field, "path"))
    let sizeKeys = ["size", "scales", "widths"].filter { e[$0] != nil }
    if sizeKeys.count > 1 {
      reader.error(e[sizeKeys[1]]!.mark, join(field, sizeKeys[1]), "use one of size, scales and widths, not \(sizeKeys.joined(separator: " and "))")
      ok = false
    }
    var sizes = OutputSizes.scales([1])
    if let n = e["size"] {
      if let v = reader.int(n, join(field, "size"), in: 1...16384) { sizes = .widths([v]) } else { ok = false }
    } else if let n = e["scales"] {
      let values = (reader.list(n, join(field, "scales")) ?? []).enumerated().map {
        reader.double($0.element, join(field, "scales") + "[\($0.offset)]", in: 0.01...16)
      }
      if values.contains(where: { $0 == nil }) || values.isEmpty {
        if values.isEmpty { reader.expected(n, join(field, "scales"), "a non-empty list of scales such as [1, 2, 3]") }
        ok = false
      } else {
        sizes = .scales(values.map { $0! })
      }
    } else if let n = e["widths"] {
      let values = (reader.list(n, join(field, "widths")) ?? []).enumerated().map {
        reader.int($0.element, join(field, "widths") + "[\($0.offset)]", in: 1...16384)
      }
      if values.contains(where: { $0 == nil }) || values.isEmpty {
        if values.isEmpty { reader.expected(n, join(field, "widths"), "a non-empty list of pixel widths") }
        ok = false
      } else {
        sizes = .widths(values.map { $0! })
      }
    }
    let count: Int
    switch sizes {
    case .scales(let s): count = Set(s).count
    case .widths(let w): count = Set(w).count
    }
    if count > 1 && !["{width}", "{height}", "{scale}"].contains(where: template.contains) {
      reader.error(
        pathNode.mark, join(field, "path"),
        "\(count) sizes would all be written to the same path; put {width}, {height} or {scale} in the template")
      ok = false
    }
    var encodeEntries = settings.encode
    let impliedByPath = Self.extensionFormats[PathText.pathExtension(template).lowercased()] != nil
    if impliedByPath {
      // The path's extension wins over an inherited format; only the output's own clashes.
      encodeEntries["format"] = nil
    }
    if let n = e["encode"], let entries = reader.mapping(n, join(field, "encode"), known: Self.encodeKeys) {
      encodeEntries.merge(entries) { _, new in new }
    }
    guard let encode = self.encode(encodeEntries, field: join(field, "encode"), template: template, mark: node.mark) else {
      return nil
    }
    var metadata = MetadataPolicy.strip
    if let n = e["metadata"] ?? settings.metadata {
      if let v = reader.choice(n, join(field, "metadata"), MetadataPolicy.self) { metadata = v } else { ok = false }
    }
    return ok ? OutputSpec(pathTemplate: template, sizes: sizes, encode: encode, metadata: metadata, mark: node.mark) : nil
  }

  /// Placeholders must exist; the template must be a relative path.
  mutating func checkTemplate(_ template: String, node: YAMLNode, field: String) -> Bool {
    var ok = true
    if template.hasPrefix("/") {
      reader.error(node.mark, field, Diagnostic.expected("a path relative to the output root", received: "the absolute path \"\(template)\""))
      ok = false
    }
    if template.split(separator: "/").contains("..") {
      reader.error(node.mark, field, "\"..\" would leave the output root; expected a path inside it")
      ok = false
    }
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else {
        reader.error(node.mark, field, "unclosed \"{\" in the path template")
        return false
      }
      let name = String(rest[rest.index(after: open)..<close])
      if !Self.placeholders.contains(name) {
        reader.error(
          node.mark, field,
          "unknown placeholder {\(name)}\(Suggestion.didYouMean(name, in: Self.placeholders)); expected one of: "
            + Self.placeholders.map { "{\($0)}" }.joined(separator: " "))
        ok = false
      }
      rest = rest[rest.index(after: close)...]
    }
    if !template.contains("{stem}") && !template.contains("{name}") {
      reader.error(node.mark, field, "the template needs {stem} or {name}, or every photo would be written to the same file")
      ok = false
    }
    return ok
  }

  static let extensionFormats: [String: OutputFormat] = [
    "jpg": .jpeg, "jpeg": .jpeg, "png": .png, "webp": .webp, "avif": .avif, "heic": .heif, "heif": .heif,
    "jxl": .jxl, "tif": .tiff, "tiff": .tiff,
  ]

  mutating func encode(_ e: [String: YAMLNode], field: String, template: String, mark: SourceMark) -> EncodeSpec? {
    let ext = PathText.pathExtension(template).lowercased()
    let implied = Self.extensionFormats[ext]
    var format = implied ?? .jpeg
    if let n = e["format"] {
      let aliases: [String: OutputFormat] = ["jpg": .jpeg, "heic": .heif, "tif": .tiff]
      if case .scalar(let text, _) = n.value, let alias = aliases[text] {
        format = alias
      } else if let v = reader.choice(n, join(field, "format"), OutputFormat.self) {
        format = v
      } else {
        return nil
      }
      if let implied, implied != format {
        reader.error(
          n.mark, join(field, "format"),
          "format \(format.rawValue) contradicts the path's extension .\(ext) (\(implied.rawValue)); make them agree")
      }
    }
    if !availableFormats.contains(format) {
      reader.error(
        e["format"]?.mark ?? mark, join(field, "format"),
        "this build of libvips cannot write \(format.rawValue); available: \(availableFormats.map(\.rawValue).joined(separator: ", "))")
    }
    var options = EncodeOptions(format: format)
    var spec = EncodeSpec(options: options, maxBytes: nil)
    if let n = e["quality"], let v = reader.int(n, join(field, "quality"), in: 1...100) { options.quality = v }
    if let n = e["lossless"], let v = reader.bool(n, join(field, "lossless")) { options.lossless = v }
    if let n = e["effort"] {
      let range: ClosedRange<Int> = format == .webp ? 0...6 : format == .jxl ? 1...9 : 0...9
      if let v = reader.int(n, join(field, "effort"), in: range) { options.effort = v }
    }
    if let n = e["progressive"], let v = reader.bool(n, join(field, "progressive")) { options.progressive = v }
    if let n = e["subsample"] {
      let values = ["auto": nil, "4:2:0": true, "4:4:4": false] as [String: Bool?]
      if case .scalar(let text, _) = n.value, let v = values[text] {
        options.chromaSubsampling = v
      } else {
        reader.expected(n, join(field, "subsample"), "auto, \"4:2:0\" or \"4:4:4\"")
      }
    }
    if let n = e["compression"], let v = reader.int(n, join(field, "compression"), in: 0...9) { options.compression = v }
    if let n = e["palette"], let v = reader.bool(n, join(field, "palette")) { options.palette = v }
    if let n = e["max_bytes"], let v = reader.int(n, join(field, "max_bytes"), in: 100...(1 << 31)) {
      spec.maxBytes = v
      if format == .png && !options.palette || format == .tiff || (options.lossless && format != .png) {
        reader.error(
          n.mark, join(field, "max_bytes"),
          "a byte budget needs a lossy quality to search: use jpeg, webp, avif, heif or jxl (or png with palette: true)")
      }
    }
    if let n = e["min_quality"], let v = reader.int(n, join(field, "min_quality"), in: 1...100) { spec.minQuality = v }
    if spec.minQuality > options.quality, spec.maxBytes != nil {
      reader.error(
        e["min_quality"]?.mark ?? mark, join(field, "min_quality"),
        "min_quality \(spec.minQuality) is above quality \(options.quality)")
    }
    spec.options = options
    return spec
  }

  // MARK: Checks across outputs and jobs

  mutating func checkOutputPaths(_ outputs: [OutputSpec], field: String) {
    var seen: [String: Int] = [:]
    for (index, output) in outputs.enumerated() {
      if let first = seen[output.pathTemplate] {
        reader.error(
          output.mark, field + "[\(index)].path",
          "the same path template as outputs[\(first)] (\"\(output.pathTemplate)\"): both would write the same files")
      } else {
        seen[output.pathTemplate] = index
      }
    }
  }

  mutating func checkJobGraph(_ jobs: [Job]) {
    let names = Set(jobs.map(\.name))
    var edges: [String: String] = [:]
    for job in jobs {
      if case .from(let other) = job.input {
        if !names.contains(other) {
          reader.error(
            job.mark, "jobs.\(job.name).from",
            "no job named \"\(other)\"\(Suggestion.didYouMean(other, in: Array(names))); expected one of: \(names.sorted().joined(separator: ", "))")
        } else {
          edges[job.name] = other
        }
      }
    }
    var reported = Set<String>()
    for job in jobs {
      var path = [job.name]
      var current = job.name
      while let next = edges[current] {
        if let start = path.firstIndex(of: next) {
          let cycle = Array(path[start...]) + [next]
          if reported.insert(cycle.dropLast().sorted().joined(separator: ",")).inserted {
            reader.error(job.mark, "jobs.\(job.name).from", "jobs form a cycle: " + cycle.joined(separator: " → "))
          }
          break
        }
        path.append(next)
        current = next
      }
    }
  }

  mutating func override(_ node: YAMLNode, _ field: String, jobs: [Job]) -> Override? {
    guard let e = reader.mapping(node, field, known: Self.overrideKeys) else { return nil }
    var job: String? = nil
    if let n = e["job"], let name = reader.string(n, join(field, "job")) {
      if !jobs.contains(where: { $0.name == name }) {
        reader.error(n.mark, join(field, "job"), "no job named \"\(name)\"\(Suggestion.didYouMean(name, in: jobs.map(\.name)))")
      }
      job = name
    }
    guard let sourceNode = e["source"] else {
      reader.error(node.mark, join(field, "source"), "missing \"source\" (the photo this override applies to)")
      return nil
    }
    guard let source = reader.string(sourceNode, join(field, "source")) else { return nil }
    let placeEntries = e.filter { Self.placeKeys.contains($0.key) }
    if placeEntries.isEmpty {
      reader.error(node.mark, field, "an override needs crop or at least one place field")
    }
    let (place, fields) = applyPlace(placeEntries, field, base: PlaceSpec())
    return Override(job: job, source: source, place: place, fields: fields, mark: node.mark)
  }
}

extension PlaceSpec {
  /// This placement with the fields an override sets taken from it.
  public func applying(_ override: Override) -> PlaceSpec {
    var p = self
    let o = override.place
    for field in override.fields {
      switch field {
      case "fit": p.fit = o.fit
      case "zoom": p.zoom = o.zoom
      case "offset": p.offset = o.offset
      case "focus": p.focus = o.focus
      case "rotate": p.rotate = o.rotate
      case "flip":
        p.flipHorizontal = o.flipHorizontal
        p.flipVertical = o.flipVertical
      case "crop": p.crop = o.crop
      case "overflow": p.overflow = o.overflow
      case "background": p.background = o.background
      case "upscale": p.upscale = o.upscale
      default: break
      }
    }
    if !override.fields.contains("crop") && !override.fields.isDisjoint(with: SpecDecoder.cropExcludes) { p.crop = nil }
    if override.fields.contains("crop") {
      p.zoom = 1
      p.offset = Point(x: 0, y: 0)
      p.rotate = 0
    }
    return p
  }
}
