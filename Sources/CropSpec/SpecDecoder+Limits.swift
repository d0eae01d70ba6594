extension SpecDecoder {
  // MARK: Limits

  /// The `limits` mapping over `InputLimits()`.
  mutating func limits(_ node: YAMLNode) -> InputLimits {
    var limits = InputLimits()
    guard let entries = reader.mapping(node, "limits", known: Self.limitKeys) else { return limits }
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
    return limits
  }
}
