import CropPlan
import CropStore
import CropSupport
import Foundation

/// How a run starts on its state: read what earlier runs recorded, refuse to replace files
/// cropjob did not write (unless `--overwrite`), open this run's state file and claim the
/// outputs it may write, all before any output is written.
extension Executor {
  /// Why a run did not start: its failures (nothing was written).
  struct Refusal: Error {
    var failures: [RunSummary.Failure]

    init(failures: [RunSummary.Failure]) { self.failures = failures }

    /// A state database that cannot be used.
    init(_ error: StateError) {
      failures = [.init(output: Executor.relativeStatePath(error.path), source: "", reason: "\(error)")]
    }
  }

  /// The run's shared state, or the refusal: files cropjob did not write in the way (unless
  /// `--overwrite`), or a state file that cannot be opened. Claims are made window by window.
  static func openState(_ frame: Frame, options: RunOptions) -> Result<RunState, Refusal> {
    if !frame.conflicts.isEmpty && !options.overwrite {
      return .failure(
        Refusal(
          failures: frame.conflicts.sorted { $0.output.path < $1.output.path }.map {
            RunSummary.Failure(
              output: $0.output.path, source: $0.source,
              reason: OverwriteGuard.message($0.output) + " (nothing was written; --overwrite replaces it)")
          }))
    }
    do throws(StateError) {
      let writer = try StateWriter.open(root: frame.root, shard: options.shard, batchSize: options.stateBatchSize)
      writer.recordRun(ShardCompleteness.RunStatus.running)
      frame.reader.readThrough(writer)
      let list = ManifestList(firstPass: frame.firstPass?.takePaths() ?? StringTable())
      return .success(RunState(reader: frame.reader, writer: writer, root: frame.root, manifest: list))
    } catch {
      return .failure(Refusal(error))
    }
  }

  /// A run that did not start: its failures reported, nothing written.
  func refuse(_ refusal: Refusal, planned: Int) -> RunSummary {
    Self.refuse(refusal, planned: planned, reporter: reporter)
  }

  static func refuse(_ refusal: Refusal, planned: Int, reporter: RunReporter) -> RunSummary {
    var summary = RunSummary()
    summary.planned = planned
    reporter.report(.started(total: planned, upToDate: 0))
    for failure in refusal.failures {
      summary.failed += 1
      summary.failures.append(failure)
      reporter.report(.failed(path: failure.output, source: failure.source, reason: failure.reason))
    }
    reporter.report(.finished(summary))
    return summary
  }

  /// `.cropjob/state….sqlite3` for a state file's absolute path: how failures name it.
  static func relativeStatePath(_ path: String) -> String {
    StateFiles.folderName + "/" + PathText.lastComponent(path)
  }
}
