/// The second pass's two orders: the plan's (printing) and the run's (jobs in turn).
extension PlanStream {
  /// The second pass: every window in the plan's order. A window whose number `skip` gives
  /// true is not planned again: `skipped` is told its number instead (in the same order).
  public func forEachWindow(
    skipping skip: (Int) -> Bool = { _ in false }, skipped: (Int) -> Void = { _ in },
    _ body: (PlanWindow) -> Void
  ) {
    forEachWindow(takingJobsInTurn: false, skipping: skip, skipped: skipped, body)
  }

  /// The second pass in the run's order: within a stage, the jobs' windows are taken in turn
  /// (each job's first window, then each job's second, …), so that jobs over the same photos
  /// bring each photo's windows together and `WindowGroups` decodes it once for all of them
  /// (issue 24). `plan` prints in the plan's order (`forEachWindow`), which does not depend
  /// on the window size; the windows and their numbers are the same in both.
  public func forEachWindowTakingJobsInTurn(
    skipping skip: (Int) -> Bool = { _ in false }, skipped: (Int) -> Void = { _ in },
    _ body: (PlanWindow) -> Void
  ) {
    forEachWindow(takingJobsInTurn: true, skipping: skip, skipped: skipped, body)
  }

  private func forEachWindow(
    takingJobsInTurn: Bool, skipping skip: (Int) -> Bool, skipped: (Int) -> Void, _ body: (PlanWindow) -> Void
  ) {
    if let kept {
      for window in kept {
        if skip(window.number) { skipped(window.number) } else { body(window) }
      }
      return
    }
    var paths = StandardPaths()
    guard takingJobsInTurn else {
      for (job, stage) in order {
        forEachWindow(of: job, stage: stage, paths: &paths, withShrink: true, skipping: skip, skipped: skipped) {
          window, _ in body(window)
        }
      }
      return
    }
    var start = 0
    while start < order.count {
      let stage = order[start].stage
      let end = order[start...].firstIndex { $0.stage != stage } ?? order.count
      let jobs = order[start..<end]
      let rounds = jobs.map { ((lists[$0.job.name]?.count ?? 0) + window - 1) / window }.max() ?? 0
      for k in 0..<rounds {
        for (job, stage) in jobs {
          forEachWindow(
            of: job, stage: stage, paths: &paths, withShrink: true, only: k, skipping: skip, skipped: skipped
          ) { window, _ in body(window) }
        }
      }
      start = end
    }
  }
}
