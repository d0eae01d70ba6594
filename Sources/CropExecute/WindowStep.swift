import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import CropStorage
import CropStore
import CropSupport
import Foundation

/// One window of a run (`Run`), as the decide room judged it (`WindowVerdicts`): its outputs
/// claimed in the state, then decoded and written stage by stage, one decode task per source
/// and colour policy on the run's workers; what its up-to-date and unreached outputs were is
/// kept for the manifest. The state is not read for it: the verdicts say what is up to date,
/// recorded and claimed.
struct WindowStep: Sendable {
  let run: Run
  let plan: Plan
  let selected: [Int]
  /// The decide room's verdicts on the window's outputs.
  let verdicts: WindowVerdicts
  /// Outputs of the window found up to date (indices in its plan): their entries are the
  /// state's, looked up only if the manifest is written.
  let upToDate = LockedBox([Int]())
  /// Outputs of the window that failed this run (paths).
  let failedPaths = LockedBox(Set<String>())

  /// One decode task: a source and the outputs it feeds in one stage with one colour
  /// policy (see `DecodeKey`).
  struct Task: Sendable {
    var source: Int
    var colour: ColourPolicy
    var frames: FramesPolicy
    var outputs: [Int]
  }

  /// Runs `window` in `run`; `folders` are the output folders whose stale temporary files
  /// the run has already removed.
  static func run(_ window: PlanWindow, verdicts: WindowVerdicts, in run: Run, folders: inout Set<String>) {
    let plan = window.plan
    let selected = window.selected
    let step = WindowStep(run: run, plan: plan, selected: selected, verdicts: verdicts)
    let claims = verdicts.toClaim(selected).map { plan.outputs[$0].path }
    do throws(StateError) {
      try run.writer.claim(claims)
    } catch {
      // What this window writes could not be claimed: the run stops here.
      run.stopped.withLock { $0 = true }
      run.recordFailure(error)
      return
    }
    // An object store's state is put back with the claims before any of them is written: a
    // worker killed in this window leaves keys the next one knows as cropjob's.
    if let upload = run.upload, !claims.isEmpty, !upload.put() {
      run.stopped.withLock { $0 = true }
      run.recordFailure(
        output: StateFiles.folderName, source: "",
        reason: "cannot put the state in \(run.outputs.displayName(StateFiles.folderName)): \(upload.lastError ?? "")")
      return
    }
    for folder in plan.outputFolders(selected) where folders.insert(folder).inserted {
      AtomicWriter.removeStaleTemporaries(in: folder)
    }
    let writtenBefore = run.manifest.withLock { $0.writtenCount }
    let stages = Set(selected.map { plan.outputs[$0].stage }).sorted()
    for stage in stages where !run.shouldStop {
      var byDecode: [DecodeKey: [Int]] = [:]
      for i in selected where plan.outputs[i].stage == stage {
        byDecode[plan.outputs[i].decodeKey, default: []].append(i)
      }
      let tasks = byDecode.keys.sorted().map {
        Task(source: $0.sourceIndex, colour: $0.colour, frames: $0.frames, outputs: byDecode[$0]!)
      }
      let budget = PixelBudget(limit: run.options.maxPixelsInFlight)
      // The sources in object storage the tasks will read, fetched ahead in task order.
      let fetches = tasks.compactMap { task -> (source: Int, object: SourceObject)? in
        let source = plan.sources[task.source]
        guard let object = source.object, source.error == nil, source.header != nil,
          verdicts.mayReadSource(task.outputs, plan: plan)
        else { return nil }
        return (task.source, object)
      }
      let jobs = run.options.jobs
      let prefetch = ObjectPrefetch(
        order: fetches, maxAhead: ObjectPrefetch.maxAhead(jobs: jobs), fetchers: ObjectPrefetch.fetchers(jobs: jobs))
      WorkerPool.run(
        tasks, workers: run.options.jobs, stop: { run.shouldStop },
        body: { task in step.perform(task, budget: budget, prefetch: prefetch) })
      prefetch.stop()
      // The stage's outputs are all put (or failed) before the next stage or the manifest.
      run.uploads?.drain()
    }
    step.gatherManifestEntries(writtenBefore: writtenBefore)
  }

  /// A planned output that could not be made.
  func fail(_ index: Int, _ reason: String, sourceFailed: Bool = false) {
    let output = plan.outputs[index]
    let source = plan.sources[output.sourceIndex].path
    failedPaths.withLock { _ = $0.insert(output.path) }
    run.recordFailure(
      output: output.path, source: source, reason: reason,
      error: sourceFailed ? .source(path: source, message: reason) : nil)
  }

  /// Decodes one source (unless all of the task's outputs are up to date: settled by the
  /// window's verdicts against the source as it is now) and writes each of its outputs.
  func perform(_ task: Task, budget: PixelBudget, prefetch: ObjectPrefetch) {
    let source = plan.sources[task.source]
    // A source in object storage is fetched at most once for the task (hash and decode);
    // bytes fetched ahead for a task that turns out to need none are dropped at its end.
    var contents: [UInt8]? = nil
    defer { if source.object != nil && contents == nil { prefetch.discard(task.source) } }
    func read() throws -> [UInt8] {
      if let contents { return contents }
      guard let object = source.object else { return [] }
      let bytes = try prefetch.bytes(of: task.source, object)
      contents = bytes
      return bytes
    }
    func failAll(_ outputs: [Int], _ reason: String) {
      for i in outputs { fail(i, reason, sourceFailed: true) }
    }
    if let error = source.error { return failAll(task.outputs, error) }
    guard let header = source.header else { return failAll(task.outputs, "no header") }
    let settled: WindowVerdicts.Settled
    do {
      if let upstream = source.producedBy, !FileManager.default.fileExists(atPath: source.absolutePath) {
        return failAll(task.outputs, "its source was not produced: job \(upstream) failed to write \(source.path)")
      }
      settled = try verdicts.settle(task.outputs, plan: plan, read: read)
      if let sourceState = settled.source, sourceState.hashed && source.producedBy == nil {
        recordSource(source, sourceState, contents: contents)
      }
    } catch {
      return failAll(
        task.outputs,
        "cannot read the source: \(error is AtomicWriter.WriteError ? "\(error)" : AtomicWriter.reason(error))")
    }
    let upToDate = settled.upToDate
    for i in upToDate { run.reporter.report(.skipped(path: plan.outputs[i].path)) }
    let pending = settled.toBuild
    if !upToDate.isEmpty {
      // One lock per source, not per output.
      self.upToDate.withLock { $0 += upToDate }
      run.summary.withLock { $0.upToDate += upToDate.count }
    }
    guard !pending.isEmpty, !run.options.cancellation.isCancelled, let record = settled.source?.record else { return }
    // `frames: all` holds every frame, unshrunk (DecodedSource.decodeFrames).
    let pixels =
      task.frames == .all
      ? header.width * header.height * header.pages
      : header.width * header.height / max(1, source.loadShrink * source.loadShrink)
    budget.acquire(pixels)
    defer { budget.release(pixels) }
    // The wait for the budget can be long: do not start a decode after an interrupt.
    guard !run.options.cancellation.isCancelled else { return }
    let decoded: DecodedSource
    do {
      let bytes = source.object == nil ? nil : try read()
      decoded = try DecodedSource.decode(
        path: source.absolutePath, header: header, shrink: source.loadShrink, strictness: run.options.strictness,
        colour: task.colour, jpegDecoder: run.options.jpegDecoder, frames: task.frames, contents: bytes)
    } catch let error as ImagingError {
      return failAll(pending.map(\.0), error.description)
    } catch {
      return failAll(pending.map(\.0), "cannot read the source: \(error)")
    }
    run.summary.withLock { $0.decodes += 1 }
    run.reporter.report(.decoded(source: source.path))
    for (i, key) in pending {
      if run.options.cancellation.isCancelled { return }
      write(i, key: key, from: decoded, record: record)
    }
  }

  /// Renders, encodes and writes one output, and records it.
  private func write(
    _ index: Int, key: String, from decoded: DecodedSource, record: Manifest.SourceRecord
  ) {
    let output = plan.outputs[index]
    do {
      // Smart focus is resolved from the pixels (shared with `preview`: RunGeometry.swift).
      let found = try output.runGeometry(decoded: decoded)
      let planned = found.geometry
      let encoded = try OutputEncoder.produce(
        decoded, geometry: planned, style: output.style, encode: output.encode, metadata: output.metadata,
        jpegEncoder: run.options.jpegEncoder, placeholders: output.placeholders)
      let geometry = encoded.geometry
      if let problem = run.escapes.withLock({ $0.problem(output.absolutePath) }) {
        throw AtomicWriter.WriteError(path: output.absolutePath, message: problem)
      }
      let entry = Manifest.Entry(
        path: output.path, job: output.job, key: key, bytes: encoded.bytes.count, width: geometry.outputSize.width,
        height: geometry.outputSize.height, sha256: SHA256.hex(encoded.bytes),
        format: output.encode.options.format.rawValue, quality: encoded.quality, encodes: encoded.encodes,
        source: record, geometry: Manifest.GeometryRecord(geometry, output: output, found: found.found),
        placeholders: encoded.placeholders, ssim: encoded.ssim, frames: encoded.frames)
      let options = WriteOptions(
        contentType: OutputStore.contentType(format: output.encode.options.format.rawValue),
        cacheControl: output.cacheControl, overwrite: overwrite(index), durable: false)
      let bytes = encoded.bytes
      let put: @Sendable () throws(StorageError) -> Void = {
        let written = try run.outputs.write(bytes, to: output.path, options: options)
        run.manifest.withLock { $0.addWritten(output.path) }
        run.writer.record(entry, etag: written.etag)
        run.summary.withLock {
          $0.written += 1
          $0.encodes += entry.encodes
        }
        run.reporter.report(
          .wrote(path: output.path, bytes: bytes.count, quality: entry.quality, encodes: entry.encodes))
      }
      guard let uploads = run.uploads else { return try put() }
      // An object store: the PUT overlaps the next encodes (`OutputUploads`, bounded).
      uploads.submit(bytes: bytes.count) {
        do throws(StorageError) { try put() } catch { fail(index, "\(error)") }
      }
    } catch {
      fail(index, "\(error)")
    }
  }

  /// What writing output `index` may replace: anything with `--overwrite`; the object
  /// cropjob last wrote there when the state has its ETag (an object store); whatever is
  /// there when the state records or claims the output as cropjob's (a file: the first pass
  /// found nothing else there); else nothing (a new output: a file or object that appeared
  /// since the first pass is not replaced).
  private func overwrite(_ index: Int) -> Overwrite {
    if run.options.overwrite { return .always }
    if let etag = run.etags[plan.outputs[index].path] {
      return .ifUnchanged(.object(etag: etag, size: 0, lastModified: "", versionID: nil))
    }
    return verdicts.isRecorded(index) || verdicts.isClaimed(index) ? .always : .never
  }

  /// Records a source just hashed, with its header read again now: the plan's header may be
  /// of another version of the file (changed after planning), and the state must never pair
  /// a header with an identity it was not read under. Not recorded when the file changed
  /// while it was hashed or read (its identity differs afterwards).
  /// A source in object storage is recorded with its header read from the bytes that were
  /// hashed (`contents`), under the identity of the listing's change token.
  private func recordSource(_ source: PlannedSource, _ sourceState: UpToDateCheck.SourceState, contents: [UInt8]?) {
    let header: SourceHeader?
    if let contents, source.object != nil {
      header = try? SourceHeader.read(
        bytes: contents, location: source.absolutePath, complete: true, jpegDecoder: run.options.jpegDecoder)
    } else {
      header = try? SourceHeader.read(path: source.absolutePath, jpegDecoder: run.options.jpegDecoder)
    }
    guard let header, source.currentIdentity == sourceState.identity else { return }
    run.writer.recordSource(
      path: source.absolutePath,
      facts: SourceFacts(identity: sourceState.identity, sha256: sourceState.record.sha256, header: header))
  }
}
