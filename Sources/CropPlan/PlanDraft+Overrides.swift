import CropSpec

extension PlanDraft {
  /// How many overrides without a match a warning names; the rest are counted.
  static let unusedOverridesNamed = 5

  /// Phase 3b: one warning for all the overrides (crop table rows and inline ones) that
  /// match no source of the jobs they apply to — a source no job reads, or one the job they
  /// name does not read — with their count and the first few. `unused`: their indices, found
  /// in one pass over what each job reads (`OverrideIndex.markUsed`): never overrides × sources.
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
        + named.joined(separator: ", ") + more, blocksRun: false)
  }
}
