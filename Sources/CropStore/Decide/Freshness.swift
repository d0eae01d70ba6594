import CropPlan
import CropSupport
import Foundation

/// Freshness, the decide room's rule: an output is up to date when the state records it with
/// the key it would have now (`OutputKey.key` of its recipe and its source's content hash)
/// and its file has the recorded size; a source's content hash is the state's while the
/// file's identity (size, mtime, ctime, inode, device) is the recorded one, else the file is
/// hashed again. `VerdictPass` applies it to each planned window; `WindowVerdicts.settle`
/// finishes it when the run reaches the window.
package enum Freshness {
  /// Among the outputs of one source whose files have the recorded size (their records
  /// `recorded`, by index in the plan): those up to date, and those whose verdict waits for
  /// the source's hash (`Verdict.keyed`). `hashing` (`plan`): a photo whose recorded facts
  /// differ is hashed now. Else (`run`) a photo counts only with the hash its header came
  /// with from the state (`PlannedSource.recordedHash`: it had the recorded identity when the
  /// plan looked), and an earlier job's output only when `upstreamDone` (every window of its
  /// job up to date: the file on disk is final); the others are `keyed`.
  static func judge(
    _ outputs: [Int], check: UpToDateCheck, recorded: [RecordedOutput?], hashing: Bool, upstreamDone: Bool
  ) -> (fresh: [Int], keyed: [Int]) {
    guard let first = outputs.first else { return ([], []) }
    let source = check.plan.sources[check.plan.outputs[first].sourceIndex]
    guard source.error == nil else { return ([], []) }
    let sourceHash: String
    if hashing {
      guard let sourceState = try? check.sourceState(source, outputs: outputs) else { return ([], []) }
      sourceHash = sourceState.record.sha256
    } else if source.producedBy == nil {
      guard source.header != nil, let recordedHash = source.recordedHash else { return ([], outputs) }
      sourceHash = recordedHash
    } else {
      guard upstreamDone, source.header != nil, let sourceState = try? check.sourceState(source, outputs: outputs)
      else { return ([], outputs) }
      sourceHash = sourceState.record.sha256
    }
    return (
      outputs.filter { check.key(of: check.plan.outputs[$0], sourceHash: sourceHash) == recorded[$0]?.key }, []
    )
  }

  /// Whether a photo still has the identity the plan found recorded with its hash (one
  /// `stat`). An earlier job's output counts as unchanged: its outputs are found up to date
  /// only when its job wrote nothing.
  static func isUnchanged(_ source: PlannedSource) -> Bool {
    guard source.producedBy == nil else { return true }
    guard source.recordedHash != nil, let stamp = source.recordedStamp, let identity = source.currentIdentity
    else { return false }
    return identity.stamp == stamp
  }

  /// A source's record as the run writes from it: the plan's recorded hash while the photo
  /// is unchanged (`isUnchanged`), else the file hashed now. An earlier job's output is
  /// hashed every time.
  /// `read` gives an object's bytes (once fetched, the executor decodes the same bytes).
  static func currentState(of source: PlannedSource, read: (() throws -> [UInt8])? = nil) throws
    -> UpToDateCheck.SourceState
  {
    guard let identity = source.currentIdentity else {
      throw AtomicWriter.WriteError(path: source.absolutePath, message: AtomicWriter.errnoText())
    }
    let bytes = Int(identity.size)
    if source.producedBy == nil, let sha256 = source.recordedHash, source.recordedStamp == identity.stamp {
      let record = Manifest.SourceRecord(path: source.path, sha256: sha256, bytes: bytes, mtime: identity.mtime)
      return UpToDateCheck.SourceState(record: record, identity: identity, hashed: false)
    }
    return try hashed(source, identity: identity, read: read)
  }

  /// The source hashed now. An earlier job's output was just written: its time says nothing
  /// about its content and would make manifests differ from run to run (it is recorded as 0).
  /// A source in object storage is hashed from its bytes (`read`, else one GET).
  static func hashed(_ source: PlannedSource, identity: FileIdentity, read: (() throws -> [UInt8])? = nil) throws
    -> UpToDateCheck.SourceState
  {
    let sha256: String
    if let object = source.object {
      sha256 = SHA256.hex(try read?() ?? object.read())
    } else {
      sha256 = try SHA256.hex(fileAt: source.absolutePath)
    }
    let record = Manifest.SourceRecord(
      path: source.path, sha256: sha256, bytes: Int(identity.size),
      mtime: source.producedBy != nil ? 0 : identity.mtime)
    return UpToDateCheck.SourceState(record: record, identity: identity, hashed: true)
  }
}

/// The up-to-date check of one plan against what an earlier run recorded in the state
/// (`Freshness`), so that a re-run skips what is fresh and `cropjob plan` can say so.
package struct UpToDateCheck: Sendable {
  package let plan: Plan
  /// The earlier runs' outputs by path (`StateView.outputs`).
  package let previous: [String: RecordedOutput]
  /// The recorded sources by absolute path (`StateView.sources`).
  package let sources: [String: SourceFacts]
  /// With `--force` nothing is up to date.
  package let force: Bool

  package init(
    plan: Plan, previous: [String: RecordedOutput], sources: [String: SourceFacts] = [:], force: Bool = false
  ) {
    self.plan = plan
    self.previous = previous
    self.sources = sources
    self.force = force
  }

  /// The check against what `state` records.
  package init(plan: Plan, state: StateView<RecordedOutput>, force: Bool = false) {
    self.init(plan: plan, previous: state.outputs, sources: state.sources, force: force)
  }

  /// A source's record for output keys, with its identity when it was hashed afresh (to be
  /// recorded in the state) or nil when the state's hash was reused.
  package struct SourceState: Sendable {
    package var record: Manifest.SourceRecord
    package var identity: FileIdentity
    package var hashed: Bool
  }

  /// Outputs among `selected` whose files match the state of an earlier run (for `plan`).
  /// Sources with no earlier output are not hashed.
  package func upToDatePaths(_ selected: [Int]) -> Set<String> {
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
  package func key(of output: PlannedOutput, source: Manifest.SourceRecord) -> String {
    key(of: output, sourceHash: source.sha256)
  }

  /// The output's key given its source's content hash.
  package func key(of output: PlannedOutput, sourceHash: String) -> String {
    OutputKey.key(recipe: output.recipe, sourceHash: sourceHash, engine: plan.engineVersion)
  }

  /// Same key as the recorded entry, and the file still has the recorded size.
  package func isUpToDate(_ output: PlannedOutput, key: String) -> Bool {
    guard !force, let old = previous[output.path], old.key == key,
      let identity = FileIdentity.of(path: output.absolutePath)
    else { return false }
    return identity.size == Int64(old.bytes)
  }

  /// Source identity: size, mtime, ctime, inode and device, confirmed by content hash, reused
  /// from the state when all are what it recorded (else hashed again).
  package func sourceRecord(_ source: PlannedSource, outputs: [Int]) throws -> Manifest.SourceRecord {
    try sourceState(source, outputs: outputs).record
  }

  /// `sourceRecord`, saying whether the file was hashed.
  package func sourceState(_ source: PlannedSource, outputs: [Int]) throws -> SourceState {
    guard let identity = source.currentIdentity else {
      throw AtomicWriter.WriteError(path: source.absolutePath, message: AtomicWriter.errnoText())
    }
    // An earlier job's output is hashed every time (`Freshness.hashed`). A photo's hash is
    // reused only when every field of the identity is what the state recorded (a file known
    // only from a JSON manifest — an earlier cropjob, `--rebuild-state` — is hashed: its size
    // and mtime alone can be restored after a rewrite).
    if source.producedBy == nil, let facts = sources[source.absolutePath], facts.identity == identity,
      let sha256 = facts.sha256
    {
      let record = Manifest.SourceRecord(
        path: source.path, sha256: sha256, bytes: Int(identity.size), mtime: identity.mtime)
      return SourceState(record: record, identity: identity, hashed: false)
    }
    return try Freshness.hashed(source, identity: identity)
  }
}

extension PlannedSource {
  /// The source's identity now: a file's `stat`; an object's from the change token its
  /// listing gave (no request: an unchanged photo in S3 costs no GET).
  package var currentIdentity: FileIdentity? { object?.identity ?? FileIdentity.of(path: absolutePath) }
}
