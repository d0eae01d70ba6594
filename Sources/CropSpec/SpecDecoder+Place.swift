import CropGeometry

extension SpecDecoder {
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
    if let n = e["zoom"], let v = reader.double(n, join(field, "zoom"), JobSchema.place["zoom"].type) {
      p.zoom = v
      set.insert("zoom")
    }
    if let n = e["offset"], let v = reader.pair(n, join(field, "offset"), JobSchema.place["offset"].type) {
      p.offset = Point(x: v.0, y: v.1)
      set.insert("offset")
    }
    if let n = e["focus"], let v = focus(n, join(field, "focus")) {
      if case .search(let search) = v, search.finders.contains(.faces), let problem = faceDetectorProblem() {
        reader.error(
          n.mark, join(field, "focus"), Diagnostic.expected("a face detector for focus: faces", received: problem))
      }
      p.focus = v
      set.insert("focus")
    }
    if let n = e["rotate"], let v = reader.double(n, join(field, "rotate"), JobSchema.place["rotate"].type) {
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
    if let n = e["upscale"] {
      if case .scalar(let text, _) = n.value, text == "skip" {
        (p.upscale, p.upscaleSkip) = (false, true)
        set.insert("upscale")
      } else if let v = ["true": true, "false": false][NodeReader.plainText(n) ?? ""] {
        (p.upscale, p.upscaleSkip) = (v, nil)
        set.insert("upscale")
      } else {
        reader.expected(n, join(field, "upscale"), "true, false or skip")
      }
    }
    if let n = e["face_padding"],
      let v = reader.double(n, join(field, "face_padding"), JobSchema.place["face_padding"].type)
    {
      p.facePadding = v
      set.insert("face_padding")
    }
    if let n = e["regions"], let v = regionTypes(n, join(field, "regions")) {
      p.regionTypes = v
      set.insert("regions")
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

  /// A position, a point, a smart strategy, a finder (`faces`, `regions`), or a list of
  /// strategies tried in order (`[regions, faces, attention]`).
  mutating func focus(_ node: YAMLNode, _ field: String) -> FocusSpec? {
    switch node.value {
    case .sequence(let items):
      // Two items without a strategy's name are a point `[x, y]` (checked as numbers);
      // anything else is a list of strategies.
      if items.count == 2, !items.contains(where: { $0.scalar.map(JobSchema.focusNames.contains) ?? false }) {
        return focusStep(node, field)
      }
      return focusList(node, items, field)
    case .scalar:
      return focusStep(node, field)
    case .mapping:
      reader.expected(node, field, "a position name, a smart strategy, faces, regions, a point [x, y] or a list")
      return nil
    }
  }

  /// One strategy: a finder alone falls back to `attention`.
  private mutating func focusStep(_ node: YAMLNode, _ field: String) -> FocusSpec? {
    switch node.value {
    case .sequence:
      guard let (x, y) = reader.pair(node, field, JobSchema.pointType) else { return nil }
      return .point(Point(x: x, y: y))
    case .scalar(let text, _):
      if let named = NamedPosition(rawValue: text) ?? JobSchema.focusAliases[text] { return .named(named) }
      if let smart = SmartStrategy(rawValue: text) { return .smart(smart) }
      if let finder = BoxFinder(rawValue: text) {
        return .search(FocusSearch(finders: [finder], fallback: FocusSearch.defaultFallback))
      }
      reader.expected(
        node, field,
        "a position (\(NamedPosition.allCases.map(\.rawValue).joined(separator: ", "))), a smart strategy "
          + "(\(SmartStrategy.allCases.map(\.rawValue).joined(separator: ", "))), "
          + "\(BoxFinder.allCases.map(\.rawValue).joined(separator: ", ")) or a point [x, y] in 0...1",
        hint: Suggestion.didYouMean(text, in: JobSchema.focusNames))
      return nil
    case .mapping:
      reader.expected(node, field, "a position name, a smart strategy, faces, regions or a point [x, y]")
      return nil
    }
  }

  /// A list: finders first, each once; the last item may be any other strategy (the fallback),
  /// and nothing follows it (it always places the photo).
  private mutating func focusList(_ node: YAMLNode, _ items: [YAMLNode], _ field: String) -> FocusSpec? {
    guard !items.isEmpty else {
      reader.expected(node, field, "at least one strategy (e.g. [faces, attention])")
      return nil
    }
    var finders: [BoxFinder] = []
    var seen: [BoxFinder: Int] = [:]
    for (index, item) in items.enumerated() {
      let itemField = "\(field)[\(index)]"
      guard let step = focusStep(item, itemField) else { return nil }
      guard case .search(let search) = step else {
        if index != items.count - 1 {
          reader.error(
            items[index + 1].mark, "\(field)[\(index + 1)]",
            Diagnostic.expected(
              "nothing after \(step.name) (it always places the photo, so later strategies are never tried)",
              received: NodeReader.describe(items[index + 1])))
          return nil
        }
        return finders.isEmpty ? step : .search(FocusSearch(finders: finders, fallback: step))
      }
      let finder = search.finders[0]
      guard reader.distinct(finder, item, field, index: index, seen: &seen) else { return nil }
      finders.append(finder)
    }
    return .search(FocusSearch(finders: finders, fallback: FocusSearch.defaultFallback))
  }

  /// The items of a field that takes one name or a list of them, each with the field it is
  /// reported under (`flip`, `flip[1]`); nil, after reporting, for a mapping (`what` says
  /// what was expected) or a list shorter than `minItems`.
  mutating func nameOrList(_ node: YAMLNode, _ field: String, minItems: Int, names: [String], what: String)
    -> [(YAMLNode, String)]?
  {
    switch node.value {
    case .sequence(let list):
      if list.count < minItems {
        reader.expected(node, field, "at least \(minItems) of " + names.joined(separator: ", "))
        return nil
      }
      return list.enumerated().map { ($0.element, "\(field)[\($0.offset)]") }
    case .scalar: return [(node, field)]
    case .mapping:
      reader.expected(node, field, what)
      return nil
    }
  }

  /// A region type or a list of them, each once.
  mutating func regionTypes(_ node: YAMLNode, _ field: String) -> [RegionType]? {
    let names = RegionType.allCases.map(\.rawValue)
    let rule = JobSchema.place["regions"].list
    guard
      let items = nameOrList(
        node, field, minItems: rule.minItems, names: names,
        what: "a region type (\(names.joined(separator: ", "))) or a list of them")
    else { return nil }
    var types: [RegionType] = []
    var seen: [RegionType: Int] = [:]
    for (index, (item, itemField)) in items.enumerated() {
      guard let type = reader.choice(item, itemField, RegionType.self) else { return nil }
      if case .sequence = node.value, !reader.distinct(type, item, field, index: index, seen: &seen) { return nil }
      types.append(type)
    }
    return types
  }

  /// A flip name or a list of them, held to the table's list rule (no name twice).
  mutating func flip(_ node: YAMLNode, _ field: String) -> (Bool, Bool)? {
    let names = JobSchema.flipNames
    let rule = JobSchema.place["flip"].list
    var h = false
    var v = false
    guard
      let items = nameOrList(
        node, field, minItems: rule.minItems, names: names,
        what: "horizontal, vertical, both or none, or a list of them")
    else { return nil }
    var seen: [String: Int] = [:]
    for (index, (item, itemField)) in items.enumerated() {
      guard case .scalar(let text, _) = item.value, names.contains(text) else {
        reader.expected(
          item, itemField, "one of " + names.joined(separator: ", "),
          hint: item.scalar.map { Suggestion.didYouMean($0, in: names) } ?? "")
        return nil
      }
      if case .sequence = node.value, rule.unique, !reader.distinct(text, item, field, index: index, seen: &seen) {
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
    func required(_ key: String) -> Double {
      guard let n = e[key] else {
        reader.error(
          node.mark, join(field, key),
          Diagnostic.missing(key, "the crop's \(key) (crop needs x, y, width and height in source pixels)"))
        ok = false
        return 0
      }
      let range = JobSchema.cropTableRange(key, units: tableSettings?.units ?? .pixels)
      guard let v = reader.double(n, join(field, key), in: range) else {
        ok = false
        return 0
      }
      return v
    }
    let x = required("x")
    let y = required("y")
    let w = required("width")
    let h = required("height")
    var angle = JobSchema.crop["angle"].defaultNumber
    if let n = e["angle"] {
      if let v = reader.double(n, join(field, "angle"), JobSchema.crop["angle"].type) { angle = v } else { ok = false }
    }
    return ok ? CropRect(x: x, y: y, width: w, height: h, angle: angle) : nil
  }
}
