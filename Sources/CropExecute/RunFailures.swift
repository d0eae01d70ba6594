import CropPlan

/// How a run records what failed: one place that counts, lists and reports each failure.
extension Executor {
  /// Records a failure of `output` (made from `source`) in the summary and reports it.
  func recordFailure(output: String, source: String, reason: String, state: RunState) {
    Self.recordFailure(output: output, source: source, reason: reason, reporter: reporter, state: state)
  }

  static func recordFailure(output: String, source: String, reason: String, reporter: RunReporter, state: RunState) {
    state.summary.withLock {
      $0.failed += 1
      $0.failures.append(.init(output: output, source: source, reason: reason))
    }
    reporter.report(.failed(path: output, source: source, reason: reason))
  }

  /// A planned output that could not be made.
  func fail(_ index: Int, _ reason: String, state: RunState) {
    let output = plan.outputs[index]
    state.failedPaths.withLock { _ = $0.insert(output.path) }
    recordFailure(
      output: output.path, source: plan.sources[output.sourceIndex].path, reason: reason, state: state)
  }

  /// Sources the planner could not use (unreadable, over a limit, invalid placement) have
  /// no output steps; they are failures of this run all the same, so that the summary names
  /// them and the exit code says so.
  func reportPlanFailures(_ state: RunState) {
    let rootOf = Dictionary(
      plan.sources.indices.map { (plan.sources[$0].path, rootSources[$0]) }, uniquingKeysWith: { a, _ in a })
    Self.reportPlanFailures(
      plan.issues, root: { rootOf[$1] ?? $1 }, options: options, reporter: reporter, state: state)
  }

  /// `reportPlanFailures` for `issues`; `root` gives the file the chain of an issue's source
  /// starts from (the issue's index and source path), what shards are chosen by.
  static func reportPlanFailures(
    _ issues: [PlanIssue], root: (Int, String) -> String, options: RunOptions, reporter: RunReporter,
    state: RunState
  ) {
    for (index, issue) in issues.enumerated() where issue.severity == .error && !issue.blocksRun {
      let source = issue.source ?? ""
      // A job-level problem (no sources) belongs to shard 0 only, so shards report it once.
      let owned =
        issue.source == nil
        ? (options.shard?.index ?? 0) == 0 : options.shard?.contains(root(index, source)) ?? true
      guard owned else { continue }
      let output = issue.output ?? "(outputs of job \(issue.job ?? "?"))"
      recordFailure(output: output, source: source, reason: issue.message, reporter: reporter, state: state)
    }
  }
}
