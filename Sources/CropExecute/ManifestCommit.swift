import CropStore
import Foundation

extension Executor {
  /// Writes the manifest: what this run's outputs are now (written or up to date), plus the
  /// entries of outputs this run did not reach (interrupted, other failures) kept as they
  /// were. Every output is flushed to disk first. False when the manifest could not be written.
  @discardableResult
  func commitManifest(selected: [Int], state: RunState) -> Bool {
    var all = state.entries.withLock { $0 }
    for i in selected {
      let path = plan.outputs[i].path
      if all[path] == nil, let old = state.previous[path],
        FileManager.default.fileExists(atPath: plan.outputs[i].absolutePath)
      {
        // Not rebuilt this time (failed or interrupted): the file on disk is still the old one.
        all[path] = old
      }
    }
    let manifest = Manifest(engineVersion: plan.engineVersion, outputs: Array(all.values))
    let name = Manifest.fileName(shard: options.shard)
    let path = (plan.outputRoot as NSString).appendingPathComponent(name)
    do {
      // Outputs were written without an fsync each: flush them all before the manifest says
      // they exist.
      if state.summary.withLock({ $0.written > 0 }) { try AtomicWriter.syncFileSystem(containing: plan.outputRoot) }
      try AtomicWriter.write(manifest.encoded(), to: path)
      // An unsharded run's manifest lists every output the plan has (and the stale ones):
      // earlier shard manifests are superseded, and removed so that they cannot mislead.
      if (options.shard?.count ?? 1) == 1 { Manifest.removeShardManifests(root: plan.outputRoot) }
      return true
    } catch {
      recordFailure(output: name, source: "", reason: "\(error)", state: state)
      return false
    }
  }
}
