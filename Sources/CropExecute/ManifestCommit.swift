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
    let all = state.entries.withLock { $0 }
    do {
      // Outputs were written without an fsync each: flush them all before the manifest says
      // they exist.
      if state.summary.withLock({ $0.written > 0 }) { try AtomicWriter.syncFileSystem(containing: root) }
      try writeManifest(all, to: path, engineVersion: engineVersion)
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

  /// After a window has run: the manifest entries of its outputs that were not written,
  /// taken from the state — up to date, or not rebuilt this time (failed or interrupted)
  /// while the file on disk is still the old one.
  func gatherManifestEntries(selected: [Int], state: RunState) {
    let upToDate = state.upToDate.withLock { $0 }
    state.entries.withLock { all in
      for i in upToDate {
        // Up to date: the state's entry is what the file is.
        let output = plan.outputs[i]
        if all[output.path] == nil, let old = state.previous[output.path] { all[output.path] = old }
      }
      for i in selected {
        let path = plan.outputs[i].path
        if all[path] == nil, let old = state.previous[path],
          FileManager.default.fileExists(atPath: plan.outputs[i].absolutePath)
        {
          all[path] = old
        }
      }
    }
  }

  /// `Manifest(engineVersion:outputs:).encoded()` written to `path` as it is made (sorted by
  /// path, a megabyte at a time): same bytes, never the whole document in memory.
  private static func writeManifest(_ entries: [String: Manifest.Entry], to path: String, engineVersion: String)
    throws(AtomicWriter.WriteError)
  {
    final class Pending { var bytes: [UInt8] = [] }
    let pending = Pending()
    var stream = ManifestStream(format: .json, engineVersion: engineVersion) { pending.bytes += $0 }
    try AtomicWriter.write(to: path) { (emit) throws(AtomicWriter.WriteError) in
      for key in entries.keys.sorted() {
        stream.append(entries[key]!)
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
