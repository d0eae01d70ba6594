import CropSpec
import CropSupport

/// The second pass's two orders: the plan's (printing) and the run's (by source).
extension PlanStream {
  /// The second pass: every window in the plan's order. A window whose number `skip` gives
  /// true is not planned again: `skipped` is told its number instead (in the same order).
  package func forEachWindow(
    skipping skip: (Int) -> Bool = { _ in false }, skipped: (Int) -> Void = { _ in },
    _ body: (PlanWindow) -> Void
  ) {
    if let kept {
      for window in kept {
        if skip(window.number) { skipped(window.number) } else { body(window) }
      }
      return
    }
    var paths = StandardPaths()
    for (job, stage) in order {
      forEachWindow(of: job, stage: stage, paths: &paths, withShrink: true, skipping: skip, skipped: skipped) {
        window, _ in body(window)
      }
    }
  }

  /// The second pass in the run's order, by source (issue 24): stage by stage, each stage's
  /// outputs in *run windows* of the sources numbered `r * window ..< (r + 1) * window` in
  /// the plan (`sourceNumbers`). A run window holds the outputs of every job of the stage
  /// over those sources, so each source of a stage is in one run window, and the run decodes
  /// it once for the outputs of every job that reads it, whatever lists the jobs read: the
  /// decodes `plan` counts (`decodeCount`), at any window size. The memory bound is the
  /// plan's windows': at most `window` distinct sources at a time, with the outputs of the
  /// stage's jobs over them; besides, while a stage runs, each of its jobs' list positions
  /// sorted by run window (4 bytes a source). A run window's `number` is `r`; `job` is the
  /// first job with outputs in it. Run windows without a selected output are not given.
  ///
  /// The plan's windows (`PlanWindow.number`, the plan's order) that `skip` gives true are
  /// not planned again: `skipped` is told their numbers, in the plan's order, before their
  /// stage's run windows, and their outputs are in none. A plan of at most one window's
  /// sources (kept from the first pass) is one run window per stage.
  package func forEachRunWindow(
    skipping skip: (Int) -> Bool = { _ in false }, skipped: (Int) -> Void = { _ in },
    _ body: (PlanWindow) -> Void
  ) {
    if let kept {
      var pending: [PlanWindow] = []
      func flush() {
        if let merged = PlanWindow.merged(pending) { body(merged) }
        pending = []
      }
      for window in kept {
        if pending.last.map({ $0.stage != window.stage }) ?? false { flush() }
        if skip(window.number) {
          skipped(window.number)
        } else if !window.selected.isEmpty {
          pending.append(window)
        }
      }
      return flush()
    }
    var paths = StandardPaths()
    var start = 0
    while start < order.count {
      let stage = order[start].stage
      let end = order[start...].firstIndex { $0.stage != stage } ?? order.count
      forEachRunWindow(of: Array(order[start..<end]), paths: &paths, skip: skip, skipped: skipped, body)
      start = end
    }
  }

  /// The run windows of one stage's `jobs` (see `forEachRunWindow`).
  private func forEachRunWindow(
    of jobs: [(job: Job, stage: Int)], paths: inout StandardPaths, skip: (Int) -> Bool, skipped: (Int) -> Void,
    _ body: (PlanWindow) -> Void
  ) {
    let ranges = table.count == 0 ? 0 : (table.count - 1) / window + 1
    // Per job, the positions of its list that are not in a skipped window, by run window
    // (`positions[starts[r]..<starts[r + 1]]`, in the list's order).
    var sorted: [(positions: [Int32], starts: [Int])] = []
    for (job, _) in jobs {
      let list = lists[job.name] ?? JobList()
      let firstNumber = firstWindowNumber(of: job.name)
      var left = [Bool](repeating: true, count: list.count == 0 ? 0 : (list.count - 1) / window + 1)
      for w in left.indices where skip(firstNumber + w) {
        skipped(firstNumber + w)
        left[w] = false
      }
      var starts = [Int](repeating: 0, count: ranges + 1)
      for i in 0..<list.count where left[i / window] { starts[list.number(i) / window + 1] += 1 }
      for r in 0..<ranges { starts[r + 1] += starts[r] }
      var next = starts
      var positions = [Int32](repeating: 0, count: starts[ranges])
      for i in 0..<list.count where left[i / window] {
        let r = list.number(i) / window
        positions[next[r]] = Int32(i)
        next[r] += 1
      }
      sorted.append((positions, starts))
    }
    for r in 0..<ranges {
      var draft = WindowDraft(PlanDraft(file: jobFile, root: outputRoot, overrides: overrides))
      var firstJob: String? = nil
      for (j, (job, _)) in jobs.enumerated() where sorted[j].starts[r] < sorted[j].starts[r + 1] {
        let positions = sorted[j].positions[sorted[j].starts[r]..<sorted[j].starts[r + 1]].lazy.map { Int($0) }
        add(positions, of: lists[job.name]!, job: job.name, to: &draft, paths: &paths, withShrink: true)
        firstJob = firstJob ?? job.name
      }
      guard let firstJob else { continue }
      for (job, stage) in jobs where draft.draft.jobSources[job.name] != nil {
        planner.planOutputs(of: job, stage: stage, into: &draft.draft)
      }
      let run = planWindow(&draft, job: firstJob, stage: jobs[0].stage, number: r)
      if !run.selected.isEmpty { body(run) }
    }
  }
}

extension PlanWindow {
  /// `windows` (of one stage) as one window: each source once (by its number in the plan),
  /// the outputs in order; the first window's job and number.
  static func merged(_ windows: [PlanWindow]) -> PlanWindow? {
    guard var result = windows.first else { return nil }
    result.outputFiles = []
    var local = [Int: Int](uniqueKeysWithValues: result.sourceNumbers.enumerated().map { ($1, $0) })
    for window in windows.dropFirst() {
      let offset = result.plan.outputs.count
      var map: [Int] = []
      for (k, number) in window.sourceNumbers.enumerated() {
        if let known = local[number] {
          map.append(known)
          continue
        }
        local[number] = result.sourceNumbers.count
        map.append(result.sourceNumbers.count)
        result.sourceNumbers.append(number)
        result.roots.append(window.roots[k])
        result.plan.sources.append(window.plan.sources[k])
      }
      for var output in window.plan.outputs {
        output.sourceIndex = map[output.sourceIndex]
        result.plan.outputs.append(output)
      }
      result.selected += window.selected.map { $0 + offset }
    }
    return result
  }
}
