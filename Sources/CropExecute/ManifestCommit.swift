import CropStorage
import CropStore
import CropSupport
import Foundation

extension Run {
  /// Writes the manifest: what this run's outputs are now (written or up to date), plus the
  /// entries of outputs this run did not reach (interrupted, other failures) kept as they
  /// were. Every output is flushed to disk first. False when the manifest could not be written.
  @discardableResult
  func commitManifest() -> Bool {
    let name = Manifest.fileName(shard: options.shard)
    let path = PathText.appending(root, name)
    let header = "\(CropKitVersion.string) \(engineVersion)"
    // A run that wrote, removed and failed nothing, over a manifest written after the last
    // change of the outputs, leaves it as it is (a no-op re-run of 20,000 outputs spent 12 %
    // of its time re-encoding the same 18 MB).
    let quiet = summary.withLock { $0.written == 0 && $0.failed == 0 && !$0.interrupted }
    if quiet && !writer.manifestIsStale(name, identity: manifestIdentity(name, path: path, header: header)) {
      return true
    }
    let list = manifest.withLock { $0 }
    do {
      // Outputs were written without an fsync each: flush them all before the manifest says
      // they exist.
      if summary.withLock({ $0.written > 0 }) { try AtomicWriter.syncFileSystem(containing: root) }
      try writeManifest(list, to: path)
      if outputs.isListed { try putManifest(name, path: path) }
      // A manifest with entries kept from the last good run is written again by the next
      // run, even a quiet one: its identity is recorded with a mark no file has.
      let identity = manifestIdentity(name, path: path, header: header)
      writer.recordManifest(name, identity: list.hasKept ? identity.map { $0 + " kept" } : identity)
      // An unsharded run's manifest lists every output the plan has (and the stale ones):
      // earlier shard manifests are superseded, and removed so that they cannot mislead.
      if (options.shard?.count ?? 1) == 1 {
        Manifest.removeShardManifests(root: root)
        for path in outputs.listedPaths(under: "") where Manifest.isShardManifest(path) { try outputs.delete(path) }
      }
      return true
    } catch {
      recordFailure(output: name, source: "", reason: "\(error)")
      return false
    }
  }

  /// What identifies the manifest `name` as written: the file's identity, or, in an object
  /// store, the ETag the store gave it (known from the listing: a no-op reads nothing more).
  private func manifestIdentity(_ name: String, path: String, header: String) -> String? {
    guard outputs.isListed else { return StateWriter.manifestIdentity(path: path, header: header) }
    guard case .object(let etag, let size, _, _) = outputs.listedObject(name)?.token, !etag.isEmpty else {
      return nil
    }
    return "etag \(etag):\(size):\(header)"
  }

  /// Puts the manifest written at `path` in the object store as `name` (in the output
  /// prefix), replacing the last one.
  private func putManifest(_ name: String, path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw AtomicWriter.WriteError(path: path, message: "cannot read the manifest just written")
    }
    try outputs.write(
      Array(data), to: name, options: WriteOptions(contentType: "application/json", overwrite: .always))
  }
}

extension WindowStep {
  /// After a window has run: the outputs of its that were not written but are listed all
  /// the same, with the state's entries — up to date, or not rebuilt this time (failed or
  /// interrupted) while the file on disk is still the old one. Failed ones are kept from the
  /// last good run: reported, counted and marked so in the manifest.
  func gatherManifestEntries(writtenBefore: Int) {
    let upToDate = self.upToDate.withLock { $0 }
    var kept: [(String, String)] = []
    run.manifest.withLock { list in
      let written = list.written(since: writtenBefore)
      var listed = Set<String>()
      func isWritten(_ path: String) -> Bool { written.contains(HashSet64.hash(path)) }
      for i in upToDate {
        // Up to date: the state's entry is what the file is.
        let path = plan.outputs[i].path
        if verdicts.isRecorded(i), !isWritten(path), listed.insert(path).inserted { list.addEarlier(path) }
      }
      let failed = failedPaths.withLock { $0 }
      for i in selected {
        let path = plan.outputs[i].path
        if verdicts.isRecorded(i), !listed.contains(path), !isWritten(path), run.outputs.exists(path) {
          listed.insert(path)
          if failed.contains(path) {
            // Failed this run: the file is the last good run's, kept and listed as such.
            list.addKept(path)
            kept.append((path, plan.sources[plan.outputs[i].sourceIndex].path))
          } else {
            list.addEarlier(path)
          }
        }
      }
    }
    for (path, source) in kept { run.reporter.report(.kept(path: path, source: source)) }
    if !kept.isEmpty { run.summary.withLock { $0.kept += kept.count } }
  }

  /// `Manifest(engineVersion:outputs:).encoded()` of the listed outputs written to `path`
  /// as it is made (sorted by path, a megabyte at a time): the entries of the outputs this
  /// run wrote are read from its state file in path order, merged with those the state has
  /// for the others (looked up a batch of paths at a time). Same bytes, never the whole
  /// document, nor every entry, in memory. (SQLite orders paths by their bytes, as `String`
  /// does paths in Unicode's normal form C, which file names are in practice.)
}

extension Run {
  private func writeManifest(_ list: ManifestList, to path: String) throws(AtomicWriter.WriteError) {
    final class Pending { var bytes: [UInt8] = [] }
    let pending = Pending()
    var stream = ManifestStream(format: .json, engineVersion: engineVersion) { pending.bytes += $0 }
    var written = WrittenEntries(writer: writer, hashes: list.writtenHashes())
    var earlier = EarlierEntries(reader: reader, list: list)
    /// The next entry in path order (a written one before an earlier one of the same path).
    func next() throws(AtomicWriter.WriteError) -> Manifest.Entry? {
      do throws(StateError) {
        let (a, b) = (try written.peek(), try earlier.peek())
        if let a, b.map({ $0.path >= a.path }) ?? true {
          written.pop()
          return a
        }
        guard var b else { return nil }
        earlier.pop()
        if list.isKept(b.path) { b.fromLastGoodRun = true }
        return b
      } catch {
        throw AtomicWriter.WriteError(path: error.path, message: "\(error)")
      }
    }
    try AtomicWriter.write(to: path) { (emit) throws(AtomicWriter.WriteError) in
      while let entry = try next() {
        stream.append(entry)
        if pending.bytes.count >= 1 << 20 {
          try emit(pending.bytes)
          pending.bytes.removeAll(keepingCapacity: true)
        }
      }
      stream.finish()
      try emit(pending.bytes)
    }
  }
}

/// The entries of the outputs a run wrote, in path order: its state file's, a batch at a
/// time, those whose path hash is among `hashes` (sorted).
struct WrittenEntries {
  let writer: StateWriter
  let hashes: [UInt64]
  private var batch: [Manifest.Entry] = []
  private var next = 0
  private var after = ""
  private var done = false

  init(writer: StateWriter, hashes: [UInt64]) {
    self.writer = writer
    self.hashes = hashes
    done = hashes.isEmpty
  }

  mutating func peek() throws(StateError) -> Manifest.Entry? {
    while next == batch.count {
      guard !done else { return nil }
      let rows = try writer.recordedEntries(after: after, limit: StateReader.batch)
      done = rows.count < StateReader.batch
      after = rows.last?.path ?? after
      batch = rows.filter { hashes.containsSorted(HashSet64.hash($0.path)) }
      next = 0
    }
    return batch[next]
  }

  mutating func pop() { next += 1 }
}

/// The state's entries of the paths a manifest lists from the earlier state (up to date,
/// not rebuilt, stale), in path order, looked up a batch at a time.
struct EarlierEntries {
  let reader: StateReader
  let list: ManifestList
  private let order: [Int32]
  private var batch: [Manifest.Entry] = []
  private var next = 0
  private var start = 0

  init(reader: StateReader, list: ManifestList) {
    self.reader = reader
    self.list = list
    order = list.earlierSorted()
  }

  mutating func peek() throws(StateError) -> Manifest.Entry? {
    while next == batch.count {
      guard start < order.count else { return nil }
      let paths = order[start..<min(order.count, start + StateReader.batch)].map { list.earlierPath($0) }
      start += paths.count
      let known = try reader.read(.entries, StateQuery(outputs: paths)).outputs
      batch = paths.compactMap { known[$0] }
      next = 0
    }
    return batch[next]
  }

  mutating func pop() { next += 1 }
}

/// The outputs a run's manifest lists: the hashes of the paths this run wrote (their entries
/// are in its state file: 8 bytes an output where the entries took a kilobyte), and the
/// paths, in one buffer, of those listed with the earlier state's entry (up to date, not
/// rebuilt, stale). The paths of the windows the first pass found up to date come first
/// (`VerdictPass`), in window order: those of the windows the run reached (`reach`) are
/// listed.
struct ManifestList: Sendable {
  private var written: [UInt64] = []
  private var earlier = StringTable()
  /// The hashes of the earlier paths kept from the last good run (`addKept`).
  private var kept = Set<UInt64>()
  /// The first pass's paths at the start of `earlier`, and how many of them are listed.
  private var firstPassCount = 0
  private var reached = 0

  init(firstPass paths: StringTable = StringTable()) {
    earlier = paths
    firstPassCount = paths.count
  }

  var writtenCount: Int { written.count }

  /// The first pass's paths up to `end` are listed (a window the run reached).
  mutating func reach(upTo end: Int) { reached = max(reached, end) }

  mutating func addWritten(_ path: String) { written.append(HashSet64.hash(path)) }
  mutating func addEarlier(_ path: String) { earlier.append(path) }

  /// An output listed with the earlier state's entry, marked as from the last good run
  /// (this run failed to make it).
  mutating func addKept(_ path: String) {
    earlier.append(path)
    kept.insert(HashSet64.hash(path))
  }

  var hasKept: Bool { !kept.isEmpty }

  func isKept(_ path: String) -> Bool { !kept.isEmpty && kept.contains(HashSet64.hash(path)) }

  /// The hashes written from `start` on (one window's).
  func written(since start: Int) -> Set<UInt64> { Set(written[start...]) }

  /// The written hashes, sorted (`containsSorted`).
  func writtenHashes() -> [UInt64] { written.sorted() }

  func earlierPath(_ index: Int32) -> String { earlier[Int(index)] }

  /// Indices of the earlier-state paths in path order.
  func earlierSorted() -> [Int32] {
    let ascii = earlier.isASCII
    return (Array(0..<Int32(reached)) + Array(Int32(firstPassCount)..<Int32(earlier.count))).sorted {
      ascii ? earlier.less(Int($0), Int($1)) : earlier[Int($0)] < earlier[Int($1)]
    }
  }
}
