import CropStorage
import CropSupport

/// The sources in object storage of a list of matches or of a plan's sources, by number, held
/// compactly (a batch lists a million): 32 bytes a source — which store, and the identity the
/// listing gave (`SourceFileStatus(object:)`: size, last-modified time, the ETag's hash). The
/// key is not kept: it is the source's path after `store.displayName + "/"`. A
/// `SourceObject` is made for a source only when a window plans it (`object(_:path:)`).
/// Numbers without an object (files) cost nothing until an object comes after them; a list of
/// files alone holds nothing.
package struct SourceObjects: Sendable {
  private struct Entry {
    /// In `stores`; -1: a file.
    var store: Int32
    var size: Int64
    var mtime: Int64
    var etagHash: UInt64
  }

  private var stores: [any ObjectStorage] = []
  private var entries: [Entry] = []
  /// Where a run keeps the objects it reads whole while planning (`ObjectSpool`), given to
  /// every `SourceObject` made.
  package var spool: ObjectSpool? = nil

  package init() {}

  /// Whether no source is in object storage.
  package var isEmpty: Bool { entries.isEmpty }

  /// Notes that source `index` is `info` in `store`, as listed.
  package mutating func set(_ index: Int, store: any ObjectStorage, info: ObjectInfo) {
    let name = store.displayName
    let number: Int
    if let found = stores.lastIndex(where: { $0.displayName == name }) {
      number = found
    } else {
      number = stores.count
      stores.append(store)
    }
    let identity = SourceFileStatus(object: info)
    put(
      index,
      Entry(store: Int32(number), size: identity.size, mtime: identity.mtime, etagHash: identity.inode))
  }

  /// Notes that source `index` is what source `other` is in `list` (nothing for a file).
  package mutating func set(_ index: Int, as other: Int, in list: SourceObjects) {
    guard other < list.entries.count, list.entries[other].store >= 0 else { return }
    var entry = list.entries[other]
    let store = list.stores[Int(entry.store)]
    if let found = stores.lastIndex(where: { $0.displayName == store.displayName }) {
      entry.store = Int32(found)
    } else {
      entry.store = Int32(stores.count)
      stores.append(store)
    }
    put(index, entry)
  }

  /// Releases spare capacity (after the last `set`).
  package mutating func shrink() {
    entries.shrinkToFit()
  }

  private mutating func put(_ index: Int, _ entry: Entry) {
    if entries.count <= index {
      while entries.count < index { entries.append(Entry(store: -1, size: 0, mtime: 0, etagHash: 0)) }
      entries.append(entry)
    } else {
      entries[index] = entry
    }
  }

  /// Source `index` as an object of its store (nil for a file); `path`: its path
  /// (`s3://bucket/key`).
  package func object(_ index: Int, path: String) -> SourceObject? {
    guard index < entries.count, entries[index].store >= 0 else { return nil }
    let entry = entries[index]
    let store = stores[Int(entry.store)]
    let key = String(path.utf8.dropFirst(store.displayName.utf8.count + 1)) ?? ""
    return SourceObject(
      store: store, key: key,
      identity: SourceFileStatus(
        size: entry.size, mtime: entry.mtime, inode: entry.etagHash, ctime: 0, device: SourceFileStatus.objectDevice),
      spool: spool)
  }
}
