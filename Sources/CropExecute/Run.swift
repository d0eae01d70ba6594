import CropPlan
import CropStorage
import CropStore
import CropSupport
import Foundation

/// One run, shared by its windows and their workers: where it writes, its options and
/// reporter, the state it reads and the one it writes, what the manifest will list, the
/// summary, and whether it must stop. Opened before any output is written (`open`); each
/// window is a `WindowStep` of it.
final class Run: Sendable {
  let root: String
  /// Where outputs, manifest and index files are written (`root` is its local folder).
  let outputs: OutputStore
  /// The ETag each output had when cropjob last wrote it to an object store: the guard of
  /// its next write (`Overwrite.ifUnchanged`). Empty for files.
  let etags: [String: String]
  /// For an object store: the state kept in the output prefix, put back every
  /// `RunOptions.stateUploadInterval` and at the end (`StateUpload`).
  let upload: StateUpload?
  /// For a store whose writes are requests: the PUTs of encoded outputs, made while the
  /// workers encode the next ones (`OutputUploads`).
  let uploads: OutputUploads?
  let engineVersion: String
  let options: RunOptions
  let reporter: RunReporter
  /// What earlier runs recorded, read a window at a time.
  let reader: StateReader
  let writer: StateWriter
  /// The outputs the manifest will list (`ManifestList`: hashes and paths, not entries).
  let manifest: LockedBox<ManifestList>
  /// Recorded outputs this run found pruned or gone: forgotten by the state at the end.
  let forgotten = LockedBox([String]())
  let summary = LockedBox(RunSummary())
  /// Set when the state could not claim a window's outputs.
  let stopped = LockedBox(false)
  /// The check that keeps each output inside the root just before it is written, with the
  /// root normalised once and each folder resolved once (`EscapeCheck`): per output, a
  /// lexical split and one `lstat` of the name in its folder, no Foundation path
  /// normalisation (issue 25).
  let escapes: LockedBox<EscapeCheck>
  /// The delivery index files the run writes at its end (`IndexStep`).
  let indexFiles: [IndexFile]
  /// Recorded outputs of sources the plan could not use, kept from the last good run: the
  /// indexes list them too, as the manifest does.
  let keptForIndex = LockedBox([Manifest.Entry]())
  /// The windows the first pass found all up to date: number → their outputs' places in the
  /// manifest list's first-pass paths (`VerdictPass.upToDate`).
  let upToDateWindows: [Int: Range<Int>]

  private init(
    root: String, outputs: OutputStore, etags: [String: String], upload: StateUpload?, engineVersion: String,
    options: RunOptions, reporter: RunReporter, reader: StateReader, writer: StateWriter, manifest: ManifestList,
    upToDateWindows: [Int: Range<Int>], indexFiles: [IndexFile]
  ) {
    self.outputs = outputs
    self.etags = etags
    self.upload = upload
    uploads =
      outputs.isListed
      ? OutputUploads(maxBytes: options.maxUploadBytesInFlight, uploaders: options.uploaders) : nil
    self.upToDateWindows = upToDateWindows
    self.indexFiles = indexFiles
    self.root = root
    self.engineVersion = engineVersion
    self.options = options
    self.reporter = reporter
    self.reader = reader
    self.writer = writer
    self.manifest = LockedBox(manifest)
    escapes = LockedBox(EscapeCheck(root: root))
  }

  /// The run of `workload`, or its refusal: a state file that cannot be opened for writing
  /// (files in the way were refused by `JobPlan`, before); for an object store, a state that
  /// cannot be put in the output prefix (no permission to write there: nothing is written).
  /// Claims are made window by window.
  static func open(_ workload: RunWorkload, options: RunOptions, reporter: RunReporter) -> Result<Run, RunRefusal> {
    let stream = workload.stream
    let indexFiles = IndexFile.planned(stream).files
    let writer: StateWriter
    let etags: [String: String]
    do throws(StateError) {
      writer = try StateWriter.open(
        root: stream.outputRoot, shard: options.shard, batchSize: options.stateBatchSize)
      writer.recordRun(ShardCompleteness.RunStatus.running)
      workload.verdicts.state.readThrough(writer)
      etags = try workload.verdicts.state.recordedETags()
    } catch {
      return .failure(.state(error))
    }
    var upload: StateUpload?
    if workload.outputs.isListed {
      let sync = StateSync(outputs: workload.outputs, shard: options.shard)
      // A run with something to build puts the state in the prefix first: a store that
      // cannot take it refuses the run before any output is written, and the prefix says a
      // run is under way. A run whose windows are all up to date (a no-op) puts it only if
      // it changes (`StateUpload`).
      let first = workload.verdicts.hasWork
      if first {
        do throws(StorageError) {
          try sync.push(writer)
        } catch {
          _ = writer.finish()
          return .failure(.storage(error))
        }
      }
      upload = StateUpload(sync: sync, writer: writer, interval: options.stateUploadInterval, putWhenOpened: first)
    }
    return .success(
      Run(
        root: stream.outputRoot, outputs: workload.outputs, etags: etags, upload: upload,
        engineVersion: stream.engineVersion, options: options, reporter: reporter, reader: workload.verdicts.state,
        writer: writer, manifest: ManifestList(firstPass: workload.verdicts.takePaths()),
        upToDateWindows: workload.verdicts.upToDate, indexFiles: indexFiles))
  }

  /// A window the first pass found all up to date, reached by the run: its outputs
  /// reported and counted as up to date and listed in the manifest, as for such outputs of
  /// the other windows.
  func countUpToDate(window number: Int) {
    guard let range = upToDateWindows[number] else { return }
    let paths = manifest.withLock { list in
      list.reach(upTo: range.upperBound)
      return range.map { list.earlierPath(Int32($0)) }
    }
    for path in paths { reporter.report(.skipped(path: path)) }
    summary.withLock { $0.upToDate += range.count }
  }

  /// Interrupted, `--fail-fast` after a failure, or the state can no longer record outputs.
  var shouldStop: Bool {
    options.cancellation.isCancelled || (options.failFast && summary.withLock { $0.failed > 0 })
      || writer.failed || stopped.withLock { $0 }
  }

  /// Records a failure of `output` (made from `source`) in the summary and reports it.
  func recordFailure(output: String, source: String, reason: String, error: CropError? = nil) {
    summary.withLock {
      $0.failed += 1
      $0.failures.append(.init(output: output, source: source, reason: reason, error: error))
    }
    reporter.report(.failed(path: output, source: source, reason: reason))
  }

  /// A failure of the state database itself, named by its file.
  func recordFailure(_ error: StateError) {
    let failure = Self.statusFailure(error)
    recordFailure(output: failure.output, source: failure.source, reason: failure.reason, error: failure.error)
  }

  static func statusFailure(_ error: StateError) -> RunSummary.Failure {
    .init(
      output: StateFiles.folderName + "/" + PathText.lastComponent(error.path), source: "", reason: "\(error)",
      error: .state(file: error.path, message: error.description))
  }

  /// Sources the planner could not use (unreadable, over a limit, invalid placement) have
  /// no output steps; they are failures of this run all the same, so that the summary names
  /// them and the exit code says so. `roots`: for each issue (index) that names a source,
  /// the file its chain starts from, what shards are chosen by.
  func reportPlanFailures(_ issues: PlanIssueList, roots: [Int: String]) {
    for (index, issue) in issues.enumerated() where issue.severity == .error && !issue.blocksRun {
      let source = issue.source ?? ""
      // A job-level problem (no sources) belongs to shard 0 only, so shards report it once.
      let owned =
        issue.source == nil
        ? (options.shard?.index ?? 0) == 0 : options.shard?.contains(roots[index] ?? source) ?? true
      guard owned else { continue }
      let output = issue.output ?? "(outputs of job \(issue.job ?? "?"))"
      let error: CropError =
        issue.source == nil
        ? .plan(job: issue.job, output: issue.output, source: nil, message: issue.message)
        : .source(path: source, message: issue.message)
      recordFailure(output: output, source: source, reason: issue.message, error: error)
    }
  }

  /// The end of the run: the state forgets what is gone and commits, the manifest is
  /// written, the run's status recorded; the summary is reported and returned.
  func finish() -> RunSummary {
    writer.remove(forgotten.withLock { $0 })
    if let error = writer.commitPending() { recordFailure(error) }
    commitManifest()
    var result = summary.withLock { $0 }
    writer.recordRun(
      result.interrupted
        ? ShardCompleteness.RunStatus.interrupted
        : result.failed > 0 ? ShardCompleteness.RunStatus.failed(result.failed) : ShardCompleteness.RunStatus.complete)
    if let upload, !upload.finish() {
      recordFailure(
        output: StateFiles.folderName, source: "",
        reason: "cannot put the state in \(outputs.displayName(StateFiles.folderName)): \(upload.lastError ?? "")")
      result = summary.withLock { $0 }
    }
    let committed = writer.finish() == nil
    // The indexes read the state as this run left it, once its file is closed.
    if !indexFiles.isEmpty && committed && !result.interrupted && !options.cancellation.isCancelled {
      writeIndexes()
      result = summary.withLock { $0 }
    }
    reporter.report(.finished(result))
    return result
  }
}
