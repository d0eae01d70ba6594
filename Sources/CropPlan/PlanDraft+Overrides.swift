import CropSpec

extension PlanDraft {
  /// How many overrides without a match a warning names; the rest are counted.
  static let unusedOverridesNamed = 5

  /// Phase 3b: one warning for all the overrides (crop table rows and inline ones) that
  /// match no source of the jobs they apply to — a source no job reads, or one the job they
  /// name does not read — with their count and the first few. `unused`: their indices, found
  /// in one pass over what each job reads (`OverrideIndex.markUsed`): never overrides × sources.
  /// Under the crop table's `on_unmatched_row: error`, its rows that match no source are an
  /// error that stops the run instead, and the warning names the inline overrides only.
  static func unusedOverridesIssues(file: JobFile, unused: [Int]) -> [PlanIssue] {
    guard file.cropTableSettings.onUnmatchedRow == .error else {
      return unusedOverridesWarning(file: file, unused: unused).map { [$0] } ?? []
    }
    let rows = unused.filter { $0 < file.cropTableRows }
    var issues: [PlanIssue] = []
    if var error = unusedOverridesWarning(file: file, unused: rows) {
      error.severity = .error
      error.blocksRun = true
      error.message += " (on_unmatched_row: error)"
      issues.append(error)
    }
    if let warning = unusedOverridesWarning(file: file, unused: unused.filter { $0 >= file.cropTableRows }) {
      issues.append(warning)
    }
    return issues
  }

  static func unusedOverridesWarning(file: JobFile, unused: [Int]) -> PlanIssue? {
    guard !unused.isEmpty else { return nil }
    let named = unused.prefix(Self.unusedOverridesNamed).map { index -> String in
      let o = file.overrides[index]
      let place =
        index < file.cropTableRows
        ? "\(file.cropTable ?? "crop table"):\(o.mark.line)" : "\(file.path):\(o.mark.line):\(o.mark.column)"
      return "\(o.source)\(o.job.map { " for job \($0)" } ?? "") (\(place))"
    }
    let more = unused.count > named.count ? " and \(unused.count - named.count) more" : ""
    let count = unused.count == 1 ? "1 override matches" : "\(unused.count) overrides match"
    let it = unused.count == 1 ? "it applies" : "they apply"
    return PlanIssue(
      severity: .warning, job: nil, source: nil, output: nil,
      message: "\(count) no source of the jobs \(it) to (no job reads the source, or not the job named): "
        + named.joined(separator: ", ") + more, blocksRun: false, kind: .unusedOverride)
  }
}
