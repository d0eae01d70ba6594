import CropGeometry
import Dispatch
import Foundation

/// Runs a plan: one decode per source for all of its outputs, sources in parallel on
/// Dispatch, outputs written atomically, a manifest of what was done.
public final class Executor: Sendable {
  public let plan: Plan
  public let options: RunOptions
  let reporter: RunReporter
  /// For each source, the path of the original file it comes from (itself, or for a
  /// `from:` source the root of its chain): what shards are chosen by.
  let rootSources: [String]

  public init(plan: Plan, options: RunOptions, reporter: RunReporter) {
    self.plan = plan
    self.options = options
    self.reporter = reporter
    rootSources = Self.rootSources(of: plan)
  }

  /// One decode task: a source and the outputs it feeds in one stage with one colour
  /// policy (see `DecodeKey`).
  struct Task: Sendable {
    var source: Int
    var colour: ColourPolicy
    var outputs: [Int]
  }

  /// The outputs this run is responsible for (all, or one shard's).
  public func selectedOutputs() -> [Int] {
    plan.outputs.indices.filter { i in
      guard let shard = options.shard else { return true }
      return shard.contains(rootSources[plan.outputs[i].sourceIndex])
    }
  }

  /// Shards split by original source, so a source is decoded by one worker only and
  /// `from:` chains stay within a shard. (One pass: no search per output.)
  static func rootSources(of plan: Plan) -> [String] {
    var producer: [String: Int] = [:]
    for output in plan.outputs where producer[output.absolutePath] == nil {
      producer[output.absolutePath] = output.sourceIndex
    }
    return plan.sources.indices.map { index in
      var source = plan.sources[index]
      var hops = 0
      while source.producedBy != nil, let upstream = producer[source.absolutePath], hops <= plan.sources.count {
        source = plan.sources[upstream]
        hops += 1
      }
      return source.path
    }
  }

  /// Whether this run (or its shard) is responsible for a source given by its path as the
  /// job file sees it.
  func owns(sourcePath: String) -> Bool {
    options.shard?.contains(sourcePath) ?? true
  }

  public func run() -> RunSummary {
    Vips.start()
    let selected = selectedOutputs()
    let previous = Manifest.loadAll(root: plan.outputRoot)
    let entries = LockedBox([String: Manifest.Entry]())
    let journal = ManifestJournal(root: plan.outputRoot, shard: options.shard)
    let summary = LockedBox(RunSummary())
    summary.withLock { $0.planned = selected.count }
    reporter.report(.started(total: selected.count, upToDate: 0))
    reportPlanFailures(summary: summary)
    for folder in Set(selected.map { PathText.deletingLastComponent(plan.outputs[$0].absolutePath) }) {
      AtomicWriter.removeStaleTemporaries(in: folder)
    }
    let stages = Set(selected.map { plan.outputs[$0].stage }).sorted()
    var stop = false
    for stage in stages where !stop {
      var byDecode: [DecodeKey: [Int]] = [:]
      for i in selected where plan.outputs[i].stage == stage {
        byDecode[plan.outputs[i].decodeKey, default: []].append(i)
      }
      let tasks = byDecode.keys.sorted().map { Task(source: $0.sourceIndex, colour: $0.colour, outputs: byDecode[$0]!) }
      let next = LockedBox(0)
      let budget = PixelBudget(limit: options.maxPixelsInFlight)
      let workers = max(1, min(options.jobs, tasks.count))
      Self.runWorkers(workers) {
        while true {
          if Cancellation.isCancelled { return }
          if self.options.failFast && summary.withLock({ $0.failed > 0 }) { return }
          let index = next.withLock { value -> Int in
            value += 1
            return value - 1
          }
          guard index < tasks.count else { return }
          self.perform(
            tasks[index], previous: previous, budget: budget, entries: entries, journal: journal, summary: summary)
        }
      }
      if Cancellation.isCancelled || (options.failFast && summary.withLock({ $0.failed > 0 })) { stop = true }
    }
    if Cancellation.isCancelled { summary.withLock { $0.interrupted = true } }
    reportStale(previous: previous, selected: selected, entries: entries, summary: summary)
    let manifestWritten = writeManifest(previous: previous, entries: entries, selected: selected, summary: summary)
    journal.finish(manifestWritten: manifestWritten)
    let result = summary.withLock { $0 }
    reporter.report(.finished(result))
    return result
  }

  /// Runs `body` on `count` threads at once and waits for all of them. Not
  /// `concurrentPerform`: it never runs more than the cores at once, so `--jobs 4` on 2 cores
  /// ran 2 (photos on a network file system wait on reads and gain from more workers).
  static func runWorkers(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    guard count > 1 else { return body() }
    let group = DispatchGroup()
    for _ in 0..<count {
      group.enter()
      let thread = Thread {
        body()
        group.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    group.wait()
  }

  /// Outputs among `selected` whose files match the manifest of an earlier run (for `plan`).
  /// Sources with no earlier output are not hashed.
  public func upToDatePaths(_ selected: [Int]) -> Set<String> {
    let previous = Manifest.loadAll(root: plan.outputRoot)
    guard !previous.isEmpty, !options.force else { return [] }
    var result = Set<String>()
    let bySource = Dictionary(grouping: selected, by: { plan.outputs[$0].sourceIndex })
    for (sourceIndex, outputs) in bySource where outputs.contains(where: { previous[plan.outputs[$0].path] != nil }) {
      guard plan.sources[sourceIndex].error == nil,
        let record = try? sourceRecord(plan.sources[sourceIndex], previous: previous, outputs: outputs)
      else { continue }
      for i in outputs
      where isUpToDate(
        plan.outputs[i], key: OutputKey.key(recipe: plan.outputs[i].recipe, sourceHash: record.sha256),
        previous: previous)
      {
        result.insert(plan.outputs[i].path)
      }
    }
    return result
  }

  /// Same key as the manifest's entry, and the file still has the recorded size.
  func isUpToDate(_ output: PlannedOutput, key: String, previous: [String: Manifest.Entry]) -> Bool {
    guard !options.force, let old = previous[output.path], old.key == key,
      let size = (try? FileManager.default.attributesOfItem(atPath: output.absolutePath))?[.size] as? Int
    else { return false }
    return size == old.bytes
  }

  private func perform(
    _ task: Task, previous: [String: Manifest.Entry], budget: PixelBudget, entries: LockedBox<[String: Manifest.Entry]>,
    journal: ManifestJournal, summary: LockedBox<RunSummary>
  ) {
    let source = plan.sources[task.source]
    func failAll(_ outputs: [Int], _ reason: String) {
      for i in outputs { fail(i, reason, summary: summary) }
    }
    if let error = source.error {
      failAll(task.outputs, error)
      return
    }
    guard let header = source.header else {
      failAll(task.outputs, "no header")
      return
    }
    // Source identity: size + mtime, confirmed by content hash (reused from the manifest
    // when size and mtime are unchanged).
    let record: Manifest.SourceRecord
    do {
      if let upstream = source.producedBy, !FileManager.default.fileExists(atPath: source.absolutePath) {
        failAll(task.outputs, "its source was not produced: job \(upstream) failed to write \(source.path)")
        return
      }
      record = try sourceRecord(source, previous: previous, outputs: task.outputs)
    } catch {
      failAll(
        task.outputs,
        "cannot read the source: \(error is AtomicWriter.WriteError ? "\(error)" : AtomicWriter.reason(error))")
      return
    }
    var pending: [(Int, String)] = []
    for i in task.outputs {
      let output = plan.outputs[i]
      let key = OutputKey.key(recipe: output.recipe, sourceHash: record.sha256)
      if isUpToDate(output, key: key, previous: previous), let old = previous[output.path] {
        entries.withLock { $0[output.path] = old }
        summary.withLock { $0.upToDate += 1 }
        reporter.report(.skipped(path: output.path))
      } else {
        pending.append((i, key))
      }
    }
    guard !pending.isEmpty, !Cancellation.isCancelled else { return }
    let pixels = header.width * header.height / max(1, source.loadShrink * source.loadShrink)
    budget.acquire(pixels)
    defer { budget.release(pixels) }
    // The wait for the budget can be long: do not start a decode after an interrupt.
    guard !Cancellation.isCancelled else { return }
    let decoded: DecodedSource
    do {
      decoded = try DecodedSource.decode(
        path: source.absolutePath, header: header, shrink: source.loadShrink, strictness: options.strictness,
        colour: task.colour)
    } catch {
      failAll(pending.map(\.0), error.description)
      return
    }
    summary.withLock { $0.decodes += 1 }
    reporter.report(.decoded(source: source.path))
    for (i, key) in pending {
      if Cancellation.isCancelled { return }
      let output = plan.outputs[i]
      do {
        // Smart focus is resolved from the pixels (shared with `preview`: RunGeometry.swift).
        let planned = try output.runGeometry(decoded: decoded).geometry
        let encoded = try OutputEncoder.produce(
          decoded, geometry: planned, style: output.style, encode: output.encode, metadata: output.metadata)
        let geometry = encoded.geometry
        if let problem = OutputPaths.escapeProblem(output.absolutePath, root: plan.outputRoot) {
          throw AtomicWriter.WriteError(path: output.absolutePath, message: problem)
        }
        try AtomicWriter.write(encoded.bytes, to: output.absolutePath, durable: false)
        let entry = Manifest.Entry(
          path: output.path, job: output.job, key: key, bytes: encoded.bytes.count, width: geometry.outputSize.width,
          height: geometry.outputSize.height, sha256: SHA256.hex(encoded.bytes),
          format: output.encode.options.format.rawValue, quality: encoded.quality, encodes: encoded.encodes,
          source: record,
          geometry: Self.geometryRecord(geometry, output: output))
        entries.withLock { $0[output.path] = entry }
        journal.append(entry)
        summary.withLock {
          $0.written += 1
          $0.encodes += encoded.encodes
        }
        reporter.report(
          .wrote(path: output.path, bytes: encoded.bytes.count, quality: encoded.quality, encodes: encoded.encodes))
      } catch {
        fail(i, "\(error)", summary: summary)
      }
    }
  }

  static func geometryRecord(_ g: PlacementResult, output: PlannedOutput) -> Manifest.GeometryRecord {
    let flip = [output.place.flipHorizontal ? "horizontal" : nil, output.place.flipVertical ? "vertical" : nil]
      .compactMap { $0 }
    return Manifest.GeometryRecord(
      crop: g.sourceRegion, scale: g.scale, angle: g.angle, centre: g.centre, smartFocus: output.smartFocus?.rawValue,
      flip: flip.isEmpty ? nil : flip.joined(separator: "+"), notes: g.notes.map(\.description))
  }

  private func sourceRecord(_ source: PlannedSource, previous: [String: Manifest.Entry], outputs: [Int]) throws
    -> Manifest.SourceRecord
  {
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

  /// Sources the planner could not use (unreadable, over a limit, invalid placement) have
  /// no output steps; they are failures of this run all the same, so that the summary names
  /// them and the exit code says so.
  private func reportPlanFailures(summary: LockedBox<RunSummary>) {
    let rootOf = Dictionary(
      plan.sources.indices.map { (plan.sources[$0].path, rootSources[$0]) }, uniquingKeysWith: { a, _ in a })
    for issue in plan.issues where issue.severity == .error && !issue.blocksRun {
      let source = issue.source ?? ""
      // A job-level problem (no sources) belongs to shard 0 only, so shards report it once.
      guard issue.source == nil ? (options.shard?.index ?? 0) == 0 : owns(sourcePath: rootOf[source] ?? source) else {
        continue
      }
      let output = issue.output ?? "(outputs of job \(issue.job ?? "?"))"
      summary.withLock {
        $0.failed += 1
        $0.failures.append(.init(output: output, source: source, reason: issue.message))
      }
      reporter.report(.failed(path: output, source: source, reason: issue.message))
    }
  }

  private func fail(_ index: Int, _ reason: String, summary: LockedBox<RunSummary>) {
    let output = plan.outputs[index]
    let source = plan.sources[output.sourceIndex].path
    summary.withLock {
      $0.failed += 1
      $0.failures.append(.init(output: output.path, source: source, reason: reason))
    }
    reporter.report(.failed(path: output.path, source: source, reason: reason))
  }

  /// Outputs recorded by earlier runs that this plan no longer produces: reported, or
  /// deleted with `--prune`.
  /// Stale outputs that are not pruned stay in the manifest, so that a later `--prune`
  /// still finds them; those already gone from the disk are dropped silently.
  private func reportStale(
    previous: [String: Manifest.Entry], selected: [Int], entries: LockedBox<[String: Manifest.Entry]>,
    summary: LockedBox<RunSummary>
  ) {
    let planned = Set(plan.outputs.map(\.path))
    for path in previous.keys.sorted() where !planned.contains(path) {
      let entry = previous[path]!
      if !owns(sourcePath: entry.source.path) { continue }
      let absolute = (plan.outputRoot as NSString).appendingPathComponent(path)
      guard OutputPaths.escapeProblem(absolute, root: plan.outputRoot) == nil,
        FileManager.default.fileExists(atPath: absolute)
      else { continue }
      if options.prune {
        do {
          try FileManager.default.removeItem(atPath: absolute)
          summary.withLock { $0.pruned += 1 }
          reporter.report(.pruned(path: path))
        } catch {
          entries.withLock { $0[path] = entry }
          summary.withLock {
            $0.failed += 1
            $0.failures.append(
              .init(output: path, source: entry.source.path, reason: "cannot prune: \(AtomicWriter.reason(error))"))
          }
          reporter.report(
            .failed(path: path, source: entry.source.path, reason: "cannot prune: \(AtomicWriter.reason(error))"))
        }
      } else {
        entries.withLock { $0[path] = entry }
        summary.withLock { $0.stale += 1 }
        reporter.report(.stale(path: path))
      }
    }
  }

  /// The manifest lists what this run's outputs are now: written or up to date, plus the
  /// entries of outputs this run did not reach (interrupted, other failures) kept as they were.
  private func writeManifest(
    previous: [String: Manifest.Entry], entries: LockedBox<[String: Manifest.Entry]>, selected: [Int],
    summary: LockedBox<RunSummary>
  ) -> Bool {
    var all = entries.withLock { $0 }
    for i in selected {
      let path = plan.outputs[i].path
      if all[path] == nil, let old = previous[path],
        FileManager.default.fileExists(atPath: plan.outputs[i].absolutePath)
      {
        // Not rebuilt this time (failed or interrupted): the file on disk is still the old one.
        all[path] = old
      }
    }
    let manifest = Manifest(outputs: Array(all.values))
    let path = (plan.outputRoot as NSString).appendingPathComponent(Manifest.fileName(shard: options.shard))
    do {
      // Outputs were written without an fsync each: flush them all before the manifest says
      // they exist.
      if summary.withLock({ $0.written > 0 }) { try AtomicWriter.syncFileSystem(containing: plan.outputRoot) }
      try AtomicWriter.write(manifest.encoded(), to: path)
      // An unsharded run's manifest lists every output the plan has (and the stale ones):
      // earlier shard manifests are superseded, and removed so that they cannot mislead.
      if (options.shard?.count ?? 1) == 1 { Manifest.removeShardManifests(root: plan.outputRoot) }
      return true
    } catch {
      summary.withLock {
        $0.failures.append(
          .init(output: Manifest.fileName(shard: options.shard), source: "", reason: error.description))
        $0.failed += 1
      }
      return false
    }
  }
}
