import CropGeometry

extension SpecDecoder {
  // MARK: Guide

  mutating func guide(_ e: [String: Inherited], field: String, mark: SourceMark, jobMark: SourceMark) -> Guide? {
    if e.isEmpty {
      if mark == jobMark {
        reader.error(jobMark, field, Diagnostic.missing("guide", "a guide (the crop frame: shape and size)"))
      } else {
        // A guide is written, with no key cropjob knows (`{}`, `{sise: 100}`).
        reader.error(
          mark, field,
          Diagnostic.expected("the guide's size: size, width and height, or aspect with one side", received: "no size"))
      }
      return nil
    }
    var ok = true
    var shape = JobSchema.guide["shape"].defaultChoice(GuideShape.self)
    if let s = e["shape"] {
      if let v = reader.choice(s.node, s.field, GuideShape.self) { shape = v } else { ok = false }
    }
    func side(_ key: String) -> Int? {
      guard let entry = e[key] else { return nil }
      let value = reader.int(entry.node, entry.field, JobSchema.guide[key].type)
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
      // The side the aspect gives, checked in floating point first: an aspect such as
      // 16:2222…9 gives a side beyond any Int (found by fuzz/targets/jobfile).
      var derived: (name: String, value: Double)?
      if let w0 = w, h == nil { derived = ("height", Double(w0) / aspect) }
      if let h0 = h, w == nil { derived = ("width", Double(h0) * aspect) }
      if let derived {
        let rounded = derived.value.rounded()
        guard rounded.isFinite, rounded <= Double(JobSchema.maxSide) else {
          let shown = rounded < 1e15 ? String(Int(rounded)) : "\(rounded)"
          reader.error(
            a.node.mark, a.field,
            Diagnostic.expected(
              "a \(derived.name) of at most \(JobSchema.maxSide) pixels",
              received: "aspect \(a.node.scalar ?? "") giving \(derived.name) \(shown)"))
          return nil
        }
        let side = max(1, Int(rounded))
        if derived.name == "height" { h = side } else { w = side }
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
}
