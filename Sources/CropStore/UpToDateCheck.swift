import CropPlan
import CropSupport
import Foundation

/// Decides which planned outputs match what an earlier run recorded in the state, so that a
/// re-run skips them and `cropjob plan` can say so.
public struct UpToDateCheck: Sendable {
  public let plan: Plan
  /// The earlier runs' outputs by path (`StateView.outputs`).
  public let previous: [String: RecordedOutput]
  /// The recorded sources by absolute path (`StateView.sources`).
  public let sources: [String: SourceFacts]
  /// With `--force` nothing is up to date.
  public let force: Bool

  public init(
    plan: Plan, previous: [String: RecordedOutput], sources: [String: SourceFacts] = [:], force: Bool = false
  ) {
    self.plan = plan
    self.previous = previous
    self.sources = sources
    self.force = force
  }

  /// The check against what `state` records.
  public init(plan: Plan, state: StateView<RecordedOutput>, force: Bool = false) {
    self.init(plan: plan, previous: state.outputs, sources: state.sources, force: force)
  }

  /// A source's record for output keys, with its identity when it was hashed afresh (to be
  /// recorded in the state) or nil when the state's hash was reused.
  public struct SourceState: Sendable {
    public var record: Manifest.SourceRecord
    public var identity: FileIdentity
    public var hashed: Bool
  }

  /// Outputs among `selected` whose files match the state of an earlier run (for `plan`).
  /// Sources with no earlier output are not hashed.
  public func upToDatePaths(_ selected: [Int]) -> Set<String> {
    guard !previous.isEmpty, !force else { return [] }
    var result = Set<String>()
    let bySource = Dictionary(grouping: selected, by: { plan.outputs[$0].sourceIndex })
    for (sourceIndex, outputs) in bySource where outputs.contains(where: { previous[plan.outputs[$0].path] != nil }) {
      guard plan.sources[sourceIndex].error == nil,
        let record = try? sourceState(plan.sources[sourceIndex], outputs: outputs).record
      else { continue }
      for i in outputs where isUpToDate(plan.outputs[i], key: key(of: plan.outputs[i], source: record)) {
        result.insert(plan.outputs[i].path)
      }
    }
    return result
  }

  /// The output's key given its source's record.
  public func key(of output: PlannedOutput, source: Manifest.SourceRecord) -> String {
    key(of: output, sourceHash: source.sha256)
  }

  /// The output's key given its source's content hash.
  public func key(of output: PlannedOutput, sourceHash: String) -> String {
    OutputKey.key(recipe: output.recipe, sourceHash: sourceHash, engine: plan.engineVersion)
  }

  /// Same key as the recorded entry, and the file still has the recorded size.
  public func isUpToDate(_ output: PlannedOutput, key: String) -> Bool {
    guard !force, let old = previous[output.path], old.key == key,
      let identity = FileIdentity.of(path: output.absolutePath)
    else { return false }
    return identity.size == Int64(old.bytes)
  }

  /// Source identity: size, mtime, ctime, inode and device, confirmed by content hash, reused
  /// from the state when all are what it recorded (else hashed again).
  public func sourceRecord(_ source: PlannedSource, outputs: [Int]) throws -> Manifest.SourceRecord {
    try sourceState(source, outputs: outputs).record
  }

  /// `sourceRecord`, saying whether the file was hashed.
  public func sourceState(_ source: PlannedSource, outputs: [Int]) throws -> SourceState {
    guard let identity = FileIdentity.of(path: source.absolutePath) else {
      throw AtomicWriter.WriteError(path: source.absolutePath, message: AtomicWriter.errnoText())
    }
    let bytes = Int(identity.size)
    // An earlier job's output was just written: its time says nothing about its content
    // and would make manifests differ from run to run. It is small; hash it every time.
    if source.producedBy != nil {
      let record = Manifest.SourceRecord(
        path: source.path, sha256: try SHA256.hex(fileAt: source.absolutePath), bytes: bytes, mtime: 0)
      return SourceState(record: record, identity: identity, hashed: true)
    }
    // Reused only when every field of the identity is what the state recorded (a file
    // known only from a JSON manifest — an earlier cropjob, `--rebuild-state` — is hashed:
    // its size and mtime alone can be restored after a rewrite).
    if let facts = sources[source.absolutePath], facts.identity == identity, let sha256 = facts.sha256 {
      let record = Manifest.SourceRecord(path: source.path, sha256: sha256, bytes: bytes, mtime: identity.mtime)
      return SourceState(record: record, identity: identity, hashed: false)
    }
    let record = Manifest.SourceRecord(
      path: source.path, sha256: try SHA256.hex(fileAt: source.absolutePath), bytes: bytes, mtime: identity.mtime)
    return SourceState(record: record, identity: identity, hashed: true)
  }
}
