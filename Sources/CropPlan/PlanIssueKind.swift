import CropGeometry

extension PlanIssue {
  /// What a plan issue is about, as a stable word for machines (`run --json`'s `warning`
  /// events, `plan --format json`'s issues); the message is for people.
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An output larger than its source allows (`upscaling: …`, `upscale is off: …`).
    case upscale
    /// The photo does not cover the output; the background shows.
    case guideNotCovered = "guide-not-covered"
    case cropAspect = "crop-aspect"
    case cropOutsidePhoto = "crop-outside-photo"
    /// The output was trimmed to the photo's footprint.
    case trimmed
    /// The output was made smaller to meet `max_bytes`.
    case budgetShrink = "budget-shrink"
    /// Even the highest quality allowed did not reach `encode.target`.
    case qualityTarget = "quality-target"
    /// Boxes a focus finder found that do not fit the guide, or are cut off by it.
    case focusBoxes = "focus-boxes"
    /// The focus point is cut off by the guide, or a focus setting has no effect.
    case focus
    /// A `sources` pattern matches no file (others of the job do).
    case noMatch = "no-match"
    /// A job whose sources match no file (an error unless `allow_empty: true`).
    case emptyJob = "empty-job"
    /// An override that applies to no source of the jobs.
    case unusedOverride = "unused-override"
    /// An inline override that replaces a crop table row's crop (it sets zoom, focus...).
    case cropReplaced = "crop-replaced"
    /// The regions stored in a photo's XMP could not be read or used.
    case regions
    /// A source that cannot be used (unreadable, over a limit, an invalid placement).
    case source
    /// An output that cannot be written (a path collision, outside the output root...).
    case output
    case other
  }
}

extension PlacementNote {
  /// The issue kind of this note.
  var issueKind: PlanIssue.Kind {
    switch self {
    case .upscaleCapped, .upscaling: return .upscale
    case .guideNotCovered: return .guideNotCovered
    case .cropAspectMismatch: return .cropAspect
    case .cropOutsidePhoto: return .cropOutsidePhoto
    case .shrunkToFootprint: return .trimmed
    case .downsizedToBudget: return .budgetShrink
    case .qualityTargetNotReached: return .qualityTarget
    case .focusBoxesDoNotFit, .facePaddingReduced, .focusBoxCutOff: return .focusBoxes
    }
  }
}
