extension SpecDecoder {
  // MARK: Limits

  /// The `limits` mapping over `InputLimits()`: each key in the range the table gives it.
  mutating func limits(_ node: YAMLNode) -> InputLimits {
    var limits = InputLimits()
    guard let entries = reader.mapping(node, "limits", known: Self.limitKeys) else { return limits }
    let keys: [(String, WritableKeyPath<InputLimits, Int>)] = [
      ("max_pixels", \.maxPixels), ("max_file_bytes", \.maxFileBytes), ("max_pages", \.maxPages),
    ]
    for (key, limit) in keys {
      if let n = entries[key], let v = reader.int(n, "limits.\(key)", JobSchema.limits[key].type) {
        limits[keyPath: limit] = v
      }
    }
    return limits
  }
}
