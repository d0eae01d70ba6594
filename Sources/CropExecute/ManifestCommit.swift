import CropStore
import CropSupport
import Foundation

extension Executor {
  /// Writes the manifest: what this run's outputs are now (written or up to date), plus the
  /// entries of outputs this run did not reach (interrupted, other failures) kept as they
  /// were. Every output is flushed to disk first. False when the manifest could not be written.
  @discardableResult
  static func commitManifest(
    root: String, engineVersion: String, options: RunOptions, reporter: RunReporter, state: RunState
  ) -> Bool {
    let name = Manifest.fileName(shard: options.shard)
    let path = (root as NSString).appendingPathComponent(name)
    let header = "\(CropKitVersion.string) \(engineVersion)"
    // A run that wrote, removed and failed nothing, over a manifest written after the last
    // change of the outputs, leaves it as it is (a no-op re-run of 20,000 outputs spent 12 %
    // of its time re-encoding the same 18 MB).
    let quiet = state.summary.withLock { $0.written == 0 && $0.failed == 0 && !$0.interrupted }
    if quiet && !state.writer.manifestIsStale(name, identity: StateWriter.manifestIdentity(path: path, header: header))
    {
      return true
    }
    let list = state.manifest.withLock { $0 }
    do {
      // Outputs were written without an fsync each: flush them all before the manifest says
      // they exist.
      if state.summary.withLock({ $0.written > 0 }) { try AtomicWriter.syncFileSystem(containing: root) }
      try writeManifest(list, state: state, to: path, engineVersion: engineVersion)
      state.writer.recordManifest(name, identity: StateWriter.manifestIdentity(path: path, header: header))
      // An unsharded run's manifest lists every output the plan has (and the stale ones):
      // earlier shard manifests are superseded, and removed so that they cannot mislead.
      if (options.shard?.count ?? 1) == 1 { Manifest.removeShardManifests(root: root) }
      return true
    } catch {
      recordFailure(output: name, source: "", reason: "\(error)", reporter: reporter, state: state)
      return false
    }
  }

  /// After a window has run: the outputs of its that were not written but are listed all
  /// the same, with the state's entries — up to date, or not rebuilt this time (failed or
  /// interrupted) while the file on disk is still the old one.
  func gatherManifestEntries(selected: [Int], state: RunState, listedBefore: Int) {
    let upToDate = state.upToDate.withLock { $0 }
    state.manifest.withLock { list in
      let written = list.paths(since: listedBefore)
      var listed = Set<String>()
      for i in upToDate {
        // Up to date: the state's entry is what the file is.
        let path = plan.outputs[i].path
        if !written.contains(path), state.previous[path] != nil, listed.insert(path).inserted {
          list.add(path, written: false)
        }
      }
      for i in selected {
        let path = plan.outputs[i].path
        if !written.contains(path), !listed.contains(path), state.previous[path] != nil,
          FileManager.default.fileExists(atPath: plan.outputs[i].absolutePath)
        {
          listed.insert(path)
          list.add(path, written: false)
        }
      }
    }
  }

  /// `Manifest(engineVersion:outputs:).encoded()` of the listed outputs written to `path`
  /// as it is made (sorted by path, a megabyte at a time): the entries of outputs written by
  /// this run are read back from its state file, the others are the earlier state's. Same
  /// bytes, never the whole document, nor every entry, in memory.
  private static func writeManifest(_ list: ManifestList, state: RunState, to path: String, engineVersion: String)
    throws(AtomicWriter.WriteError)
  {
    final class Pending { var bytes: [UInt8] = [] }
    let pending = Pending()
    var stream = ManifestStream(format: .json, engineVersion: engineVersion) { pending.bytes += $0 }
    let order = list.sorted()
    try AtomicWriter.write(to: path) { (emit) throws(AtomicWriter.WriteError) in
      var failure: AtomicWriter.WriteError? = nil
      // Runs of written outputs are read back in one statement; the rest from memory.
      var start = 0
      while start < order.count, failure == nil {
        var end = start
        while end < order.count, list.written(order[end]) == list.written(order[start]) { end += 1 }
        let paths = order[start..<end].lazy.map { list.path($0) }
        func add(_ entry: Manifest.Entry?) {
          guard failure == nil, let entry else { return }
          stream.append(entry)
          if pending.bytes.count >= 1 << 20 {
            do { try emit(pending.bytes) } catch { failure = error }
            pending.bytes.removeAll(keepingCapacity: true)
          }
        }
        if list.written(order[start]) {
          do throws(StateError) {
            try state.writer.recordedEntries(paths) { add($0) }
          } catch {
            throw AtomicWriter.WriteError(path: error.path, message: "\(error)")
          }
        } else {
          for path in paths { add(state.previous[path]) }
        }
        start = end
      }
      if let failure { throw failure }
      stream.finish()
      try emit(pending.bytes)
    }
  }
}

/// The outputs a run's manifest lists, as paths (relative to the root) in one buffer, each
/// marked written by this run (its entry is in the run's state file) or not (the earlier
/// state's entry): about 40 bytes an output where the entries took a kilobyte.
struct ManifestList: Sendable {
  private var table = StringTable()
  private var writtenFlags: [Bool] = []

  var count: Int { table.count }

  mutating func add(_ path: String, written: Bool) {
    table.append(path)
    writtenFlags.append(written)
  }

  func path(_ index: Int) -> String { table[index] }
  func written(_ index: Int) -> Bool { writtenFlags[index] }

  /// The paths written from `start` on (one window's).
  func paths(since start: Int) -> Set<String> {
    Set((start..<count).filter { writtenFlags[$0] }.map { table[$0] })
  }

  /// Indices in path order.
  func sorted() -> [Int] {
    let ascii = table.isASCII
    return (0..<count).sorted { ascii ? table.less($0, $1) : table[$0] < table[$1] }
  }
}
