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
  }

  /// The run's shared state, or the refusal.
  func openState(selected: [Int]) -> Result<RunState, Refusal> {
    func refusal(_ error: StateError) -> Refusal {
      Refusal(failures: [.init(output: Self.relativeStatePath(error.path), source: "", reason: "\(error)")])
    }
    var snapshot = StateSnapshot()
    if let givenState {
      snapshot = givenState
    } else {
      do throws(StateError) {
        snapshot = try StateSnapshot.load(root: plan.outputRoot, shard: options.shard)
      } catch {
        return .failure(refusal(error))
      }
    }
    let conflicts = OverwriteGuard.conflicts(plan: plan, selected: selected, state: snapshot)
    if !conflicts.isEmpty && !options.overwrite {
      return .failure(
        Refusal(
          failures: conflicts.map {
            .init(
              output: $0.path, source: plan.sources[$0.sourceIndex].path,
              reason: OverwriteGuard.message($0) + " (nothing was written; --overwrite replaces it)")
          }))
    }
    let writer: StateWriter
    do {
      writer = try StateWriter.open(root: plan.outputRoot, shard: options.shard, batchSize: options.stateBatchSize)
    } catch {
      return .failure(refusal(error))
    }
    do {
      let unrecorded = selected.map { plan.outputs[$0].path }.filter { snapshot.outputs[$0] == nil }
      try writer.claim(unrecorded.filter { !snapshot.claims.contains($0) })
    } catch {
      _ = writer.finish()
      return .failure(refusal(error))
    }
    return .success(RunState(check: UpToDateCheck(plan: plan, state: snapshot, force: options.force), writer: writer))
  }

  /// A run that did not start: its failures reported, nothing written.
  func refuse(_ refusal: Refusal, selected: [Int]) -> RunSummary {
    var summary = RunSummary()
    summary.planned = selected.count
    reporter.report(.started(total: selected.count, upToDate: 0))
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
