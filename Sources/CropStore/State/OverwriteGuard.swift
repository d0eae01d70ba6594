import CropPlan
import Foundation

/// Files in the output root that cropjob did not write: a planned output that would replace
/// one is reported by `plan` and refused by `run` unless `--overwrite` is given. Files the
/// state records or claims as cropjob's are its own; re-runs over them are unaffected.
public enum OverwriteGuard {
  /// The planned outputs among `selected` whose path holds a file the state does not record
  /// as cropjob's, sorted by path.
  public static func conflicts<Output>(plan: Plan, selected: [Int], state: StateView<Output>) -> [PlannedOutput] {
    // Indices first: copying every planned output to filter them doubled a batch's plan.
    selected.filter { i in
      !state.isOwn(plan.outputs[i].path) && FileIdentity.of(path: plan.outputs[i].absolutePath) != nil
    }.map { plan.outputs[$0] }.sorted { $0.path < $1.path }
  }

  /// The line that reports one conflict.
  public static func message(_ output: PlannedOutput) -> String {
    "would overwrite a file cropjob did not write: \(output.absolutePath)"
  }

  /// A planned output in the way of a file cropjob did not write, and its source's path.
  public struct Conflict: Sendable {
    public var output: PlannedOutput
    public var source: String

    public init(output: PlannedOutput, source: String) {
      self.output = output
      self.source = source
    }
  }

  /// The conflicts of a `PlanStream`, found window by window in its first pass: pass
  /// `inspect` as `PlanStream.make`'s `inspect`. Only the outputs whose file exists are
  /// looked up in the state (a first run looks up none).
  public final class Collector {
    let state: StateReader
    let countsUpToDate: Bool
    private var found: [Conflict] = []
    /// Per job, how many of its selected outputs are up to date (`UpToDateCheck`), when
    /// asked to count them: `plan` (text) needs no second pass for its counts.
    public private(set) var upToDate: [String: Int] = [:]

    /// `countingUpToDate`: also count each window's up-to-date outputs (one state lookup
    /// serves both).
    public init(state: StateReader, countingUpToDate: Bool = false) {
      self.state = state
      countsUpToDate = countingUpToDate
    }

    public func inspect(_ window: PlanWindow) {
      let present = window.selected.filter { window.outputFile($0) != nil }
      guard !present.isEmpty else { return }
      let known = state.readKeeping(
        .keys,
        countsUpToDate
          ? StateQuery(plan: window.plan, selected: window.selected)
          : StateQuery(outputs: present.map { window.plan.outputs[$0].path }))
      for i in present where !known.isOwn(window.plan.outputs[i].path) {
        let output = window.plan.outputs[i]
        found.append(Conflict(output: output, source: window.plan.sources[output.sourceIndex].path))
      }
      if countsUpToDate {
        let done = UpToDateCheck(plan: window.plan, state: known).upToDatePaths(window.selected).count
        upToDate[window.job, default: 0] += done
      }
    }

    /// Every conflict, sorted by path.
    public var conflicts: [Conflict] { found.sorted { $0.output.path < $1.output.path } }
  }
}
