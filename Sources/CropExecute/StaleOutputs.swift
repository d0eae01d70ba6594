import CropPlan
import CropStore
import Foundation

extension Executor {
  /// Outputs recorded by earlier runs that this plan no longer produces: reported, or
  /// deleted with `--prune`. Stale outputs that are not pruned stay in the manifest, so that
  /// a later `--prune` still finds them; those already gone from the disk are dropped silently.
  /// The state forgets pruned and gone outputs (`RunState.forgotten`); `--prune` deletes only
  /// what the state records as written by cropjob.
  /// `isPlanned`: whether the plan has an output at a path (relative to `root`).
  static func reportStale(
    isPlanned: (String) -> Bool, root: String, options: RunOptions, reporter: RunReporter, state: RunState
  ) {
    // Only the stale paths are sorted (a re-run sorted every recorded path).
    for path in state.previous.keys.filter({ !isPlanned($0) }).sorted() {
      let entry = state.previous[path]!
      if !(options.shard?.contains(entry.source.path) ?? true) { continue }
      let absolute = (root as NSString).appendingPathComponent(path)
      guard OutputPaths.escapeProblem(absolute, root: root) == nil else { continue }
      guard FileManager.default.fileExists(atPath: absolute) else {
        state.forgotten.withLock { $0.append(path) }
        continue
      }
      guard options.prune else {
        state.manifest.withLock { $0.addEarlier(path) }
        state.summary.withLock { $0.stale += 1 }
        reporter.report(.stale(path: path))
        continue
      }
      do {
        try FileManager.default.removeItem(atPath: absolute)
        state.forgotten.withLock { $0.append(path) }
        state.summary.withLock { $0.pruned += 1 }
        reporter.report(.pruned(path: path))
      } catch {
        state.manifest.withLock { $0.addEarlier(path) }
        recordFailure(
          output: path, source: entry.source.path, reason: "cannot prune: \(AtomicWriter.reason(error))",
          reporter: reporter, state: state)
      }
    }
  }
}
