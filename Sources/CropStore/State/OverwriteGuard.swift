import CropPlan
import Foundation

/// Files in the output root that cropjob did not write: a planned output that would replace
/// one is reported by `plan` and refused by `run` unless `--overwrite` is given. Files the
/// state records or claims as cropjob's are its own; re-runs over them are unaffected. The
/// first pass of `plan` and `run` (`FirstPass`, in CropExecute) finds them.
public enum OverwriteGuard {
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
}
