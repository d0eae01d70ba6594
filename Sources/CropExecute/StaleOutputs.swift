import CropPlan
import CropStore
import CropSupport
import Foundation

extension Executor {
  /// Outputs recorded by earlier runs that this plan no longer produces: reported, or
  /// deleted with `--prune`. Stale outputs that are not pruned stay in the manifest, so that
  /// a later `--prune` still finds them; those already gone from the disk are dropped silently.
  /// The state forgets pruned and gone outputs (`RunState.forgotten`); `--prune` deletes only
  /// what the state records as written by cropjob.
  /// `isPlanned`: whether the plan has an output at a path (relative to `root`).
  ///
  /// The recorded paths are walked file by file, a batch at a time (`StateReader`); only
  /// the paths not planned are kept, sorted, and looked up (newest row, removals applied).
  static func reportStale(
    isPlanned: (String) -> Bool, root: String, options: RunOptions, reporter: RunReporter, state: RunState
  ) {
    var candidates = Set<String>()
    do throws(StateError) {
      try state.reader.forEachRecordedPath { path in
        if !isPlanned(path) { candidates.insert(path) }
      }
      let sorted = candidates.sorted()
      candidates = []
      for start in stride(from: 0, to: sorted.count, by: StateReader.batch) {
        let paths = Array(sorted[start..<min(sorted.count, start + StateReader.batch)])
        let known = try state.reader.snapshot(outputs: paths, sources: []).outputs
        for path in paths {
          guard let entry = known[path] else { continue }
          reportStale(path, entry: entry, root: root, options: options, reporter: reporter, state: state)
        }
      }
    } catch {
      recordFailure(
        output: relativeStatePath(error.path), source: "", reason: "\(error)", reporter: reporter, state: state)
    }
  }

  /// One recorded output the plan no longer produces.
  private static func reportStale(
    _ path: String, entry: Manifest.Entry, root: String, options: RunOptions, reporter: RunReporter,
    state: RunState
  ) {
    if !(options.shard?.contains(entry.source.path) ?? true) { return }
    let absolute = (root as NSString).appendingPathComponent(path)
    guard OutputPaths.escapeProblem(absolute, root: root) == nil else { return }
    guard FileManager.default.fileExists(atPath: absolute) else {
      state.forgotten.withLock { $0.append(path) }
      return
    }
    guard options.prune else {
      state.manifest.withLock { $0.addEarlier(path) }
      state.summary.withLock { $0.stale += 1 }
      reporter.report(.stale(path: path))
      return
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
