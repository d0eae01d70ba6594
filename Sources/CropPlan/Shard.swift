/// One of N disjoint parts of a plan's outputs, chosen by a stable hash of their source's path.
public struct Shard: Sendable, Hashable {
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Whether the work keyed by `path` belongs to this shard. The executor passes the path
  /// of each output's original source (as the job file names it), so that all outputs of a
  /// source, and its `from:` chain, fall in one shard and each source is decoded once.
  /// FNV-1a: stable across runs, machines and Swift versions (unlike `hashValue`).
  public func contains(_ path: String) -> Bool {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return Int(hash % UInt64(count)) == index
  }
}
