/// Builds the node tree from parse events, enforcing `YAMLLimits` as events arrive (so a
/// hostile file stops libyaml early), expanding aliases, applying merge keys and rejecting
/// duplicate and non-scalar keys and extra documents.
struct YAMLTreeBuilder {
  /// A node with the facts the limits need: its height (0 for a scalar, 1 + the tallest
  /// child for a collection) and its size in nodes, aliases expanded.
  private struct Built {
    var node: YAMLNode
    var height: Int
    var size: Int
  }

  /// A collection being built.
  private struct Frame {
    var isMapping: Bool
    var mark: SourceMark
    var tag: String?
    var anchor: String?
    var items: [YAMLNode] = []
    var pairs: [YAMLPair] = []
    var pendingKey: YAMLNode?
    /// Explicit keys seen so far, with their marks.
    var keys: [String: SourceMark] = [:]
    /// Where the merge key (`<<`) is, if the mapping has one.
    var mergeKeyMark: SourceMark?
    /// Indexes in `pairs` of merge-key (`<<`) pairs.
    var mergeIndexes: [Int] = []
    var height = 1
    var size = 1
  }

  let limits: YAMLLimits
  private var stack: [Frame] = []
  private var anchors: [String: Built] = [:]
  private var documents = 0
  private var nodeCount = 0
  private var aliasCount = 0
  private(set) var root: YAMLNode?

  init(limits: YAMLLimits) {
    self.limits = limits
  }

  mutating func handle(_ event: YAMLEvent) throws(YAMLError) {
    switch event {
    case .documentStart(let mark):
      documents += 1
      if documents > 1 {
        throw YAMLError(
          message: "found a second YAML document; expected exactly one document per file",
          mark: mark)
      }
    case .documentEnd:
      break
    case .scalar(let text, let style, let tag, let anchor, let mark):
      try countNodes(1, at: mark)
      let built = Built(
        node: YAMLNode(value: .scalar(text, style), mark: mark, tag: tag), height: 0, size: 1)
      if let anchor { anchors[anchor] = built }
      try add(built)
    case .sequenceStart(let tag, let anchor, let mark):
      try open(Frame(isMapping: false, mark: mark, tag: tag, anchor: anchor))
    case .mappingStart(let tag, let anchor, let mark):
      try open(Frame(isMapping: true, mark: mark, tag: tag, anchor: anchor))
    case .sequenceEnd, .mappingEnd:
      try close()
    case .alias(let name, let mark):
      try alias(name, at: mark)
    }
  }

  private mutating func countNodes(_ count: Int, at mark: SourceMark) throws(YAMLError) {
    nodeCount += count
    if nodeCount > limits.maxNodes {
      throw YAMLError(
        message: "the document has more than \(limits.maxNodes) nodes (aliases expanded); "
          + "expected a smaller document", mark: mark)
    }
  }

  /// Rejects a collection in key position before its content is parsed.
  private func checkKeyPosition(_ kind: String, at mark: SourceMark) throws(YAMLError) {
    if let top = stack.last, top.isMapping, top.pendingKey == nil {
      throw YAMLError(
        message: "mapping keys must be scalars, found \(kind) as a key", mark: mark)
    }
  }

  private mutating func open(_ frame: Frame) throws(YAMLError) {
    try checkKeyPosition(frame.isMapping ? "a mapping" : "a sequence", at: frame.mark)
    if stack.count + 1 > limits.maxDepth {
      throw YAMLError(
        message: "nesting is deeper than \(limits.maxDepth) levels; "
          + "expected at most \(limits.maxDepth) nested sequences and mappings",
        mark: frame.mark)
    }
    try countNodes(1, at: frame.mark)
    stack.append(frame)
  }

  private mutating func close() throws(YAMLError) {
    guard var frame = stack.popLast() else { return }
    let value: YAMLValue
    if frame.isMapping {
      if let key = frame.pendingKey {  // libyaml always pairs keys; stay safe anyway
        frame.pairs.append(
          YAMLPair(key: key, value: YAMLNode(value: .scalar("", .plain), mark: key.mark)))
      }
      value = .mapping(try merged(frame))
    } else {
      value = .sequence(frame.items)
    }
    let built = Built(
      node: YAMLNode(value: value, mark: frame.mark, tag: frame.tag), height: frame.height,
      size: frame.size)
    if let anchor = frame.anchor { anchors[anchor] = built }
    try add(built)
  }

  private mutating func alias(_ name: String, at mark: SourceMark) throws(YAMLError) {
    aliasCount += 1
    if aliasCount > limits.maxAliases {
      throw YAMLError(
        message: "more than \(limits.maxAliases) alias uses (*\(name)); "
          + "expected at most \(limits.maxAliases)", mark: mark)
    }
    if stack.contains(where: { $0.anchor == name }) {
      throw YAMLError(
        message: "alias *\(name) refers to a node that contains it; expected an alias to a "
          + "complete node", mark: mark)
    }
    guard var built = anchors[name] else {
      throw YAMLError(
        message: "unknown alias *\(name); expected an anchor &\(name) earlier in the file",
        mark: mark)
    }
    if built.height > 0 { try checkKeyPosition(built.node.kindDescription, at: mark) }
    if stack.count + built.height > limits.maxDepth {
      throw YAMLError(
        message: "alias *\(name) makes nesting deeper than \(limits.maxDepth) levels; "
          + "expected at most \(limits.maxDepth) nested sequences and mappings", mark: mark)
    }
    try countNodes(built.size, at: mark)
    built.node.mark = mark
    try add(built)
  }

  /// Attaches a finished node to the open collection, or makes it the root.
  private mutating func add(_ built: Built) throws(YAMLError) {
    guard !stack.isEmpty else {
      root = built.node
      return
    }
    let top = stack.count - 1
    stack[top].height = max(stack[top].height, built.height + 1)
    stack[top].size += built.size
    if !stack[top].isMapping {
      stack[top].items.append(built.node)
      return
    }
    guard let key = stack[top].pendingKey else {
      try acceptKey(built.node, in: top)
      return
    }
    stack[top].pendingKey = nil
    if isMergeKey(key) { stack[top].mergeIndexes.append(stack[top].pairs.count) }
    stack[top].pairs.append(YAMLPair(key: key, value: built.node))
  }

  private mutating func acceptKey(_ key: YAMLNode, in top: Int) throws(YAMLError) {
    guard let text = key.scalar else {
      throw YAMLError(
        message: "mapping keys must be scalars, found \(key.kindDescription) as a key",
        mark: key.mark)
    }
    let isMerge = isMergeKey(key)
    if let first = isMerge ? stack[top].mergeKeyMark : stack[top].keys[text] {
      throw YAMLError(
        message: "duplicate key \(quoted(text)) (first at \(first))", mark: key.mark)
    }
    if isMerge {
      stack[top].mergeKeyMark = key.mark
    } else {
      stack[top].keys[text] = key.mark
    }
    stack[top].pendingKey = key
  }

  /// `<<` written plain and untagged, or tagged `!!merge`.
  private func isMergeKey(_ key: YAMLNode) -> Bool {
    guard case .scalar("<<", let style) = key.value else { return false }
    return key.tag == "!!merge" || (key.tag == nil && style == .plain)
  }

  /// The frame's pairs with merge keys applied (YAML 1.1): the pairs of the merged
  /// mappings take the place of the `<<` pair, except keys the mapping sets explicitly;
  /// with `<<: [*a, *b]`, `*a` wins over `*b`.
  private func merged(_ frame: Frame) throws(YAMLError) -> [YAMLPair] {
    guard !frame.mergeIndexes.isEmpty else { return frame.pairs }
    var present = Set(frame.keys.keys)
    var result: [YAMLPair] = []
    var nextMerge = 0
    for (index, pair) in frame.pairs.enumerated() {
      guard nextMerge < frame.mergeIndexes.count, frame.mergeIndexes[nextMerge] == index else {
        result.append(pair)
        continue
      }
      nextMerge += 1
      let sources: [YAMLNode]
      switch pair.value.value {
      case .mapping: sources = [pair.value]
      case .sequence(let items): sources = items
      case .scalar: sources = [pair.value]
      }
      for source in sources {
        guard let pairs = source.mapping else {
          throw YAMLError(
            message: "merge key << expects a mapping or a sequence of mappings, found "
              + source.kindDescription, mark: source.mark)
        }
        for merging in pairs {
          guard let key = merging.key.scalar, !present.contains(key) else { continue }
          present.insert(key)
          result.append(merging)
        }
      }
    }
    return result
  }

  private func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars.prefix(80) {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        out += scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
      }
    }
    return out + (text.unicodeScalars.count > 80 ? "…\"" : "\"")
  }
}
