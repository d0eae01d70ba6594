import CropGeometry
import CropSpec
import CropSupport

/// The steps of the first pass (`PlanStream.make`) and what they share.
extension PlanStream {
  /// What the first pass keeps while it goes over the windows.
  struct FirstPassState {
    /// Which overrides some source used (`OverrideIndex`).
    var used: [Bool]
    var checks: PathChecks
    /// The checks' own standard paths (the windows have theirs).
    var checkPaths = StandardPaths()
    /// One bit per decode of a source (`DecodeKey`: colour policy × frames).
    var colours: [UInt8]
    /// Per upstream job, the outputs its `from:` jobs read.
    var produced: [String: ProducedSources] = [:]
    /// The jobs some `from:` job reads.
    let upstreams: Set<String>
    let collect: Bool
    var collected: [PlannedOutput] = []
    /// Whether the whole plan is at most one window's sources (its windows are kept).
    let keep: Bool
    var kept: [PlanWindow] = []
    /// `inspect` on a thread of its own, while the next window is planned.
    let inspecting: SerialPipeline<PlanWindow>?

    init(stream: PlanStream, file: JobFile, collect: Bool, inspect: ((PlanWindow) -> Void)?) {
      used = [Bool](repeating: false, count: stream.overrides.count)
      checks = PathChecks(root: stream.outputRoot, exact: false)
      colours = [UInt8](repeating: 0, count: stream.table.count)
      upstreams = Set(
        file.jobs.compactMap { job -> String? in
          if case .from(let upstream) = job.input { return upstream } else { return nil }
        })
      self.collect = collect
      keep = stream.lists.values.reduce(0) { $0 + $1.count } <= stream.window
      inspecting = inspect.map { SerialPipeline<PlanWindow>(depth: 1, $0) }
    }
  }

  /// Every window of every job, in the plan's order: planned, its outputs noted and checked
  /// (`checkOutputs`), counted (`countSelected`), handed to `inspect`, kept or collected.
  func planWindows(_ pass: inout FirstPassState, paths: inout StandardPaths) {
    for (job, stage) in order {
      if case .from(let upstream) = job.input {
        addProducedSources(pass.produced[upstream] ?? ProducedSources(), of: upstream, for: job, stage: stage)
        pass.colours += [UInt8](repeating: 0, count: table.count - pass.colours.count)
      }
      var counts = (sources: 0, outputs: 0, failed: 0)
      forEachWindow(of: job, stage: stage, paths: &paths, withShrink: false) { window, draftIssues in
        var window = window
        record(draftIssues, window: window)
        for source in window.plan.sources { overrides.markUsed(job: job.name, source: source, in: &pass.used) }
        let files = checkOutputs(window, job: job, pass: &pass)
        _ = countSelected(window, pass: &pass)
        let matched = matchedSources(window, issues: draftIssues)
        counts.sources += matched.sources
        counts.failed += matched.failed
        counts.outputs += window.selected.count
        collectIndexSources(window, job: job)
        outputCount += window.plan.outputs.count
        if let inspecting = pass.inspecting {
          window.outputFiles = files
          inspecting.submit(window)
        }
        if pass.keep { pass.kept.append(window) }
        if pass.collect {
          for var output in window.plan.outputs {
            output.sourceIndex = window.sourceNumbers[output.sourceIndex]
            pass.collected.append(output)
          }
        }
      }
      jobCounts[job.name] = counts
      selectedCount += counts.outputs
    }
    pass.inspecting?.finish()
  }

  /// Notes each output of `window` in the source table (the scale its decode needs), checks
  /// its path (collisions, escapes: `PathChecks`) and, for a job that `from:` jobs read,
  /// which output of each source they read. Returns each output's file as the checks found
  /// it (for `inspect`).
  private func checkOutputs(_ window: PlanWindow, job: Job, pass: inout FirstPassState) -> [SourceFileStatus??] {
    var best: [Int: Int] = [:]  // local source → its produced output (entry 0, largest)
    var files = [SourceFileStatus??](repeating: nil, count: window.plan.outputs.count)
    for (k, output) in window.plan.outputs.enumerated() {
      let number = window.sourceNumbers[output.sourceIndex]
      // Faces: the decode keeps at least the pixels of the detector's copy.
      var scale = output.geometry.scale
      if let header = window.plan.sources[output.sourceIndex].header,
        let side = output.faceDetectionSide(
          photo: Size(width: Double(header.width), height: Double(header.height)))
      {
        scale = max(scale, Double(side) / Double(max(header.width, header.height)))
      }
      table.noteOutput(number, scale: scale)
      let source = window.plan.sources[output.sourceIndex]
      pass.checks.check(output, source: source.path, stream: self, paths: &pass.checkPaths, file: &files[k])
      if pass.upstreams.contains(job.name), output.entry == 0 {
        if let known = best[output.sourceIndex] {
          if window.plan.outputs[known].outputScale < output.outputScale { best[output.sourceIndex] = k }
        } else {
          best[output.sourceIndex] = k
        }
      }
    }
    for local in best.keys.sorted() {
      let output = window.plan.outputs[best[local]!]
      pass.produced[job.name, default: ProducedSources()].add(output, root: table.root(window.sourceNumbers[local]))
    }
    return files
  }

  /// The sources of `window` in the shard (every one its job's patterns matched, planned or
  /// not), and how many of them an error of `issues` names: `plan` says `2 sources (2 failed)`,
  /// not `0 sources`, when two photos matched and could not be used (issue 40.6).
  private func matchedSources(_ window: PlanWindow, issues: [PlanIssue]) -> (sources: Int, failed: Int) {
    var failing = Set<String>()
    for issue in issues where issue.severity == .error && !issue.blocksRun {
      if let source = issue.source { failing.insert(source) }
    }
    var sources = 0
    var failed = 0
    for (i, source) in window.plan.sources.enumerated() where shard?.contains(window.roots[i]) ?? true {
      sources += 1
      if failing.contains(source.path) { failed += 1 }
    }
    return (sources, failed)
  }

  /// Counts `window`'s selected outputs' frames and decodes (a bit per colour policy and
  /// frames policy of each source); returns how many sources they are of.
  private func countSelected(_ window: PlanWindow, pass: inout FirstPassState) -> Int {
    var selectedSources = Set<Int>()
    for k in window.selected {
      let output = window.plan.outputs[k]
      selectedSources.insert(output.sourceIndex)
      if output.encode.frames == .all, let header = window.plan.sources[output.sourceIndex].header {
        animations.add(frames: header.pages)
      }
      pass.colours[window.sourceNumbers[output.sourceIndex]] |=
        1
        << (ColourPolicy.allCases.firstIndex(of: output.encode.colour)!
          + ColourPolicy.allCases.count * FramesPolicy.allCases.firstIndex(of: output.encode.frames)!)
    }
    return selectedSources.count
  }

  /// After the last window: the decodes counted, the unused overrides, the path checks'
  /// issues (checked again exactly when two paths hashed alike) and index files written
  /// twice added, the sources' index dropped (the second pass does not need it).
  func finishChecks(_ pass: inout FirstPassState) {
    decodeCount = pass.colours.reduce(0) { $0 + $1.nonzeroBitCount }
    issues += PlanDraft.unusedOverridesIssues(file: jobFile, unused: pass.used.indices.filter { !pass.used[$0] })
    pass.checks.finish()
    if pass.checks.suspected {
      // Two outputs' paths hash alike: the checks again, exactly, naming the first writer.
      var exact = PathChecks(root: outputRoot, exact: true, suspects: pass.checks.suspects)
      forEachWindow { window in
        for output in window.plan.outputs {
          exact.check(
            output, source: window.plan.sources[output.sourceIndex].path, stream: self, paths: &pass.checkPaths)
        }
      }
      pass.checks.issues = exact.issues
    }
    issues += pass.checks.issues
    // Index files two jobs (or two sources of a per-source index) would write: refused by
    // the plan, as by `run` (docs/job-file.md, "index").
    for file in IndexFile.planned(self).files {
      guard let problem = file.problem else { continue }
      issues.append(
        PlanIssue(
          severity: .error, job: file.job, source: nil, output: file.path, message: problem, blocksRun: true,
          kind: .output))
    }
    outputPaths = pass.checks.outputs
    pass.checks.outputs = []
    table.byHash = []
    table.hashes = []
  }

  /// Keeps the first pass's windows when the whole plan is at most one window's sources
  /// (`small`; `from:` sources counted too, as they are only known as the jobs go), each
  /// source with its shrink-on-load, known now that every output is planned: a small batch
  /// is planned once.
  func keepWindows(_ windows: [PlanWindow], small: Bool, upstreams: Set<String>) {
    guard small, upstreams.isEmpty || table.count <= window else { return }
    var windows = windows
    for w in windows.indices {
      for l in windows[w].plan.sources.indices {
        let first = windows[w].plan.sources[l]
        windows[w].plan.sources[l] = table.planned(
          windows[w].sourceNumbers[l], absolute: first.absolutePath, withShrink: true)
        // The hash the first pass looked up for the window (`addRecordedHashes`).
        (windows[w].plan.sources[l].recordedHash, windows[w].plan.sources[l].recordedStamp) = (
          first.recordedHash, first.recordedStamp
        )
      }
    }
    kept = windows
  }

  /// The whole plan (`plan`), from the outputs the first pass collected.
  func collectPlan(_ outputs: [PlannedOutput], paths: inout StandardPaths) {
    var sources = (0..<table.count).map { table.planned($0, absolute: absolutePath($0, &paths), withShrink: true) }
    addRecordedHashes(&sources, numbers: Array(sources.indices))
    plan = Plan(
      jobFile: jobFile, outputRoot: outputRoot, sources: sources, outputs: outputs, issues: Array(issues),
      engineVersion: engineVersion)
  }
}
