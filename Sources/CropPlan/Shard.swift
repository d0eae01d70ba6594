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
  package func contains(_ path: String) -> Bool {
    Self.index(of: path, count: count) == index
  }

  /// The shard (0..<count) of `path`: FNV-1a over its UTF-8 bytes, then the 64-bit finalizer
  /// of MurmurHash3 so that every input bit reaches every output bit, then a multiply-high
  /// range reduction (the top bits of hash × count), which uses the hash's best-mixed bits and
  /// needs no modulo. Stable across runs, machines and Swift versions (unlike `hashValue`).
  ///
  /// FNV-1a alone, taken modulo a power of two, depends only on the bytes' low bits: a name
  /// repeated in a path (`shoes/SKU1/SKU1.jpg`) cancels out, and a catalogue fell in one shard.
  package static func index(of path: String, count: Int) -> Int {
    precondition(count >= 1, "a shard count is at least 1")
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    hash ^= hash >> 33
    hash = hash &* 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash = hash &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return Int(hash.multipliedFullWidth(by: UInt64(count)).high)
  }
}
