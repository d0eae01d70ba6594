import CropPlan
import CropSpec
import CropStorage
import CropStore
import CropSupport
import Foundation

/// The run's last step: the delivery index files (`index:`) of its jobs, written after the
/// outputs and the manifest (docs/job-file.md, "index"). Each lists the outputs of its
/// sources that the plan has and the state records with their file on disk — written or up
/// to date this run, or kept from the last good run (marked so, as in the manifest, also for
/// a source the plan could not use at all); a failed output never written before is not
/// listed. A file whose bytes would not change is not written again, and a file at an index
/// path that is not an index cropjob wrote is refused (unless `--overwrite`), as for outputs.
extension Run {
  /// One index file's content before it is rendered.
  private struct Pending {
    var job: String
    var spec: IndexSpec
    var images: [String: [Manifest.Entry]] = [:]
    var perSourceTitle: String?
  }

  /// Writes the index files whose content changed, from the state as this run left it (its
  /// writer finished: every row committed).
  func writeIndexes() {
    let state: StateReader
    do throws(StateError) {
      state = try StateReader.open(root: root, shard: options.shard)
    } catch {
      return recordFailure(error)
    }
    var pending: [String: Pending] = [:]
    for file in indexFiles {
      if let problem = file.problem {
        recordFailure(output: file.path, source: "", reason: problem)
        continue
      }
      do throws(StateError) {
        var content = Pending(job: file.job, spec: file.spec)
        for source in file.sources { content.images[source.source] = try listedEntries(source.outputs, state: state) }
        pending[file.path] = content
      } catch {
        recordFailure(error)
      }
    }
    addKept(to: &pending)
    for path in pending.keys.sorted() {
      let content = pending[path]!
      let index = DeliveryIndex(
        job: content.job, indexPath: path, spec: content.spec,
        images: content.images.map { (source: $0.key, entries: $0.value) })
      let title = DeliveryIndexHTML.title(
        job: content.job, perSource: content.spec.perSource, sources: Array(content.images.keys))
      writeIndexFile(path, DeliveryIndexHTML.page(index, title: title))
      writeIndexFile(IndexSpec.jsonPath(path), index.json())
    }
  }

  /// The outputs kept from the last good run for sources the plan could not use, in their
  /// jobs' index files (a batch index only in an unsharded run, as `IndexFile.planned`).
  private func addKept(to pending: inout [String: Pending]) {
    let specs = Dictionary(indexFiles.map { ($0.job, $0.spec) }) { a, _ in a }
    let sharded = (options.shard?.count ?? 1) > 1
    for entry in keptForIndex.withLock({ $0 }) {
      guard let spec = specs[entry.job], spec.perSource || !sharded else { continue }
      let path = spec.filePath(job: entry.job, sourcePath: entry.source.path)
      guard pending[path].map({ $0.job == entry.job }) ?? true else { continue }
      var marked = entry
      marked.fromLastGoodRun = true
      pending[path, default: Pending(job: entry.job, spec: spec)].images[entry.source.path, default: []].append(marked)
    }
  }

  /// The state's entries of `paths` whose file is on disk, marked when kept from the last
  /// good run.
  private func listedEntries(_ paths: [String], state: StateReader) throws(StateError) -> [Manifest.Entry] {
    var result: [Manifest.Entry] = []
    for start in stride(from: 0, to: paths.count, by: StateReader.batch) {
      let batch = Array(paths[start..<min(paths.count, start + StateReader.batch)])
      let known = try state.read(.entries, StateQuery(outputs: batch)).outputs
      for path in batch {
        guard var entry = known[path], outputs.exists(path) else { continue }
        if manifest.withLock({ $0.isKept(path) }) { entry.fromLastGoodRun = true }
        result.append(entry)
      }
    }
    return result
  }

  /// Writes `bytes` at `path` (relative to the root) unless the file already holds them;
  /// refuses a file there that is not an index cropjob wrote, unless `--overwrite`.
  private func writeIndexFile(_ path: String, _ bytes: [UInt8]) {
    let absolute = PathText.appending(root, path)
    if let existing = outputs.read(path) {
      if existing == bytes { return }
      if !options.overwrite && !DeliveryIndex.isCropjobIndex(Array(existing.prefix(DeliveryIndex.markerBytes))) {
        let inTheWay = FileInTheWay(kind: .index, path: path, absolutePath: outputs.displayName(path), source: "")
        recordFailure(output: path, source: "", reason: inTheWay.message + " (--overwrite replaces it)")
        return
      }
    }
    do {
      if let problem = escapes.withLock({ $0.problem(absolute) }) {
        throw AtomicWriter.WriteError(path: absolute, message: problem)
      }
      let type = path.hasSuffix(".json") ? "application/json" : "text/html; charset=utf-8"
      try outputs.write(bytes, to: path, options: WriteOptions(contentType: type, overwrite: .always))
      summary.withLock { $0.indexed += 1 }
      reporter.report(.indexed(path: path))
    } catch {
      recordFailure(output: path, source: "", reason: "\(error)")
    }
  }
}
