/// Many strings in one UTF-8 buffer with their end offsets: about the strings' own bytes plus
/// 4 bytes each, where an array of `String` costs 16 bytes inline and a heap block for every
/// string longer than 15 bytes (a batch's million source paths). The bytes all the strings
/// start with are kept once (`shrink` finds them: a listing's `s3://bucket/prefix/`).
package struct StringTable: Sendable {
  private var bytes: [UInt8] = []
  /// End offset of each string in `bytes`.
  private var ends: [UInt32] = []
  /// The bytes every string starts with, not in `bytes` (`shrink`).
  private var prefix: [UInt8] = []

  package init() {}

  package var count: Int { ends.count }
  package var isEmpty: Bool { ends.isEmpty }
  /// The UTF-8 bytes of all the strings.
  package var byteCount: Int { bytes.count + prefix.count * count }
  /// The bytes held for them: the shared prefix once.
  package var storedBytes: Int { bytes.count + prefix.count }

  /// Makes room for `strings` strings of `bytes` bytes in all, so that appending up to
  /// there does not grow the buffers.
  package mutating func reserveCapacity(strings: Int, bytes total: Int) {
    ends.reserveCapacity(strings)
    bytes.reserveCapacity(total)
  }

  private func start(_ index: Int) -> Int { index == 0 ? 0 : Int(ends[index - 1]) }

  /// Adds `text` at the end; its index is the old `count`.
  package mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      if !prefix.isEmpty && !utf8.starts(with: prefix) { restorePrefix() }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[prefix.count...]))
    }
    precondition(bytes.count <= Int(UInt32.max), "StringTable holds at most 4 GiB of text")
    ends.append(UInt32(bytes.count))
  }

  package subscript(index: Int) -> String {
    let (from, to) = (start(index), Int(ends[index]))
    return bytes.withUnsafeBufferPointer { buffer in
      let rest = UnsafeBufferPointer(rebasing: buffer[from..<to])
      guard !prefix.isEmpty else { return String(decoding: rest, as: UTF8.self) }
      return String(unsafeUninitializedCapacity: prefix.count + rest.count) { target in
        _ = target.initialize(from: prefix)
        _ = UnsafeMutableBufferPointer(rebasing: target[prefix.count...]).initialize(from: rest)
        return prefix.count + rest.count
      }
    }
  }

  /// Whether the last string is `text`.
  package func last(equals text: String) -> Bool {
    guard let end = ends.last.map(Int.init) else { return false }
    let from = start(count - 1)
    var text = text
    return text.withUTF8 { utf8 in
      utf8.count == prefix.count + end - from && utf8.starts(with: prefix)
        && bytes[from..<end].elementsEqual(utf8[prefix.count...])
    }
  }

  /// `HashSet64.hash(self[index])`, from the bytes in place (no `String` made).
  package func hash(_ index: Int) -> UInt64 {
    let (from, to) = (start(index), Int(ends[index]))
    let seed = prefix.withUnsafeBufferPointer { HashSet64.hash($0) }
    return bytes.withUnsafeBufferPointer { HashSet64.hash(UnsafeBufferPointer(rebasing: $0[from..<to]), seed: seed) }
  }

  /// Whether any string holds a byte outside ASCII (then byte order may differ from
  /// `String`'s order, which compares Unicode-normalised text).
  package var isASCII: Bool { !bytes.contains { $0 >= 0x80 } && !prefix.contains { $0 >= 0x80 } }

  /// `self[a] < self[b]` as `String` compares them, by bytes when both are ASCII.
  package func less(_ a: Int, _ b: Int) -> Bool {
    let (fa, ta, fb, tb) = (start(a), Int(ends[a]), start(b), Int(ends[b]))
    return bytes.withUnsafeBufferPointer { buffer in
      var i = fa
      var j = fb
      while i < ta && j < tb {
        let (x, y) = (buffer[i], buffer[j])
        if x >= 0x80 || y >= 0x80 { return self[a] < self[b] }
        if x != y { return x < y }
        i += 1
        j += 1
      }
      if i < ta || j < tb {
        // One is a prefix of the other up to here: a non-ASCII rest needs `String`'s order.
        if buffer[i..<ta].contains(where: { $0 >= 0x80 }) || buffer[j..<tb].contains(where: { $0 >= 0x80 }) {
          return self[a] < self[b]
        }
      }
      return ta - i < tb - j
    }
  }

  /// Whether the strings at `a` and `b` are the same bytes.
  package func equal(_ a: Int, _ b: Int) -> Bool {
    let (fa, ta, fb, tb) = (start(a), Int(ends[a]), start(b), Int(ends[b]))
    guard ta - fa == tb - fb else { return false }
    return bytes.withUnsafeBufferPointer { $0[fa..<ta].elementsEqual($0[fb..<tb]) }
  }

  /// Releases spare capacity (after the last append), and keeps the bytes every string
  /// starts with once.
  package mutating func shrink() {
    // The bytes (of `bytes`, after `prefix`) all the strings start with.
    var shared = 0
    if count > 1 {
      shared = Int(ends[0])
      for i in 1..<count where shared > 0 {
        let from = start(i)
        let limit = min(shared, Int(ends[i]) - from)
        var k = 0
        while k < limit && bytes[from + k] == bytes[k] { k += 1 }
        shared = k
      }
    }
    guard shared > 0 else {
      bytes.shrinkToFit()
      ends.shrinkToFit()
      return
    }
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count - shared * count)
    var newEnds: [UInt32] = []
    newEnds.reserveCapacity(count)
    for i in 0..<count {
      kept.append(contentsOf: bytes[(start(i) + shared)..<Int(ends[i])])
      newEnds.append(UInt32(kept.count))
    }
    prefix += bytes[0..<shared]
    (bytes, ends) = (kept, newEnds)
  }

  /// Puts the shared prefix back into every string (a string without it was appended).
  private mutating func restorePrefix() {
    var whole: [UInt8] = []
    whole.reserveCapacity(bytes.count + prefix.count * (count + 1))
    var newEnds: [UInt32] = []
    newEnds.reserveCapacity(count)
    for i in 0..<count {
      whole += prefix
      whole.append(contentsOf: bytes[start(i)..<Int(ends[i])])
      newEnds.append(UInt32(whole.count))
    }
    (bytes, ends, prefix) = (whole, newEnds, [])
  }
}

extension Array {
  /// Releases spare capacity: the elements are copied into a buffer of their size when the
  /// buffer is larger (`Array(self)` would share the buffer, capacity and all).
  package mutating func shrinkToFit() {
    guard capacity > count else { return }
    var copy: [Element] = []
    copy.reserveCapacity(count)
    copy.append(contentsOf: self)
    self = copy
  }
}

/// A set of 64-bit hashes (open addressing, linear probing, at most two thirds full): 8 to 16
/// bytes an item. Membership of a hash says "maybe"; the caller confirms what it must.
package struct HashSet64: Sendable {
  private var slots: [UInt64] = Array(repeating: 0, count: 16)
  package private(set) var count = 0

  package init() {}

  /// 0 marks an empty slot: the one hash that is 0 is stored as 1.
  private static func key(_ hash: UInt64) -> UInt64 { hash == 0 ? 1 : hash }

  package func contains(_ hash: UInt64) -> Bool {
    let key = Self.key(hash)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
    while slots[slot] != 0 {
      if slots[slot] == key { return true }
      slot = (slot + 1) & mask
    }
    return false
  }

  /// Adds `hash`; false when it was there already.
  @discardableResult
  package mutating func insert(_ hash: UInt64) -> Bool {
    if (count + 1) * 3 > slots.count * 2 { grow() }
    let key = Self.key(hash)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
    while slots[slot] != 0 {
      if slots[slot] == key { return false }
      slot = (slot + 1) & mask
    }
    slots[slot] = key
    count += 1
    return true
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    count = 0
    for key in old where key != 0 { insert(key) }
  }

  /// FNV-1a of the UTF-8 bytes: stable across runs (unlike `hashValue`).
  package static func hash(_ text: String) -> UInt64 {
    var text = text
    // Over the contiguous bytes (`withUTF8`): the UTF-8 view's iterator costs several times more.
    return text.withUTF8 { hash($0) }
  }

  /// FNV-1a of `bytes`; `seed`: the hash of the bytes before them.
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    var hash = seed
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
