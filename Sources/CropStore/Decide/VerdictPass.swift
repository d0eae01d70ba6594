import CropPlan
import CropSpec
import CropSupport
import Foundation

/// The decide room's pass over a planned stream (pass `inspect` as `PlanStream.make`'s
/// `inspect`), before anything is written: a verdict for every selected output (`Verdict`:
/// to build, up to date, in the way of a file cropjob did not write, or keyed on its
/// source's hash) and the files in the way (`conflicts`). One `stat` per output and, where
/// any output's file exists, one lookup of the window's state answer all of them; the state
/// is not read again for the window (`verdicts(of:)` gives the run its `WindowVerdicts`).
///
/// `exact` (`plan`): a photo whose recorded facts differ is hashed here, so that every
/// verdict is final. Not exact (`run`): nothing is read but the state; a photo counts with
/// the hash its header came with from the state (`PlannedSource.recordedHash`), and the
/// outputs of the others — and of an earlier job's outputs unless every window of that job
/// is up to date — are `keyed`, settled by the run once it has hashed the source. A run
/// window whose selected outputs are all up to date is not planned again: the run counts
/// and reports its outputs as up to date and lists them in the manifest from the paths kept
/// here (`upToDateWindows`; docs/scale.md, "The no-op re-run"). `--force` makes nothing up
/// to date.
package final class VerdictPass {
  package let state: StateReader
  /// Where the outputs live: a store whose stats are requests answers from its listing.
  let outputs: OutputStore?
  let force: Bool
  let exact: Bool
  /// Each job's upstream job (`from:`).
  let upstream: [String: String]
  private var found: [FileInTheWay] = []
  /// Jobs with a window that is not all up to date.
  private var touched = Set<String>()
  /// Per output (`HashSet64.hash` of its path) of a window the state was read for and that
  /// is not all up to date, its flags (`WindowVerdicts.Flags`) when not 0 (to build, neither
  /// recorded nor claimed): one entry an output, only in windows where some file exists.
  private var flags: [UInt64: UInt8] = [:]
  /// The recorded key of each `keyed` output (by the hash of its path).
  private var keys: [UInt64: SHA256Digest] = [:]
  /// Per job, how many of its selected outputs are up to date.
  package private(set) var upToDateCounts: [String: Int] = [:]
  /// The windows of a run found all up to date: number → their selected outputs' paths (a
  /// range of `paths`).
  package private(set) var upToDate: [Int: Range<Int>] = [:]
  package private(set) var paths = StringTable()

  /// `exact`: `plan`'s verdicts (see the type); else `run`'s.
  /// `outputs`: the store the outputs live in (nil: files at their absolute paths).
  package init(state: StateReader, jobs: [Job], force: Bool = false, exact: Bool, outputs: OutputStore? = nil) {
    self.state = state
    self.outputs = outputs?.isListed == true ? outputs : nil
    self.force = force
    self.exact = exact
    var upstream: [String: String] = [:]
    for job in jobs { if case .from(let name) = job.input { upstream[job.name] = name } }
    self.upstream = upstream
  }

  /// Every output in the way of a file cropjob did not write, sorted by path.
  package var conflicts: [FileInTheWay] { found.sorted { $0.path < $1.path } }

  /// How many windows were found all up to date (`run`).
  package var upToDateWindows: Int { upToDate.count }

  /// Whether some window has an output that is not up to date (`run`): false for a no-op.
  package var hasWork: Bool { !touched.isEmpty }

  /// What the pass found of `window`'s outputs (a window of the stream: of `plan`'s order,
  /// or of the run's). Outputs of a window whose state was not read (no file of its was
  /// there) are to build, neither recorded nor claimed.
  package func verdicts(of window: PlanWindow) -> WindowVerdicts {
    var recordedKeys: [Int: SHA256Digest] = [:]
    let outputs = window.plan.outputs
    let known = outputs.indices.map { k -> UInt8 in
      guard !flags.isEmpty, let found = flags[HashSet64.hash(outputs[k].path)] else { return 0 }
      if found & WindowVerdicts.Flags.verdict == Verdict.keyed.rawValue {
        recordedKeys[k] = keys[HashSet64.hash(outputs[k].path)]
      }
      return found
    }
    return WindowVerdicts(flags: known, recordedKeys: recordedKeys, paths: outputs.map(\.path))
  }

  /// The paths of `window`'s selected outputs found up to date.
  package func upToDatePaths(of window: PlanWindow) -> Set<String> {
    guard !flags.isEmpty else { return [] }
    return verdicts(of: window).upToDatePaths.intersection(window.selected.map { window.plan.outputs[$0].path })
  }

  package func inspect(_ window: PlanWindow) {
    let plan = window.plan
    guard !window.selected.isEmpty else { return }
    // The files of the window's outputs: in the way, or up to date.
    let groups = Dictionary(grouping: window.selected, by: { plan.outputs[$0].sourceIndex }).values.map { $0 }
    let present: [(index: Int, size: Int64?)]
    if let store = outputs {
      // An object store: the sizes its listing gave, no request per output.
      present = window.selected.map { (index: $0, size: store.size(of: plan.outputs[$0].path)) }
    } else {
      present = ConcurrentMap.flatMap(groups) { outputs in
        outputs.map { (index: $0, size: window.outputFile($0)?.size) }
      }
    }
    let existing = present.filter { $0.size != nil }
    guard !existing.isEmpty else {
      touched.insert(window.job)
      return
    }
    // `run` takes its sources' hashes from the plan (`PlannedSource.recordedHash`): only
    // the outputs are looked up.
    let known = state.readKeeping(.keys, StateQuery(plan: plan, selected: window.selected, sources: exact))
    var verdict = [UInt8](repeating: 0, count: plan.outputs.count)
    // Each existing file's record, looked up once: in the way, or of the recorded size.
    var recorded = [RecordedOutput?](repeating: nil, count: plan.outputs.count)
    var sized = 0
    for (index, size) in existing {
      let output = plan.outputs[index]
      guard let row = known.outputs[output.path] else {
        guard !known.claims.contains(output.path) else { continue }
        var inTheWay = FileInTheWay(output: output, source: plan.sources[output.sourceIndex].path)
        if let store = outputs { inTheWay.absolutePath = store.displayName(output.path) }
        found.append(inTheWay)
        verdict[index] |= Verdict.foreign.rawValue
        continue
      }
      if row.bytes == Int(size!) {
        recorded[index] = row
        sized += 1
      }
    }
    let upstreamDone = upstream[window.job].map { !touched.contains($0) } ?? true
    var fresh = 0
    if !force && sized > 0 {
      let check = UpToDateCheck(plan: plan, previous: [:], sources: known.sources)
      let hashing = exact
      let judged = ConcurrentMap.map(groups) { [recorded] outputs in
        Freshness.judge(
          outputs.filter { recorded[$0] != nil }, check: check, recorded: recorded, hashing: hashing,
          upstreamDone: upstreamDone)
      }
      for (up, keyed) in judged {
        for i in up { verdict[i] |= Verdict.upToDate.rawValue }
        for i in keyed { verdict[i] |= Verdict.keyed.rawValue }
        fresh += up.count
      }
      upToDateCounts[window.job, default: 0] += fresh
    }
    if !exact && fresh == window.selected.count {
      // All up to date: the run counts the window from its paths, not planned again.
      let start = paths.count
      for i in window.selected { paths.append(plan.outputs[i].path) }
      upToDate[window.number] = start..<paths.count
      return
    }
    touched.insert(window.job)
    for k in window.selected {
      if known.outputs[plan.outputs[k].path] != nil { verdict[k] |= WindowVerdicts.Flags.recorded }
      if known.claims.contains(plan.outputs[k].path) { verdict[k] |= WindowVerdicts.Flags.claimed }
    }
    for k in window.selected where verdict[k] != 0 {
      let hash = HashSet64.hash(plan.outputs[k].path)
      flags[hash] = verdict[k]
      if let row = recorded[k], verdict[k] & WindowVerdicts.Flags.verdict == Verdict.keyed.rawValue {
        keys[hash] = SHA256Digest(hex: row.key)
      }
    }
  }
}

extension VerdictPass {
  /// Hands the up-to-date windows' paths to the run's manifest list (which lists those of
  /// the windows it reaches): kept once, not copied.
  package func takePaths() -> StringTable {
    defer { paths = StringTable() }
    return paths
  }
}
