import CropPlan
import CropSupport
import Foundation

/// Decides which planned outputs match what an earlier run wrote (the manifest's entries),
/// so that a re-run skips them and `cropjob plan` can say so.
public struct UpToDateCheck: Sendable {
  public let plan: Plan
  /// The earlier runs' entries by output path (`Manifest.loadAll`).
  public let previous: [String: Manifest.Entry]
  /// With `--force` nothing is up to date.
  public let force: Bool

  public init(plan: Plan, previous: [String: Manifest.Entry], force: Bool = false) {
    self.plan = plan
    self.previous = previous
    self.force = force
  }

  /// Outputs among `selected` whose files match the manifest of an earlier run (for `plan`).
  /// Sources with no earlier output are not hashed.
  public func upToDatePaths(_ selected: [Int]) -> Set<String> {
    guard !previous.isEmpty, !force else { return [] }
    var result = Set<String>()
    let bySource = Dictionary(grouping: selected, by: { plan.outputs[$0].sourceIndex })
    for (sourceIndex, outputs) in bySource where outputs.contains(where: { previous[plan.outputs[$0].path] != nil }) {
      guard plan.sources[sourceIndex].error == nil,
        let record = try? sourceRecord(plan.sources[sourceIndex], outputs: outputs)
      else { continue }
      for i in outputs where isUpToDate(plan.outputs[i], key: key(of: plan.outputs[i], source: record)) {
        result.insert(plan.outputs[i].path)
      }
    }
    return result
  }

  /// The output's key given its source's record.
  public func key(of output: PlannedOutput, source: Manifest.SourceRecord) -> String {
    OutputKey.key(recipe: output.recipe, sourceHash: source.sha256, engine: plan.engineVersion)
  }

  /// Same key as the manifest's entry, and the file still has the recorded size.
  public func isUpToDate(_ output: PlannedOutput, key: String) -> Bool {
    guard !force, let old = previous[output.path], old.key == key,
      let size = (try? FileManager.default.attributesOfItem(atPath: output.absolutePath))?[.size] as? Int
    else { return false }
    return size == old.bytes
  }

  /// Source identity: size + mtime, confirmed by content hash (reused from the manifest
  /// when size and mtime are unchanged for one of `outputs`).
  public func sourceRecord(_ source: PlannedSource, outputs: [Int]) throws -> Manifest.SourceRecord {
    var info = stat()
    guard stat(source.absolutePath, &info) == 0 else {
      throw AtomicWriter.WriteError(path: source.absolutePath, message: AtomicWriter.errnoText())
    }
    let bytes = Int(info.st_size)
    // An earlier job's output was just written: its time says nothing about its content
    // and would make manifests differ from run to run. It is small; hash it every time.
    if source.producedBy != nil {
      return Manifest.SourceRecord(
        path: source.path, sha256: try SHA256.hex(fileAt: source.absolutePath), bytes: bytes, mtime: 0)
    }
    let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    for i in outputs {
      if let old = previous[plan.outputs[i].path]?.source, old.path == source.path, old.bytes == bytes,
        old.mtime == mtime
      {
        return old
      }
    }
    return Manifest.SourceRecord(
      path: source.path, sha256: try SHA256.hex(fileAt: source.absolutePath), bytes: bytes, mtime: mtime)
  }
}
