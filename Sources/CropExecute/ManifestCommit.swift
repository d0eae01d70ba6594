import CropStore
import CropSupport
import Foundation

extension Executor {
  /// Writes the manifest: what this run's outputs are now (written or up to date), plus the
  /// entries of outputs this run did not reach (interrupted, other failures) kept as they
  /// were. Every output is flushed to disk first. False when the manifest could not be written.
  @discardableResult
  func commitManifest(selected: [Int], state: RunState) -> Bool {
    let name = Manifest.fileName(shard: options.shard)
    let path = (plan.outputRoot as NSString).appendingPathComponent(name)
    let header = "\(CropKitVersion.string) \(plan.engineVersion)"
    // A run that wrote, removed and failed nothing, over a manifest written after the last
    // change of the outputs, leaves it as it is (a no-op re-run of 20,000 outputs spent 12 %
    // of its time re-encoding the same 18 MB).
    let quiet = state.summary.withLock { $0.written == 0 && $0.failed == 0 && !$0.interrupted }
    if quiet && !state.writer.manifestIsStale(name, identity: StateWriter.manifestIdentity(path: path, header: header))
    {
      return true
    }
    var all = state.entries.withLock { $0 }
    for i in state.upToDate.withLock({ $0 }) {
      // Up to date: the state's entry is what the file is.
      let output = plan.outputs[i]
      if all[output.path] == nil, let old = state.previous[output.path] { all[output.path] = old }
    }
    for i in selected {
      let path = plan.outputs[i].path
      if all[path] == nil, let old = state.previous[path],
        FileManager.default.fileExists(atPath: plan.outputs[i].absolutePath)
      {
        // Not rebuilt this time (failed or interrupted): the file on disk is still the old one.
        all[path] = old
      }
    }
    do {
      // Outputs were written without an fsync each: flush them all before the manifest says
      // they exist.
      if state.summary.withLock({ $0.written > 0 }) { try AtomicWriter.syncFileSystem(containing: plan.outputRoot) }
      try writeManifest(all, to: path)
      state.writer.recordManifest(name, identity: StateWriter.manifestIdentity(path: path, header: header))
      // An unsharded run's manifest lists every output the plan has (and the stale ones):
      // earlier shard manifests are superseded, and removed so that they cannot mislead.
      if (options.shard?.count ?? 1) == 1 { Manifest.removeShardManifests(root: plan.outputRoot) }
      return true
    } catch {
      recordFailure(output: name, source: "", reason: "\(error)", state: state)
      return false
    }
  }

  /// `Manifest(engineVersion:outputs:).encoded()` written to `path` as it is made (sorted by
  /// path, a megabyte at a time): same bytes, never the whole document in memory.
  private func writeManifest(_ entries: [String: Manifest.Entry], to path: String) throws(AtomicWriter.WriteError) {
    final class Pending { var bytes: [UInt8] = [] }
    let pending = Pending()
    var stream = ManifestStream(format: .json, engineVersion: plan.engineVersion) { pending.bytes += $0 }
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
