import CropGeometry
import CropSpec
import Foundation

/// One window of the plan while it is being built: the sources of one job's window, and
/// the outputs and issues the planner adds (`PlanStream` keeps what is global).
struct PlanDraft {
  let file: JobFile
  /// Absolute output root.
  let root: String
  /// The window's sources (`PlanStream` numbers them for the whole plan).
  var sources: [PlannedSource] = []
  /// For each job, its sources and the subfolder each was found in (for `{dir}`).
  var jobSources: [String: [(index: Int, subdirectory: String)]] = [:]
  var outputs: [PlannedOutput] = []
  var issues: [PlanIssue] = []
  let overrides: OverrideIndex

  /// `overrides`: the job file's, indexed once for the whole plan.
  init(file: JobFile, root: String, overrides: OverrideIndex) {
    self.file = file
    self.root = root
    self.overrides = overrides
  }

  /// Records a problem; errors that stop the whole plan are raised by `PathChecks`.
  mutating func issue(
    _ severity: Diagnostic.Severity, job: String?, source: String? = nil, output: String? = nil, _ message: String,
    blocksRun: Bool = false, kind: PlanIssue.Kind = .other
  ) {
    issues.append(
      PlanIssue(
        severity: severity, job: job, source: source, output: output, message: message, blocksRun: blocksRun,
        kind: kind))
  }
}
