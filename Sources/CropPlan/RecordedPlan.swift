import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// How one source of one job was planned when its outputs were last made or found up to
/// date, as the state records it (docs/scale.md, "The no-op re-run"): the plan's
/// fingerprint, the outputs (path and key, in plan order), the warnings planning raised,
/// the shrink-on-load and the colour policies of its decodes. A run's first pass that
/// finds the same fingerprint for a source does not plan that source again: its outputs
/// are the recorded ones, checked against the state and the files as planned ones are.
public struct RecordedPlan: Sendable, Equatable {
  /// `PlanFingerprint.fingerprint(base:sourceHash:)` of the plan recorded.
  public var fingerprint: String
  /// The source's outputs in plan order: path (relative to the output root) and key.
  public var outputs: [Output]
  /// The warnings planning raised for the source (job and source left out: the record's).
  public var issues: [Issue]
  /// The shrink-on-load of the source's largest output (`SourceTable.shrinks`).
  public var shrink: Int
  /// The colour policies of the source's outputs, one bit each (`ColourPolicy.allCases`).
  public var colours: UInt8

  public struct Output: Sendable, Equatable {
    public var path: String
    public var key: String

    public init(path: String, key: String) {
      self.path = path
      self.key = key
    }
  }

  public struct Issue: Sendable, Equatable {
    public var kind: PlanIssue.Kind
    public var output: String?
    public var message: String

    public init(kind: PlanIssue.Kind, output: String?, message: String) {
      self.kind = kind
      self.output = output
      self.message = message
    }
  }

  public init(fingerprint: String, outputs: [Output], issues: [Issue], shrink: Int, colours: UInt8) {
    self.fingerprint = fingerprint
    self.outputs = outputs
    self.issues = issues
    self.shrink = shrink
    self.colours = colours
  }

  /// The record's warnings as the planner raises them for `source` of `job`.
  public func planIssues(job: String, source: String) -> [PlanIssue] {
    issues.map {
      PlanIssue(
        severity: .warning, job: job, source: source, output: $0.output, message: $0.message, blocksRun: false,
        kind: $0.kind)
    }
  }

  /// The record's warnings from the planner's `issues` for one source: nil when one of them
  /// is not a warning (such a source is not recorded).
  public static func issues(_ planned: [PlanIssue]) -> [Issue]? {
    var result: [Issue] = []
    for issue in planned {
      guard issue.severity == .warning, !issue.blocksRun else { return nil }
      result.append(Issue(kind: issue.kind, output: issue.output, message: issue.message))
    }
    return result
  }
}

/// A recorded plan as the state gives it to a run's first pass (`SourceHeaderReading.
/// recordedPlans`): the plan, the content hash the state records for the source, and for
/// each of the plan's outputs the size of its file as the state records it, when the state
/// records that output with the plan's key (nil otherwise: the source is planned in full).
public struct RecordedSource: Sendable {
  public var plan: RecordedPlan
  public var sourceHash: String
  public var bytes: [Int?]

  public init(plan: RecordedPlan, sourceHash: String, bytes: [Int?]) {
    self.plan = plan
    self.sourceHash = sourceHash
    self.bytes = bytes
  }
}

/// What recording the plan of one source of one job takes, beside the outputs' keys and the
/// source's hash (known once the outputs are checked or written): a run's windows carry one
/// per source planned in full that can be recorded (`PlanWindow.sourcePlans`).
public struct SourcePlan: Sendable {
  public var job: String
  /// The source's index in the window.
  public var source: Int
  /// `PlanFingerprint.base`.
  public var base: String
  public var shrink: Int
  public var colours: UInt8
  public var issues: [RecordedPlan.Issue]

  /// The record of this plan, given the source's content hash and its outputs.
  public func record(sourceHash: String, outputs: [RecordedPlan.Output]) -> RecordedPlan {
    RecordedPlan(
      fingerprint: PlanFingerprint.fingerprint(base: base, sourceHash: sourceHash), outputs: outputs, issues: issues,
      shrink: shrink, colours: colours)
  }
}

/// The fingerprint of one source's plan in one job: everything that decides its outputs
/// but the pixels. `base(...)` is the text of what the job file and the source's header
/// give (cropjob's and libvips' versions, the job, the source's path as the job sees it and
/// the folder it was found in, its header, its placement after overrides); the fingerprint
/// is the SHA-256 of the base and the source's content hash, so that a changed photo, job,
/// override or crop-table row gives another fingerprint (the source is then planned in
/// full).
public enum PlanFingerprint {
  /// Changes when what planning makes of the same inputs changes (a new placement rule):
  /// every recorded plan is then planned again once.
  static let revision = 1

  /// The text of `job` that bears on each of its outputs (not its sources: the source's
  /// path and folder are in `base`).
  public static func job(_ job: Job, file: JobFile) -> String {
    var text = "job=\(job.name)\nguide=\(PartJSON.guide(job.guide))\nplace=\(PartJSON.place(job.place))"
    for spec in job.outputs {
      let e = spec.encode
      text += "\noutput=\(spec.pathTemplate) \(spec.sizes) \(PartJSON.encode(e.options))"
      text += " \(e.maxBytes.map(String.init) ?? "-") \(e.minQuality) \(e.overBudget.rawValue) \(e.colour.rawValue)"
      text += " \(spec.metadata) frames=\(e.frames.rawValue) placeholders=\(spec.placeholders?.recipe ?? "-")"
    }
    text += "\nlimits=\(file.limits.maxPixels) \(file.limits.maxFileBytes) \(file.limits.maxPages)"
    text += "\ntable=\(file.cropTableSettings)"
    return text
  }

  /// What `job` (its text, `job(_:file:)`) makes of one source, but its content.
  static func base(
    job: String, engine: String, source: String, subdirectory: String, header: SourceHeader, placement: String
  ) -> String {
    "plan \(revision)\ncropjob \(CropKitVersion.string)\nlibvips \(engine)\n\(job)\nsource=\(source)\ndir=\(subdirectory)"
      + "\nheader=\(header.format.rawValue) \(header.storedWidth)x\(header.storedHeight) \(header.orientation)"
      + " \(header.bands) \(header.hasAlpha) \(header.pages)\n\(placement)"
  }

  /// The fingerprint of a plan of `base` over a source whose content hash is `sourceHash`.
  public static func fingerprint(base: String, sourceHash: String) -> String {
    var text = base
    text += "\nsha256="
    text += sourceHash
    return text.withUTF8 { SHA256.hex($0) }
  }
}
