extension SpecDecoder {
  // MARK: Placeholders

  /// `placeholders:`, a list of kinds or a mapping with `kinds` and settings; an empty
  /// `kinds` gives a spec with none (an output then computes nothing). Nil after an error.
  mutating func placeholderSpec(_ node: YAMLNode, _ field: String) -> PlaceholderSpec? {
    let kindsWhat = "a list of placeholder kinds: " + JobSchema.placeholderKindNames.joined(separator: ", ")
    switch node.value {
    case .sequence:
      return placeholderKinds(node, field, what: kindsWhat).map { PlaceholderSpec(kinds: $0) }
    case .mapping:
      let object = JobSchema.placeholderSettings
      guard let e = reader.mapping(node, field, known: object.keys) else { return nil }
      var ok = true
      var kinds: [PlaceholderKind] = []
      if let n = e["kinds"] {
        if let v = placeholderKinds(n, join(field, "kinds"), what: kindsWhat) { kinds = v } else { ok = false }
      } else {
        reader.error(node.mark, join(field, "kinds"), Diagnostic.missing("kinds", kindsWhat))
        ok = false
      }
      var spec = PlaceholderSpec(kinds: kinds)
      if let n = e["blurhash_components"] {
        let rule = object["blurhash_components"].list
        let what =
          "[across, down], each \(JobSchema.blurhashComponentRange.lowerBound) to "
          + "\(JobSchema.blurhashComponentRange.upperBound)"
        if case .sequence(let items) = n.value, items.count == 2 {
          let values = items.enumerated().map {
            reader.int($1, join(field, "blurhash_components") + "[\($0)]", rule.item)
          }
          if let x = values[0], let y = values[1] {
            spec.blurhashX = x
            spec.blurhashY = y
          } else {
            ok = false
          }
        } else {
          reader.expected(n, join(field, "blurhash_components"), what)
          ok = false
        }
      }
      if let n = e["lqip_size"] {
        if let v = reader.int(n, join(field, "lqip_size"), object["lqip_size"].type) {
          spec.lqipSize = v
        } else {
          ok = false
        }
      }
      if let n = e["lqip_format"] {
        if let v = reader.choice(n, join(field, "lqip_format"), LQIPFormat.self) {
          spec.lqipFormat = v
        } else {
          ok = false
        }
      }
      return ok ? spec : nil
    default:
      reader.expected(node, field, kindsWhat + ", or a mapping with kinds and their settings")
      return nil
    }
  }

  /// The kinds of a `placeholders` list, each once.
  private mutating func placeholderKinds(_ node: YAMLNode, _ field: String, what: String) -> [PlaceholderKind]? {
    guard let items = reader.list(node, field, what: what) else { return nil }
    var kinds: [PlaceholderKind] = []
    var seen: [PlaceholderKind: Int] = [:]
    var ok = true
    for (index, item) in items.enumerated() {
      guard let kind = reader.choice(item, "\(field)[\(index)]", PlaceholderKind.self),
        reader.distinct(kind, item, field, index: index, seen: &seen)
      else {
        ok = false
        continue
      }
      kinds.append(kind)
    }
    return ok ? kinds : nil
  }
}
