import CropPlan
import CropStorage
import CropStore
import CropSupport
import Foundation

extension Run {
  /// Outputs recorded by earlier runs that this plan no longer produces: reported, or
  /// deleted with `--prune`. Stale outputs that are not pruned stay in the manifest, so that
  /// a later `--prune` still finds them; those already gone from the disk are dropped silently.
  /// The state forgets pruned and gone outputs (`Run.forgotten`); `--prune` deletes only
  /// what the state records as written by cropjob.
  /// `isPlanned`: whether the plan has an output at a path (relative to `root`).
  ///
  /// The recorded paths are walked file by file, a batch at a time (`StateReader`); only
  /// the paths not planned are kept, sorted, and looked up (newest row, removals applied).
  /// Those whose source is among `failedSources` (sources that failed this run, as the job
  /// sees them) are not stale: they are kept from the last good run (`keep`).
  func reportStale(isPlanned: (String) -> Bool, failedSources: Set<String>) {
    var candidates = Set<String>()
    do throws(StateError) {
      try reader.forEachRecordedPath { path in
        if !isPlanned(path) { candidates.insert(path) }
      }
      let sorted = candidates.sorted()
      candidates = []
      let kept = failedSources.isEmpty ? [] : try keptOutputs(sorted, failedSources: failedSources)
      for start in stride(from: 0, to: sorted.count, by: StateReader.batch) {
        let paths = Array(sorted[start..<min(sorted.count, start + StateReader.batch)])
        let known = try reader.read(.entries, StateQuery(outputs: paths)).outputs
        for path in paths {
          guard let entry = known[path] else { continue }
          if kept.contains(path) {
            keep(path, entry: entry)
          } else {
            reportStale(path, entry: entry)
          }
        }
      }
    } catch {
      recordFailure(error)
    }
  }

  /// Among the recorded outputs not planned (`paths`, sorted), those made from a source that
  /// failed this run — or from such an output, down a `from:` chain: the last good run's,
  /// to be kept rather than reported stale or pruned.
  func keptOutputs(_ paths: [String], failedSources: Set<String>) throws(StateError) -> Set<String> {
    var sourceOf: [String: String] = [:]
    for start in stride(from: 0, to: paths.count, by: StateReader.batch) {
      let batch = Array(paths[start..<min(paths.count, start + StateReader.batch)])
      for (path, entry) in try reader.read(.entries, StateQuery(outputs: batch)).outputs {
        sourceOf[path] = entry.source.path
      }
    }
    var kept = Set<String>()
    var grew = true
    while grew {
      grew = false
      for (path, source) in sourceOf where !kept.contains(path) {
        if failedSources.contains(source) || kept.contains(source) {
          kept.insert(path)
          grew = true
        }
      }
    }
    return kept
  }

  /// Whether the recorded output `path` is this shard's, inside the root and still there
  /// (a file, or an object in the store's listing); one that is gone is forgotten.
  private func onDisk(_ path: String, entry: Manifest.Entry) -> Bool {
    if !(options.shard?.contains(entry.source.path) ?? true) { return false }
    guard OutputPaths.escapeProblem(PathText.appending(root, path), root: root) == nil else { return false }
    guard outputs.exists(path) else {
      forgotten.withLock { $0.append(path) }
      return false
    }
    return true
  }

  /// A recorded output whose source failed this run: kept on disk and in the state, listed
  /// in the manifest as from the last good run (gone from the disk: forgotten, as a stale one).
  private func keep(_ path: String, entry: Manifest.Entry) {
    guard onDisk(path, entry: entry) else { return }
    manifest.withLock { $0.addKept(path) }
    if !indexFiles.isEmpty { keptForIndex.withLock { $0.append(entry) } }
    summary.withLock { $0.kept += 1 }
    reporter.report(.kept(path: path, source: entry.source.path))
  }

  /// One recorded output the plan no longer produces.
  private func reportStale(_ path: String, entry: Manifest.Entry) {
    guard onDisk(path, entry: entry) else { return }
    guard options.prune else {
      manifest.withLock { $0.addEarlier(path) }
      summary.withLock { $0.stale += 1 }
      reporter.report(.stale(path: path))
      return
    }
    do throws(StorageError) {
      // Only a path the state records as cropjob's output reaches here.
      try outputs.delete(path)
      forgotten.withLock { $0.append(path) }
      summary.withLock { $0.pruned += 1 }
      reporter.report(.pruned(path: path))
    } catch {
      manifest.withLock { $0.addEarlier(path) }
      recordFailure(
        output: path, source: entry.source.path, reason: "cannot prune: \(error)")
    }
  }
}
