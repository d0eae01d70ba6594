/// Bounds on what `YAMLParser` accepts, so that hostile job files fail fast instead of
/// exhausting time or memory.
public struct YAMLLimits: Sendable {
  /// Largest input, in bytes.
  public var maxBytes = 1 << 20
  /// Deepest nesting of sequences and mappings (the root collection is level 1), counting
  /// the levels that expanded aliases bring in.
  public var maxDepth = 64
  /// Most alias uses (`*name`) in the document.
  public var maxAliases = 100
  /// Most nodes in the tree after aliases are expanded (guards against "billion laughs").
  public var maxNodes = 100_000

  /// The default limits.
  public init() {}
}
