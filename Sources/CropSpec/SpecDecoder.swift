import CropGeometry
import CropSupport
import Foundation

/// Decodes a parsed job file into typed values, collecting every problem at once.
///
/// The keys each mapping accepts and the ranges come from `JobSchema`, the table that
/// `cropjob schema` prints, so the decoder and the schema cannot drift apart.
package struct SpecDecoder {
  package var reader: NodeReader
  let formats: FormatAvailability
  /// What `formats` answered, once it was asked (only for a format outside its baseline).
  private var probedFormats: [OutputFormat]?

  package init(file: String, formats: FormatAvailability) {
    reader = NodeReader(file: file)
    self.formats = formats
  }

  /// Whether this machine can write `format`; probes at most once per job file.
  mutating func canWrite(_ format: OutputFormat) -> Bool {
    if FormatAvailability.baseline.contains(format) { return true }
    if probedFormats == nil { probedFormats = formats.available() }
    return probedFormats!.contains(format)
  }

  package static let topKeys = JobSchema.file.keys
  package static let settingKeys = JobSchema.defaults.keys
  package static let jobKeys = JobSchema.job.keys
  package static let guideKeys = JobSchema.guide.keys
  package static let placeKeys = JobSchema.place.keys
  package static let cropKeys = JobSchema.crop.keys
  package static let outputKeys = JobSchema.output.keys
  package static let encodeKeys = JobSchema.encode.keys
  package static let limitKeys = JobSchema.limits.keys
  package static let overrideKeys = JobSchema.override.keys
  /// Placeholders a path template may use.
  static let placeholders = JobSchema.placeholders.map(\.name)
  /// Place fields an exact `crop` replaces.
  static let cropExcludes = JobSchema.cropExcludes
  /// Guide keys that give its size: a job that sets any of them replaces all inherited ones.
  static let guideSizeKeys = ["size", "width", "height", "aspect"]

  /// A setting inherited from `defaults` or the job, with the field path where it is
  /// written (diagnostics name that place, once, whichever job inherits it).
  struct Inherited {
    var node: YAMLNode
    var field: String
  }

  /// Settings inherited from `defaults` and the job, field by field.
  struct Settings {
    var guide: [String: Inherited] = [:]
    var guideMark: SourceMark? = nil
    var place = PlaceSpec()
    var outputs: Inherited? = nil
    var encode: [String: Inherited] = [:]
    var metadata: Inherited? = nil
  }

  /// Every job name in the file, also those of jobs with errors (for `from` and overrides).
  var declaredJobs: [String] = []
  /// `from` edges, with where each is written.
  var fromEdges: [(job: String, target: String, mark: SourceMark)] = []

  package mutating func decode(root: YAMLNode?, path: String) -> JobFile? {
    guard let root else {
      reader.error(
        SourceMark(line: 1, column: 1), "",
        Diagnostic.expected("a mapping with version, output and jobs", received: "an empty file"))
      return nil
    }
    guard let top = reader.mapping(root, "", known: Self.topKeys, what: "a mapping with version, output and jobs")
    else { return nil }
    var version = 1
    if let node = top["version"] {
      if NodeReader.plainText(node).flatMap(NodeReader.wholeValue) == 1 {
        version = 1
      } else {
        reader.expected(node, "version", "1 (the only version of the job file language)")
      }
    } else {
      reader.error(root.mark, "version", Diagnostic.missing("version", "the language version (version: 1)"))
    }
    var outputRoot = ""
    if let node = top["output"] {
      outputRoot = reader.string(node, "output", what: "a folder path") ?? ""
    } else {
      reader.error(
        root.mark, "output", Diagnostic.missing("output", "the output root (the folder every output is written inside)")
      )
    }
    var limits = InputLimits()
    if let node = top["limits"], let entries = reader.mapping(node, "limits", known: Self.limitKeys) {
      if let n = entries["max_pixels"], let v = reader.int(n, "limits.max_pixels", in: JobSchema.maxPixelsRange) {
        limits.maxPixels = v
      }
      if let n = entries["max_file_bytes"],
        let v = reader.int(n, "limits.max_file_bytes", in: JobSchema.maxFileBytesRange)
      {
        limits.maxFileBytes = v
      }
      if let n = entries["max_pages"], let v = reader.int(n, "limits.max_pages", in: JobSchema.maxPagesRange) {
        limits.maxPages = v
      }
    }
    var defaults = Settings()
    if let node = top["defaults"] {
      defaults = settings(node, "defaults", known: Self.settingKeys, base: defaults)
    }
    var jobs: [Job] = []
    if let node = top["jobs"], let entries = reader.orderedMapping(node, "jobs", what: "a mapping of job names to jobs")
    {
      if entries.isEmpty { reader.expected(node, "jobs", "at least one job") }
      declaredJobs = entries.map(\.0)
      for (name, jobNode, mark) in entries {
        if !Self.isValidName(name) {
          reader.error(
            mark, "jobs.\(name)",
            Diagnostic.expected("a job name of ASCII letters, digits, '-' and '_'", received: "\"\(name)\""))
        }
        if let job = self.job(name: name, node: jobNode, mark: mark, defaults: defaults) { jobs.append(job) }
      }
    } else if top["jobs"] == nil {
      reader.error(root.mark, "jobs", Diagnostic.missing("jobs", "the jobs (a mapping of job names to jobs)"))
    }
    var overrides: [Override] = []
    if let node = top["overrides"], let items = reader.list(node, "overrides", what: "a list of overrides") {
      var seen: [String: Int] = [:]
      for (index, item) in items.enumerated() {
        if let o = override(item, "overrides[\(index)]", index: index, seen: &seen) { overrides.append(o) }
      }
    }
    checkJobGraph()
    checkFromSizes(jobs)
    let base = PathText.deletingLastComponent(path)
    return JobFile(
      path: path, baseDirectory: base.isEmpty ? "." : base, version: version, outputRoot: outputRoot, limits: limits,
      jobs: jobs, overrides: overrides)
  }

  /// ASCII letters, digits, `-` and `_` (names appear in output paths through `{job}`).
  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
      }
  }

  // MARK: Settings shared by defaults and jobs

  mutating func settings(_ node: YAMLNode, _ field: String, known: [String], base: Settings) -> Settings {
    var result = base
    guard let entries = reader.mapping(node, field, known: known) else { return result }
    if let guide = entries["guide"], let g = reader.mapping(guide, join(field, "guide"), known: Self.guideKeys) {
      if g.keys.contains(where: Self.guideSizeKeys.contains) {
        for key in Self.guideSizeKeys { result.guide[key] = nil }  // a new size replaces the inherited one
      }
      for (key, value) in g { result.guide[key] = Inherited(node: value, field: join(join(field, "guide"), key)) }
      result.guideMark = guide.mark
    }
    if let place = entries["place"] {
      result.place = self.place(place, join(field, "place"), base: base.place).0
    }
    if let outputs = entries["outputs"] { result.outputs = Inherited(node: outputs, field: join(field, "outputs")) }
    if let encode = entries["encode"], let e = reader.mapping(encode, join(field, "encode"), known: Self.encodeKeys) {
      for (key, value) in e { result.encode[key] = Inherited(node: value, field: join(join(field, "encode"), key)) }
    }
    if let metadata = entries["metadata"] {
      result.metadata = Inherited(node: metadata, field: join(field, "metadata"))
      _ = metadataPolicy(metadata, join(field, "metadata"))  // reported here even if no output uses it
    }
    return result
  }

  mutating func job(name: String, node: YAMLNode, mark: SourceMark, defaults: Settings) -> Job? {
    let field = "jobs.\(name)"
    guard case .mapping = node.value else {
      reader.expected(node, field, "a job: a mapping with sources, guide, place and outputs")
      return nil
    }
    let entries = reader.mapping(node, field, known: Self.jobKeys) ?? [:]
    let settings = self.settings(node, field, known: [], base: defaults)
    var input: JobInput? = nil
    if let sources = entries["sources"] {
      if let from = entries["from"] {
        reader.error(from.mark, join(field, "from"), Diagnostic.expected("either sources or from", received: "both"))
      }
      let include = patterns(sources, join(field, "sources"), allowEmpty: false)
      let exclude = entries["exclude"].map { patterns($0, join(field, "exclude"), allowEmpty: true) } ?? []
      if let include, let exclude { input = .sources(include: include, exclude: exclude) }
    } else if let from = entries["from"] {
      if let target = reader.string(from, join(field, "from"), what: "the name of another job") {
        input = .from(target)
        fromEdges.append((name, target, from.mark))
      }
      if let exclude = entries["exclude"] {
        reader.error(
          exclude.mark, join(field, "exclude"),
          Diagnostic.expected("exclude together with sources (it filters them)", received: "exclude with from"))
      }
    } else {
      reader.error(
        mark, join(field, "sources"),
        Diagnostic.expected("\"sources\" (files, globs or folders) or \"from\" (another job)", received: "neither"))
    }
    let guide = self.guide(settings.guide, field: join(field, "guide"), mark: settings.guideMark ?? mark, jobMark: mark)
    var outputs: [OutputSpec] = []
    if let inherited = settings.outputs {
      if let items = reader.list(inherited.node, inherited.field, what: "a list of outputs") {
        if items.isEmpty { reader.expected(inherited.node, inherited.field, "at least one output") }
        var paths: [(index: Int, template: String, mark: SourceMark)] = []
        for (index, item) in items.enumerated() {
          let itemField = "\(inherited.field)[\(index)]"
          if let output = self.output(item, itemField, settings: settings, guide: guide, paths: &paths, index: index) {
            outputs.append(output)
          }
        }
      }
    } else {
      reader.error(
        mark, join(field, "outputs"), Diagnostic.missing("outputs", "outputs (the files to write for each photo)"))
    }
    guard let input, let guide else { return nil }
    return Job(name: name, input: input, guide: guide, place: settings.place, outputs: outputs, mark: mark)
  }

  /// Files, globs and folders: a string or a list of strings.
  mutating func patterns(_ node: YAMLNode, _ field: String, allowEmpty: Bool) -> [String]? {
    if case .scalar = node.value {
      return reader.string(node, field, what: "a file, glob or folder, or a list of them").map { [$0] }
    }
    guard let items = reader.list(node, field, single: true, what: "a file, glob or folder, or a list of them") else {
      return nil
    }
    if items.isEmpty && !allowEmpty {
      reader.expected(node, field, "at least one file, glob or folder")
      return nil
    }
    var result: [String] = []
    for (index, item) in items.enumerated() {
      guard let text = reader.string(item, "\(field)[\(index)]", what: "a file, glob or folder") else { return nil }
      result.append(text)
    }
    return result
  }

  // MARK: Guide

  mutating func guide(_ e: [String: Inherited], field: String, mark: SourceMark, jobMark: SourceMark) -> Guide? {
    if e.isEmpty {
      reader.error(jobMark, field, Diagnostic.missing("guide", "a guide (the crop frame: shape and size)"))
      return nil
    }
    var ok = true
    var shape = GuideShape.rect
    if let s = e["shape"] {
      if let v = reader.choice(s.node, s.field, GuideShape.self) { shape = v } else { ok = false }
    }
    func side(_ key: String) -> Int? {
      guard let entry = e[key] else { return nil }
      let value = reader.int(entry.node, entry.field, in: JobSchema.sideRange)
      if value == nil { ok = false }
      return value
    }
    let size = side("size")
    let width = side("width")
    let height = side("height")
    var aspect: Double? = nil
    if let a = e["aspect"] {
      aspect = self.aspect(a.node, a.field)
      if aspect == nil { ok = false }
    }
    if e["size"] != nil {
      for key in ["width", "height", "aspect"] {
        guard let other = e[key] else { continue }
        let alternative = key == "aspect" ? "aspect with width or height" : "width and height"
        reader.error(
          other.node.mark, other.field,
          Diagnostic.expected("either size or \(alternative)", received: "both size and \(key)"))
        ok = false
      }
    }
    if let a = e["aspect"] {
      if e["width"] != nil && e["height"] != nil {
        reader.error(
          a.node.mark, a.field,
          Diagnostic.expected("aspect with one of width and height", received: "aspect with both width and height"))
        ok = false
      } else if e["width"] == nil && e["height"] == nil && e["size"] == nil {
        reader.error(
          a.node.mark, a.field, Diagnostic.expected("aspect with one of width and height", received: "aspect alone"))
        ok = false
      }
      if shape != .rect {
        reader.error(
          a.node.mark, a.field,
          Diagnostic.expected(
            "aspect only with shape rect (a \(shape.rawValue) guide is square)",
            received: "aspect with a \(shape.rawValue) guide"))
        ok = false
      }
    }
    if shape != .rect, let w = width, let h = height, w != h, let entry = e["height"] {
      reader.error(
        entry.node.mark, entry.field,
        Diagnostic.expected(
          "equal width and height for a \(shape.rawValue) guide (or size)", received: "width \(w) and height \(h)"))
      ok = false
    }
    guard ok else { return nil }
    var w = size ?? width
    var h = size ?? height
    if let aspect, let a = e["aspect"] {
      if let w0 = w, h == nil { h = max(1, Int((Double(w0) / aspect).rounded())) }
      if let h0 = h, w == nil { w = max(1, Int((Double(h0) * aspect).rounded())) }
      for (name, value) in [("width", w), ("height", h)] {
        guard let value, value > JobSchema.maxSide else { continue }
        reader.error(
          a.node.mark, a.field,
          Diagnostic.expected(
            "a \(name) of at most \(JobSchema.maxSide) pixels",
            received: "aspect \(a.node.scalar ?? "") giving \(name) \(value)"))
        return nil
      }
    }
    if shape != .rect {
      w = w ?? h
      h = h ?? w
    }
    guard let w, let h else {
      let given = ["width", "height"].filter { e[$0] != nil }
      reader.error(
        mark, field,
        Diagnostic.expected(
          "the guide's size: size, width and height, or aspect with one side",
          received: given.isEmpty ? "no size" : "only \(given[0])"))
      return nil
    }
    return Guide(shape: shape, size: PixelSize(width: w, height: h))
  }

  /// `"W:H"`: two positive decimal numbers.
  mutating func aspect(_ node: YAMLNode, _ field: String) -> Double? {
    if case .scalar(let text, _) = node.value {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      if parts.count == 2, parts.allSatisfy(Self.isDecimal), let a = Double(parts[0]), let b = Double(parts[1]), a > 0,
        b > 0
      {
        return a / b
      }
    }
    reader.expected(node, field, "an aspect ratio \"W:H\" such as \"16:9\"")
    return nil
  }

  /// `[0-9]+(\.[0-9]+)?`
  static func isDecimal(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return (1...2).contains(parts.count)
      && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
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
    if let n = e["fit"], let v = reader.choice(n, join(field, "fit"), Fit.self) {
      p.fit = v
      set.insert("fit")
    }
    if let n = e["zoom"], let v = reader.double(n, join(field, "zoom"), in: JobSchema.zoomRange) {
      p.zoom = v
      set.insert("zoom")
    }
    if let n = e["offset"], let v = reader.pair(n, join(field, "offset"), in: JobSchema.offsetRange) {
      p.offset = Point(x: v.0, y: v.1)
      set.insert("offset")
    }
    if let n = e["focus"], let v = focus(n, join(field, "focus")) {
      p.focus = v
      set.insert("focus")
    }
    if let n = e["rotate"], let v = reader.double(n, join(field, "rotate"), in: JobSchema.angleRange) {
      p.rotate = v
      set.insert("rotate")
    }
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
    if let n = e["upscale"], let v = reader.bool(n, join(field, "upscale")) {
      p.upscale = v
      set.insert("upscale")
    }
    if let n = e["crop"] {
      if let v = crop(n, join(field, "crop")) {
        // An exact crop replaces the placement it is given over (also an inherited one), so
        // that equal crops give equal output keys.
        let fresh = PlaceSpec()
        (p.fit, p.zoom, p.focus, p.offset, p.rotate) = (fresh.fit, fresh.zoom, fresh.focus, fresh.offset, fresh.rotate)
        p.crop = v
        set.insert("crop")
      }
      for key in Self.cropExcludes where e[key] != nil {
        reader.error(
          e[key]!.mark, join(field, key),
          Diagnostic.expected(
            "crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate)",
            received: "crop together with \(key)"))
      }
    } else if !set.isDisjoint(with: Self.cropExcludes) {
      p.crop = nil  // A placement set here replaces an inherited exact crop.
    }
    return (p, set)
  }

  mutating func focus(_ node: YAMLNode, _ field: String) -> FocusSpec? {
    switch node.value {
    case .sequence:
      guard let (x, y) = reader.pair(node, field, in: JobSchema.unitRange) else { return nil }
      return .point(Point(x: x, y: y))
    case .scalar(let text, _):
      if let named = NamedPosition(rawValue: text) ?? JobSchema.focusAliases[text] { return .named(named) }
      if let smart = SmartStrategy(rawValue: text) { return .smart(smart) }
      reader.expected(
        node, field,
        "a position (\(NamedPosition.allCases.map(\.rawValue).joined(separator: ", "))), a smart strategy "
          + "(\(SmartStrategy.allCases.map(\.rawValue).joined(separator: ", "))) or a point [x, y] in 0...1",
        hint: Suggestion.didYouMean(text, in: JobSchema.focusNames))
      return nil
    case .mapping:
      reader.expected(node, field, "a position name, a smart strategy or a point [x, y]")
      return nil
    }
  }

  mutating func flip(_ node: YAMLNode, _ field: String) -> (Bool, Bool)? {
    var h = false
    var v = false
    let items: [(YAMLNode, String)]
    switch node.value {
    case .sequence(let list): items = list.enumerated().map { ($0.element, "\(field)[\($0.offset)]") }
    case .scalar: items = [(node, field)]
    case .mapping:
      reader.expected(node, field, "horizontal, vertical, both or none, or a list of them")
      return nil
    }
    for (item, itemField) in items {
      guard case .scalar(let text, _) = item.value, JobSchema.flipNames.contains(text) else {
        reader.expected(
          item, itemField, "one of " + JobSchema.flipNames.joined(separator: ", "),
          hint: item.scalar.map { Suggestion.didYouMean($0, in: JobSchema.flipNames) } ?? "")
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
        reader.error(
          node.mark, join(field, key),
          Diagnostic.missing(key, "the crop's \(key) (crop needs x, y, width and height in source pixels)"))
        ok = false
        return 0
      }
      guard let v = reader.double(n, join(field, key), in: range) else {
        ok = false
        return 0
      }
      return v
    }
    let x = required("x", JobSchema.cropPositionRange)
    let y = required("y", JobSchema.cropPositionRange)
    let w = required("width", JobSchema.cropSideRange)
    let h = required("height", JobSchema.cropSideRange)
    var angle = 0.0
    if let n = e["angle"] {
      if let v = reader.double(n, join(field, "angle"), in: JobSchema.angleRange) { angle = v } else { ok = false }
    }
    return ok ? CropRect(x: x, y: y, width: w, height: h, angle: angle) : nil
  }

  // MARK: Outputs

  mutating func output(
    _ node: YAMLNode, _ field: String, settings: Settings, guide: Guide?,
    paths: inout [(index: Int, template: String, mark: SourceMark)], index: Int
  ) -> OutputSpec? {
    guard let e = reader.mapping(node, field, known: Self.outputKeys, what: "an output: a mapping with path") else {
      return nil
    }
    var ok = true
    var template: String? = nil
    if let pathNode = e["path"] {
      template = reader.string(pathNode, join(field, "path"), what: "a path template such as \"{stem}.jpg\"")
      if let t = template {
        ok = checkTemplate(t, node: pathNode, field: join(field, "path")) && ok
        if let first = paths.first(where: { $0.template == t }) {
          reader.error(
            pathNode.mark, join(field, "path"),
            Diagnostic.expected(
              "a path template unlike the other outputs' (else both write the same files)",
              received: "the same template as outputs[\(first.index)]: \"\(t)\""))
          ok = false
        } else {
          paths.append((index, t, pathNode.mark))
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
    var sizes = OutputSizes.scales([1])
    var sizeNodes: [YAMLNode] = []
    if let n = e["size"] {
      if let v = reader.int(n, join(field, "size"), in: JobSchema.sideRange) {
        sizes = .widths([v])
        sizeNodes = [n]
      } else {
        ok = false
      }
    } else if let n = e["scales"] {
      if let values = numbers(
        n, join(field, "scales"), what: "scales such as [1, 2, 3]",
        { r, node, f in
          r.double(node, f, in: JobSchema.scaleRange)
        })
      {
        sizes = .scales(values.map(\.0))
        sizeNodes = values.map(\.1)
      } else {
        ok = false
      }
    } else if let n = e["widths"] {
      if let values = numbers(
        n, join(field, "widths"), what: "pixel widths such as [320, 640]",
        { r, node, f in
          r.int(node, f, in: JobSchema.sideRange)
        })
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
    if Self.extensionFormats[ext] != nil {
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
    var metadata = MetadataPolicy.strip
    if let n = e["metadata"] {
      if let v = metadataPolicy(n, join(field, "metadata")) { metadata = v } else { ok = false }
    } else if let inherited = settings.metadata {
      if let v = metadataPolicy(inherited.node, inherited.field) { metadata = v } else { ok = false }
    }
    guard ok, let template, let encode else { return nil }
    return OutputSpec(pathTemplate: template, sizes: sizes, encode: encode, metadata: metadata, mark: node.mark)
  }

  /// A non-empty list of distinct values, each read by `read`.
  mutating func numbers<T: Hashable>(
    _ node: YAMLNode, _ field: String, what: String, _ read: (inout NodeReader, YAMLNode, String) -> T?
  ) -> [(T, YAMLNode)]? {
    guard let items = reader.list(node, field, what: "a list of \(what)") else { return nil }
    if items.isEmpty {
      reader.expected(node, field, "a non-empty list of \(what)")
      return nil
    }
    var values: [(T, YAMLNode)] = []
    var firstIndex: [T: Int] = [:]
    var ok = true
    for (index, item) in items.enumerated() {
      guard let value = read(&reader, item, "\(field)[\(index)]") else {
        ok = false
        continue
      }
      if let first = firstIndex[value] {
        reader.error(
          item.mark, "\(field)[\(index)]",
          Diagnostic.expected("distinct values", received: "\(item.scalar ?? "") again (as at [\(first)])"))
        ok = false
        continue
      }
      firstIndex[value] = index
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

  static let extensionFormats: [String: OutputFormat] = [
    "jpg": .jpeg, "jpeg": .jpeg, "png": .png, "webp": .webp, "avif": .avif, "heic": .heif, "heif": .heif,
    "jxl": .jxl, "tif": .tiff, "tiff": .tiff,
  ]

  /// Warns when the file name's extension does not say what is written.
  mutating func checkExtension(_ ext: String, template: String, hasFormat: Bool, node: YAMLNode, field: String) {
    let known = Self.extensionFormats.keys.sorted()
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
    } else if !ext.contains("{") && Self.extensionFormats[ext] == nil {
      reader.warning(
        node.mark, field,
        Diagnostic.expected(
          "the extension of a format cropjob writes (\(known.joined(separator: ", ")))", received: ".\(ext)")
          + (hasFormat ? "" : "; writing jpeg") + Suggestion.didYouMean(ext, in: known))
    }
  }

  mutating func encode(
    _ e: [String: Inherited], own: Set<String>, extension ext: String, mark: SourceMark, field: String
  ) -> EncodeSpec? {
    let implied = Self.extensionFormats[ext]
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
    func int(_ key: String, _ range: ClosedRange<Int>) -> Int? {
      guard let entry = e[key] else { return nil }
      let value = reader.int(entry.node, entry.field, in: range)
      if value == nil { ok = false }
      return value
    }
    func bool(_ key: String) -> Bool? {
      guard let entry = e[key] else { return nil }
      let value = reader.bool(entry.node, entry.field)
      if value == nil { ok = false }
      return value
    }
    if let v = int("quality", JobSchema.qualityRange) { options.quality = v }
    if let v = bool("lossless") { options.lossless = v }
    if let v = int("effort", JobSchema.effortRange(format)) { options.effort = v }
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
    if let v = int("compression", JobSchema.compressionRange) { options.compression = v }
    if let v = bool("palette") { options.palette = v }
    if let v = int("max_bytes", JobSchema.maxBytesRange), let entry = e["max_bytes"] {
      spec.maxBytes = v
      let problem: String? =
        format == .tiff
        ? "tiff"
        : format == .png && !options.palette
          ? "png without palette: true" : options.lossless && format != .png ? "lossless \(format.rawValue)" : nil
      if let problem {
        reader.error(
          entry.node.mark, entry.field,
          Diagnostic.expected(
            "a lossy format for a byte budget (jpeg, webp, avif, heif, jxl, or png with palette: true)",
            received: problem))
        ok = false
      }
    }
    if let v = int("min_quality", JobSchema.qualityRange) { spec.minQuality = v }
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) -> E? where E.RawValue == String {
      guard let entry = e[key] else { return nil }
      let value = reader.choice(entry.node, entry.field, type)
      if value == nil { ok = false }
      return value
    }
    if let v = choice("over_budget", OverBudget.self) { spec.overBudget = v }
    if let v = choice("colour", ColourPolicy.self) { spec.colour = v }
    if spec.overBudget == .shrink, spec.maxBytes == nil, own.contains("over_budget"), let entry = e["over_budget"] {
      reader.warning(
        entry.node.mark, entry.field,
        Diagnostic.expected("max_bytes beside over_budget: shrink", received: "no max_bytes (over_budget does nothing)")
      )
    }
    if spec.maxBytes != nil, spec.minQuality > options.quality {
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
            "quality at least min_quality (\(spec.minQuality) by default) for a byte budget",
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

  /// `strip`, `keep`, or a list of kinds to keep.
  mutating func metadataPolicy(_ node: YAMLNode, _ field: String) -> MetadataPolicy? {
    let kinds = MetadataPolicy.Kind.allCases.map(\.rawValue)
    let expected = "strip, keep or a list of: " + kinds.joined(separator: ", ")
    switch node.value {
    case .scalar(let text, _) where text == "strip": return .strip
    case .scalar(let text, _) where text == "keep": return .keep
    case .sequence(let items):
      var kept = Set<MetadataPolicy.Kind>()
      for (i, item) in items.enumerated() {
        guard let kind = reader.choice(item, field + "[\(i)]", MetadataPolicy.Kind.self) else { return nil }
        kept.insert(kind)
      }
      return MetadataPolicy(kept: kept)
    case .scalar(let text, _):
      reader.error(
        node.mark, field,
        Diagnostic.expected(expected, received: NodeReader.describe(node))
          + Suggestion.didYouMean(text, in: ["strip", "keep"] + kinds))
      return nil
    default:
      reader.expected(node, field, expected)
      return nil
    }
  }

  // MARK: Checks across jobs

  /// A `from:` job is planned from the size its upstream output is planned at; an output
  /// that may shrink to meet its byte budget has no size known before it is written.
  mutating func checkFromSizes(_ jobs: [Job]) {
    let byName = Dictionary(jobs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for edge in fromEdges {
      guard let first = byName[edge.target]?.outputs.first, first.encode.maxBytes != nil,
        first.encode.overBudget == .shrink
      else { continue }
      reader.error(
        edge.mark, "jobs.\(edge.job).from",
        Diagnostic.expected(
          "a job whose first output keeps its planned size",
          received: "\"\(edge.target)\", whose first output may shrink to meet max_bytes (over_budget: shrink)"))
    }
  }

  mutating func checkJobGraph() {
    var edges: [String: (target: String, mark: SourceMark)] = [:]
    for edge in fromEdges {
      if declaredJobs.contains(edge.target) {
        edges[edge.job] = (edge.target, edge.mark)
        continue
      }
      let others = declaredJobs.filter { $0 != edge.job }
      reader.error(
        edge.mark, "jobs.\(edge.job).from",
        Diagnostic.expected(
          others.isEmpty
            ? "the name of another job (there is none)" : "the name of another job (\(others.joined(separator: ", ")))",
          received: "\"\(edge.target)\"") + Suggestion.didYouMean(edge.target, in: others))
    }
    var reported = Set<String>()
    for start in declaredJobs where edges[start] != nil {
      var path = [start]
      var current = start
      while let next = edges[current]?.target {
        if let loopStart = path.firstIndex(of: next) {
          var cycle = Array(path[loopStart...])
          // Name the cycle from the job listed first in the file, and report it there.
          let first = declaredJobs.first(where: cycle.contains)!
          let rotation = cycle.firstIndex(of: first)!
          cycle = Array(cycle[rotation...] + cycle[..<rotation])
          if reported.insert(cycle.sorted().joined(separator: ",")).inserted {
            reader.error(
              edges[first]!.mark, "jobs.\(first).from",
              Diagnostic.expected(
                "a from chain that ends at a job with sources",
                received: "the cycle " + (cycle + [first]).joined(separator: " → ")))
          }
          break
        }
        path.append(next)
        current = next
      }
    }
  }

  mutating func override(_ node: YAMLNode, _ field: String, index: Int, seen: inout [String: Int]) -> Override? {
    guard let e = reader.mapping(node, field, known: Self.overrideKeys, what: "an override: a mapping with source")
    else {
      return nil
    }
    var ok = true
    var job: String? = nil
    if let n = e["job"] {
      if let name = reader.string(n, join(field, "job"), what: "a job name") {
        if !declaredJobs.contains(name) {
          reader.error(
            n.mark, join(field, "job"),
            Diagnostic.expected("the name of a job (\(declaredJobs.joined(separator: ", ")))", received: "\"\(name)\"")
              + Suggestion.didYouMean(name, in: declaredJobs))
          ok = false
        }
        job = name
      } else {
        ok = false
      }
    }
    var source: String? = nil
    if let sourceNode = e["source"] {
      source = reader.string(sourceNode, join(field, "source"), what: "a source path")
      if let s = source {
        let key = (job ?? "") + "\n" + s.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        if let first = seen[key] {
          reader.error(
            sourceNode.mark, join(field, "source"),
            Diagnostic.expected(
              "one override per source and job",
              received: "a second override of \"\(s)\" (the first is overrides[\(first)])"))
          ok = false
        } else {
          seen[key] = index
        }
      }
    } else {
      reader.error(node.mark, join(field, "source"), Diagnostic.missing("source", "the photo this override applies to"))
    }
    let placeEntries = e.filter { Self.placeKeys.contains($0.key) }
    if placeEntries.isEmpty {
      reader.error(
        node.mark, field, Diagnostic.expected("crop or at least one place field", received: "an override without any"))
      ok = false
    }
    let before = reader.diagnostics.count
    let (place, fields) = applyPlace(placeEntries, field, base: PlaceSpec())
    guard ok, reader.diagnostics.count == before, let source else { return nil }
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
      let fresh = PlaceSpec()
      (p.fit, p.zoom, p.focus, p.offset, p.rotate) = (fresh.fit, fresh.zoom, fresh.focus, fresh.offset, fresh.rotate)
    }
    return p
  }
}
