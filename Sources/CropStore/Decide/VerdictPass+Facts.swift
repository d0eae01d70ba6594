import CropPlan
import CropSupport

extension VerdictPass {
  /// What `plan --format json` prints beside the plan for `window`'s selected outputs: which
  /// are up to date, and the key the manifest will hold (`OutputKey.key`) for each output of
  /// a photo file. The photo's content hash is the state's where the file's recorded facts
  /// (size, mtime, ctime, inode, device) still match, else the file is read and hashed once,
  /// as `run` will. Outputs of a damaged or unreadable photo, or of an earlier job's output
  /// (`from:`, written by the run itself), have no key before the run.
  package func facts(of window: PlanWindow) -> OutputFacts {
    let plan = window.plan
    guard !window.selected.isEmpty else { return OutputFacts() }
    let known = state.readKeeping(.keys, StateQuery(plan: plan, selected: window.selected))
    let check = UpToDateCheck(plan: plan, previous: [:], sources: known.sources)
    let groups = Dictionary(grouping: window.selected, by: { plan.outputs[$0].sourceIndex }).values.map { $0 }
    let keyed = ConcurrentMap.flatMap(groups) { outputs -> [(path: String, key: String)] in
      let source = plan.sources[plan.outputs[outputs[0]].sourceIndex]
      guard source.error == nil, source.producedBy == nil,
        let facts = try? check.sourceState(source, outputs: outputs)
      else { return [] }
      return outputs.map { (plan.outputs[$0].path, check.key(of: plan.outputs[$0], source: facts.record)) }
    }
    var keys: [String: String] = [:]
    for (path, key) in keyed { keys[path] = key }
    return OutputFacts(upToDate: upToDatePaths(of: window), manifestKeys: keys)
  }
}
