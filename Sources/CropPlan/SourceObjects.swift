import CropStorage
import CropSupport

/// The sources in object storage of a list of matches or of a plan's sources, by number, held
/// compactly (a batch lists a million): 24 bytes a source — which store, and the identity the
/// listing gave (`SourceFileStatus(object:)`: size, last-modified time, the ETag's hash). The
/// key is not kept: it is the source's path after `store.displayName + "/"`. A
/// `SourceObject` is made for a source only when a window plans it (`object(_:path:)`).
/// Numbers without an object (files) cost nothing until an object comes after them; a list of
/// files alone holds nothing.
package struct SourceObjects: Sendable {
  private struct Entry {
    /// The store's number in `stores` + 1 (0: a file) in the top 16 bits, the size below
    /// (`largeSizes` holds a size that does not fit in 48 bits, 256 TiB).
    var storeAndSize: UInt64
    var mtime: Int64
    var etagHash: UInt64

    static let file = Entry(storeAndSize: 0, mtime: 0, etagHash: 0)
    static let sizeBits: UInt64 = 48
    static let sizeMask: UInt64 = (1 << sizeBits) - 1
    /// The mark, in the size's bits, of a size kept in `largeSizes`.
    static let large = sizeMask

    /// The store's number, nil for a file.
    var store: Int? { storeAndSize >> Self.sizeBits == 0 ? nil : Int(storeAndSize >> Self.sizeBits) - 1 }

    func with(store: Int) -> Entry {
      var entry = self
      entry.storeAndSize = UInt64(store + 1) << Self.sizeBits | storeAndSize & Self.sizeMask
      return entry
    }
  }

  private var stores: [any ObjectStorage] = []
  private var entries: [Entry] = []
  private var largeSizes: [Int: Int64] = [:]

  package init() {}

  /// Whether no source is in object storage.
  package var isEmpty: Bool { entries.isEmpty }

  /// Whether source `index` is in object storage.
  package func isObject(_ index: Int) -> Bool { index < entries.count && entries[index].store != nil }

  /// The number of `store` in `stores`, added if new.
  private mutating func number(of store: any ObjectStorage) -> Int {
    let name = store.displayName
    if let found = stores.lastIndex(where: { $0.displayName == name }) { return found }
    precondition(stores.count < (1 << (64 - Entry.sizeBits)) - 1, "SourceObjects holds at most 65,534 stores")
    stores.append(store)
    return stores.count - 1
  }

  /// Notes that source `index` is `info` in `store`, as listed.
  package mutating func set(_ index: Int, store: any ObjectStorage, info: ObjectInfo) {
    let identity = SourceFileStatus(object: info)
    let fits = identity.size >= 0 && UInt64(identity.size) < Entry.large
    let entry = Entry(
      storeAndSize: fits ? UInt64(identity.size) : Entry.large, mtime: identity.mtime, etagHash: identity.inode)
    put(index, entry.with(store: number(of: store)), size: fits ? nil : identity.size)
  }

  /// Notes that source `index` is what source `other` is in `list` (nothing for a file).
  package mutating func set(_ index: Int, as other: Int, in list: SourceObjects) {
    guard other < list.entries.count, let store = list.entries[other].store else { return }
    put(index, list.entries[other].with(store: number(of: list.stores[store])), size: list.largeSizes[other])
  }

  /// Releases spare capacity (after the last `set`).
  package mutating func shrink() {
    entries.shrinkToFit()
  }

  private mutating func put(_ index: Int, _ entry: Entry, size: Int64?) {
    if entries.count <= index {
      while entries.count < index { entries.append(.file) }
      entries.append(entry)
    } else {
      entries[index] = entry
    }
    if size != nil || !largeSizes.isEmpty { largeSizes[index] = size }
  }

  /// Source `index` as an object of its store (nil for a file); `path`: its path
  /// (`s3://bucket/key`).
  package func object(_ index: Int, path: String) -> SourceObject? {
    guard index < entries.count, let number = entries[index].store else { return nil }
    let entry = entries[index]
    let store = stores[number]
    let bits = entry.storeAndSize & Entry.sizeMask
    let size = bits == Entry.large ? largeSizes[index] ?? 0 : Int64(bits)
    let key = String(path.utf8.dropFirst(store.displayName.utf8.count + 1)) ?? ""
    return SourceObject(
      store: store, key: key,
      identity: SourceFileStatus(
        size: size, mtime: entry.mtime, inode: entry.etagHash, ctime: 0, device: SourceFileStatus.objectDevice))
  }
}
