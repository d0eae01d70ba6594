import CropGeometry
import CropSpec
import CropStorage
import Foundation

/// The whole batch, computed before any pixel is decoded: a value that can be printed,
/// compared and sharded.
package struct Plan: Sendable {
  package var jobFile: JobFile
  /// Absolute output root.
  package var outputRoot: String
  /// Every distinct source file, decoded once for all of its outputs.
  package var sources: [PlannedSource]
  /// Every file to write, in a deterministic order (job file order, then source, then output).
  package var outputs: [PlannedOutput]
  /// Problems found while planning (missing sources, collisions, limits, upscaling...).
  package var issues: [PlanIssue]
  /// Version of the library that reads and decodes the sources (libvips): part of every
  /// output's key, so that a new libvips rebuilds what it would write differently.
  package var engineVersion: String

  /// Runnable when no issue is an error that stops the whole plan.
  package var isRunnable: Bool { !issues.contains { $0.severity == .error && $0.blocksRun } }
}

/// A problem found by the planner, naming the job, source or output it concerns.
package struct PlanIssue: Sendable, Hashable, Codable, CustomStringConvertible {
  package var severity: Diagnostic.Severity
  package var job: String?
  package var source: String?
  package var output: String?
  package var message: String
  /// Errors that make the plan unrunnable (collisions); a bad source only fails its outputs.
  package var blocksRun: Bool
  /// What it is about (`PlanIssue.Kind`).
  package var kind: Kind = .other

  package init(
    severity: Diagnostic.Severity, job: String?, source: String?, output: String?, message: String, blocksRun: Bool,
    kind: Kind = .other
  ) {
    self.severity = severity
    self.job = job
    self.source = source
    self.output = output
    self.message = message
    self.blocksRun = blocksRun
    self.kind = kind
  }

  package var description: String {
    let subject = [job.map { "job \($0)" }, source, output.map { "→ \($0)" }].compactMap { $0 }.joined(separator: " ")
    return "\(severity.rawValue): \(subject.isEmpty ? "" : subject + ": ")\(message)"
  }
}

/// A source file and what its header says.
package struct PlannedSource: Sendable {
  /// Path as the job file sees it (relative to the job file's folder, or absolute); for a
  /// source produced by an earlier job (`from:`), its output path relative to the output
  /// root, so that plans and manifests do not depend on where the output root is.
  package var path: String
  /// Absolute, standardised path.
  package var absolutePath: String
  /// nil when the header could not be read, or the file is produced by an earlier job.
  package var header: SourceHeader?
  /// Why the source cannot be used (its outputs fail), if so.
  package var error: String?
  /// The job whose output this file is (for `from:`), if any.
  package var producedBy: String?
  /// Index of the stage (topological level of its jobs) in which it is decoded.
  package var stage: Int
  /// Shrink-on-load factor chosen from its largest output.
  package var loadShrink: Int
  /// The regions stored in its XMP packet (normalised; `StoredRegion.orientedRect(in:)`
  /// places them on the oriented photo), read only when a job that reads it asks for
  /// `regions` (nil: not read).
  package var regions: [StoredRegion]? = nil
  /// When its header was read, the file had the identity the state records (size, mtime,
  /// ctime, inode, device: the header came from the state), and this is the content hash
  /// the state records with it: `run`'s first pass takes it as the file's hash, with no
  /// `stat` and no lookup of its own (`VerdictPass`). nil otherwise.
  package var recordedHash: String? = nil
  /// With `recordedHash`: the file's status then (`SourceFileStatus.stamp`), what the run
  /// checks the file against before it takes that hash.
  package var recordedStamp: UInt64? = nil
  /// A source in object storage: its store, and its key, size and change token as the
  /// listing gave them (nil for a file). Its identity is `SourceFileStatus(object:)`; its
  /// bytes are read through the store, never by path.
  package var object: SourceObject? = nil
}

/// One file to write.
package struct PlannedOutput: Sendable {
  package var job: String
  package var sourceIndex: Int
  /// Index of the output entry in the job, and of the size within it.
  package var entry: Int
  package var sizeIndex: Int
  /// Path relative to the output root, and absolute.
  package var path: String
  package var absolutePath: String
  package var guide: Guide
  package var place: PlaceSpec
  /// Multiple of the guide size this output is written at.
  package var outputScale: Double
  /// Geometry from the header. With a smart focus the centre is found from the pixels at
  /// run time (`smartFocus`); the scale and size here hold all the same.
  package var geometry: PlacementResult
  /// The focus found at run time (a smart strategy, or a search: faces, regions, then a
  /// fallback); nil when the focus is fixed.
  package var smartFocus: FocusSpec?
  /// The regions stored in the source that `focus: regions` uses (filtered by `regions`, in
  /// oriented source pixels, score 1), read at plan time; nil when the focus does not use
  /// regions. When `regions` is the first finder and this is not empty, `geometry` is
  /// already placed about them.
  package var regionBoxes: [FocusBox]? = nil
  /// How the plan's placement treated `regionBoxes` (kept, dropped and why, the padding
  /// used); nil when the plan did not place the photo about them.
  package var regionsPlaced: BoxFocus? = nil
  package var encode: EncodeSpec
  package var metadata: MetadataPolicy
  package var style: RenderStyle
  package var stage: Int
  /// The placeholders computed from the output's pixels and recorded beside it (nil: none).
  package var placeholders: PlaceholderSpec? = nil
  /// The Cache-Control its object is stored with in an object store (`OutputSpec`); not in
  /// the recipe.
  package var cacheControl: String? = nil

  /// Recipe identity: everything but the source's content (see `OutputKey`). Computed when
  /// needed rather than stored: a batch plans millions of outputs, and the text is most of
  /// an output's size.
  package var recipe: String {
    OutputKey.recipe(
      job: job, guide: guide, place: place, outputScale: outputScale, geometry: geometry, encode: encode,
      metadata: metadata, style: style, path: path, placeholders: placeholders)
  }
}

/// One decode: a source in the colour space its outputs ask for (`colour: keep` outputs need
/// the source in its own colour space, the others in sRGB), with the frames they hold. The
/// executor decodes once per key and stage; `cropjob plan` counts the keys.
package struct DecodeKey: Hashable, Comparable, Sendable {
  package var sourceIndex: Int
  package var colour: ColourPolicy
  /// Every frame of an animated source (`frames: all`), or its first.
  package var frames: FramesPolicy = .first

  /// Source by source, sRGB before keep, the first frame before all.
  package static func < (a: DecodeKey, b: DecodeKey) -> Bool {
    let order = { (c: ColourPolicy) in ColourPolicy.allCases.firstIndex(of: c)! }
    let frames = { (f: FramesPolicy) in FramesPolicy.allCases.firstIndex(of: f)! }
    return (a.sourceIndex, order(a.colour), frames(a.frames)) < (b.sourceIndex, order(b.colour), frames(b.frames))
  }
}

extension PlannedOutput {
  /// Whether the crop rectangle is only known at run time: a smart focus or a search
  /// (faces, attention, entropy) without an explicit crop, and not already placed about the
  /// photo's stored regions. `geometry`'s rectangle is then a centred stand-in (its size and
  /// scale hold), which `plan --format json` does not state as fact.
  package var isCropFoundAtRunTime: Bool { smartFocus != nil && place.crop == nil && regionsPlaced == nil }

  /// The decode this output is rendered from.
  package var decodeKey: DecodeKey {
    DecodeKey(sourceIndex: sourceIndex, colour: encode.colour, frames: encode.frames)
  }
}

/// A source in object storage as the listing found it: the store it is in, its key, and
/// its identity (`SourceFileStatus(object:)`: size, last-modified time, the ETag's hash).
/// A class: a plan's sources are copied often, and a file's carries only a nil reference.
package final class SourceObject: Sendable {
  package let store: any ObjectStorage
  package let key: String
  /// Its identity as the state records it.
  package let identity: SourceFileStatus

  package init(store: any ObjectStorage, key: String, identity: SourceFileStatus) {
    self.store = store
    self.key = key
    self.identity = identity
  }

  /// `info` (as a listing or a `stat` gave it) in `store`.
  package convenience init(store: any ObjectStorage, info: ObjectInfo) {
    self.init(store: store, key: info.key, identity: SourceFileStatus(object: info))
  }

  /// Its size in bytes.
  package var size: Int64 { identity.size }

  /// All of its bytes (one GET).
  package func read() throws(StorageError) -> [UInt8] { try store.read(key) }
}
