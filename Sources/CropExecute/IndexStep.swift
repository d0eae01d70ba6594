import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation

/// The run's last step: the delivery index files (`index:`) of its jobs, written after the
/// outputs and the manifest (docs/job-file.md, "index"). Each lists the outputs of its
/// sources that the plan has and the state records with their file on disk — written or up
/// to date this run, or kept from the last good run (marked so, as in the manifest); a
/// failed output never written before is not listed. A file whose bytes would not change is
/// not written again, and a file at an index path that is not an index cropjob wrote is
/// refused (unless `--overwrite`), as for outputs.
extension Run {
  /// Writes the index files whose content changed, from the state as this run left it (its
  /// writer finished: every row committed).
  func writeIndexes() {
    let state: StateReader
    do throws(StateError) {
      state = try StateReader.open(root: root, shard: options.shard)
    } catch {
      return recordFailure(error)
    }
    for file in indexFiles {
      if let problem = file.problem {
        recordFailure(output: file.path, source: "", reason: problem)
        continue
      }
      do throws(StateError) {
        var images: [(source: String, entries: [Manifest.Entry])] = []
        for source in file.sources { images.append((source.source, try listedEntries(source.outputs, state: state))) }
        let index = DeliveryIndex(
          job: file.job, indexPath: file.path, spec: file.spec, images: images, placeholder: Self.placeholder)
        let title = file.spec.perSource ? "\(file.job): \(file.sources[0].source)" : file.job
        writeIndexFile(file.path, DeliveryIndexHTML.page(index, title: title))
        writeIndexFile(IndexSpec.jsonPath(file.path), index.json())
      } catch {
        recordFailure(error)
      }
    }
  }

  /// The placeholder of an entry (none recorded yet: the placeholders of issue 27 point 1 fill it).
  static func placeholder(_ entry: Manifest.Entry) -> DeliveryIndex.Placeholder? { nil }

  /// The state's entries of `paths` whose file is on disk, marked when kept from the last
  /// good run.
  private func listedEntries(_ paths: [String], state: StateReader) throws(StateError) -> [Manifest.Entry] {
    var result: [Manifest.Entry] = []
    for start in stride(from: 0, to: paths.count, by: StateReader.batch) {
      let batch = Array(paths[start..<min(paths.count, start + StateReader.batch)])
      let known = try state.read(.entries, StateQuery(outputs: batch)).outputs
      for path in batch {
        guard var entry = known[path],
          FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent(path))
        else { continue }
        if manifest.withLock({ $0.isKept(path) }) { entry.fromLastGoodRun = true }
        result.append(entry)
      }
    }
    return result
  }

  /// Writes `bytes` at `path` (relative to the root) unless the file already holds them;
  /// refuses a file there that is not an index cropjob wrote, unless `--overwrite`.
  private func writeIndexFile(_ path: String, _ bytes: [UInt8]) {
    let absolute = (root as NSString).appendingPathComponent(path)
    if let existing = FileManager.default.contents(atPath: absolute) {
      if Array(existing) == bytes { return }
      if !options.overwrite && !DeliveryIndex.isCropjobIndex(Array(existing.prefix(DeliveryIndex.markerBytes))) {
        recordFailure(
          output: path, source: "",
          reason: "would overwrite a file cropjob did not write: \(absolute) (--overwrite replaces it)")
        return
      }
    }
    do {
      if let problem = escapes.withLock({ $0.problem(absolute) }) {
        throw AtomicWriter.WriteError(path: absolute, message: problem)
      }
      try AtomicWriter.write(bytes, to: absolute)
      summary.withLock { $0.indexed += 1 }
      reporter.report(.indexed(path: path))
    } catch {
      recordFailure(output: path, source: "", reason: "\(error)")
    }
  }
}
