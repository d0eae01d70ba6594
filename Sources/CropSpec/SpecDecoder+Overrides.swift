extension SpecDecoder {
  // MARK: Overrides

  /// The override `node`, item `index` of its list, or nil after reporting its problems.
  /// `seen` holds the index of each source and job met so far (one override each), and
  /// `first` names where that first one is in a message.
  mutating func override(
    _ node: YAMLNode, _ field: String, index: Int, seen: inout some OverrideRegistry,
    first where: (Int) -> String = { "overrides[\($0)]" }
  ) -> Override? {
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
        let key = OverrideKey(job: job, source: s)
        if let first = seen.earlier(key, index: index) {
          reader.error(sourceNode.mark, join(field, "source"), Self.secondOverride(of: s, first: `where`(first)))
          ok = false
        }
      }
    } else {
      reader.error(node.mark, join(field, "source"), Diagnostic.missing("source", "the photo this override applies to"))
    }
    // applyPlace reads place keys only: `e` is given whole (no copy per override).
    if !e.keys.contains(where: Self.placeKeys.contains) {
      reader.error(
        node.mark, field, Diagnostic.expected("crop or at least one place field", received: "an override without any"))
      ok = false
    }
    let before = reader.diagnostics.count
    let (place, fields) = applyPlace(e, field, base: PlaceSpec())
    guard ok, reader.diagnostics.count == before, let source else { return nil }
    return Override(job: job, source: source, place: place, fields: fields, mark: node.mark)
  }
}

extension SpecDecoder {
  /// The message for an override of a source and job met before, at `first`.
  static func secondOverride(of source: String, first: String) -> String {
    Diagnostic.expected(
      "one override per source and job", received: "a second override of \"\(source)\" (the first is \(first))")
  }
}

/// A source and job, as "one override per source and job" compares them: `./a.jpg` and
/// `a.jpg` are one source, `/a.jpg` another. A path already in that form is kept, not copied (a crop table
/// has a million of them).
struct OverrideKey: Hashable {
  var job: String?
  var source: String

  init(job: String?, source: String) {
    self.job = job
    // An absolute path keeps its leading `/`: `/a.jpg` is not `a.jpg`.
    self.source =
      Self.isPlain(source)
      ? source
      : (source.hasPrefix("/") ? "/" : "") + source.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }

  /// No empty segment (a leading, trailing or doubled `/`) and no `.` segment: one pass
  /// over the bytes.
  static func isPlain(_ path: String) -> Bool { isPlain(path.utf8) }

  /// `isPlain` of a path's UTF-8 bytes.
  static func isPlain(_ path: some Sequence<UInt8>) -> Bool {
    var length = 0
    var dot = false
    for byte in path {
      if byte == UInt8(ascii: "/") {
        if length == 0 || (length == 1 && dot) { return false }
        length = 0
      } else {
        dot = length == 0 && byte == UInt8(ascii: ".")
        length += 1
      }
    }
    return length > 0 && !(length == 1 && dot)
  }
}

/// What "one override per source and job" remembers of the overrides met so far.
protocol OverrideRegistry {
  /// The index of the override of `key` met before, if any; else nil, and `index` is noted
  /// as that of `key`.
  mutating func earlier(_ key: OverrideKey, index: Int) -> Int?
}

extension Dictionary: OverrideRegistry where Key == OverrideKey, Value == Int {
  mutating func earlier(_ key: OverrideKey, index: Int) -> Int? {
    if let first = self[key] { return first }
    self[key] = index
    return nil
  }
}

extension PlaceSpec {
  /// This placement with the fields an override sets taken from it.
  package func applying(_ override: Override) -> PlaceSpec {
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
      case "upscale": (p.upscale, p.upscaleSkip) = (o.upscale, o.upscaleSkip)
      case "face_padding": p.facePadding = o.facePadding
      case "regions": p.regionTypes = o.regionTypes
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
