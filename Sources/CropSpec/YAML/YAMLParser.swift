/// Parses one YAML document (a job file) into a `YAMLNode` tree with source marks.
///
/// Built on libyaml's event API. Limits are enforced while events arrive, so oversized,
/// deeply nested or alias-bomb inputs fail fast. Every error is a `YAMLError` with a
/// 1-based line:column.
package enum YAMLParser {
  /// Parses `bytes` (UTF-8, an optional byte order mark allowed).
  ///
  /// - Returns: the root node, or nil when the input holds no content (empty, only
  ///   comments, or an empty document such as a lone `---`).
  /// - Throws: `YAMLError` for input beyond `limits`, bytes that are not UTF-8, NUL bytes,
  ///   tabs in indentation, YAML syntax errors, unknown or recursive aliases, non-scalar or
  ///   duplicate keys, bad merge keys and more than one document.
  package static func parse(_ bytes: [UInt8], limits: YAMLLimits = .init()) throws(YAMLError)
    -> YAMLNode?
  {
    if bytes.count > limits.maxBytes {
      throw YAMLError(
        message: "the input is \(bytes.count) bytes, larger than the limit of "
          + "\(limits.maxBytes) bytes", mark: SourceMark(line: 1, column: 1))
    }
    let source = YAMLSource(bytes: bytes)
    try source.validateUTF8()
    if source.isEmpty { return nil }
    var builder = YAMLTreeBuilder(limits: limits)
    try YAMLEventReader.read(source) { (event) throws(YAMLError) in try builder.handle(event) }
    guard let root = builder.root else { return nil }
    if case .scalar("", .plain) = root.value, root.tag == nil { return nil }
    return root
  }

  /// Parses UTF-8 text; see `parse(_:limits:)` for bytes.
  package static func parse(_ text: String, limits: YAMLLimits = .init()) throws(YAMLError)
    -> YAMLNode?
  {
    try parse(Array(text.utf8), limits: limits)
  }
}
