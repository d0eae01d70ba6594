/// A hash table of indices into an array the caller keeps: 4 bytes a slot, where a
/// `Dictionary` keyed by the items' strings would hold a copy of each key (a crop table's
/// million sources). The caller hashes and compares; the table only finds slots (open
/// addressing, linear probing, at most half full).
package struct IndexTable: Sendable {
  /// Index + 1 of the item in each slot; 0 is empty.
  private var slots: [Int32]
  private var count = 0

  /// A table with room for `capacity` items before it grows.
  package init(capacity: Int = 16) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = Array(repeating: 0, count: size)
  }

  /// The first stored index whose hash is `hash` and for which `matches` is true.
  package func find(hash: Int, _ matches: (Int) -> Bool) -> Int? {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 {
      let index = Int(slots[slot]) - 1
      if matches(index) { return index }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Makes room for `capacity` items at once (growing by doubling rehashes each time).
  package mutating func reserve(_ capacity: Int, hashOf: (Int) -> Int) {
    guard capacity * 2 > slots.count else { return }
    let old = slots
    var size = slots.count
    while size < capacity * 2 { size *= 2 }
    slots = Array(repeating: 0, count: size)
    count = 0
    for stored in old where stored != 0 { place(hash: hashOf(Int(stored) - 1), index: Int(stored) - 1) }
  }

  /// Stores `index` under `hash`; `hashOf` gives the hash of a stored index when the table
  /// grows. Indices must be below `Int32.max`.
  package mutating func insert(hash: Int, index: Int, hashOf: (Int) -> Int) {
    precondition(index < Int(Int32.max), "IndexTable holds at most Int32.max - 1 items")
    if (count + 1) * 2 > slots.count { reserve(count + 1, hashOf: hashOf) }
    place(hash: hash, index: index)
  }

  private mutating func place(hash: Int, index: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(index + 1)
    count += 1
  }
}
