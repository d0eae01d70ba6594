import CropGeometry
import CropImaging
import CropSpec
import Foundation

/// One tile of the proof sheet: a job's view of one source, with every output the job
/// writes from it. The first output's geometry is drawn (the others differ only in size).
package struct ProofTile: Sendable {
  package var job: String
  /// Index into `plan.sources`.
  package var sourceIndex: Int
  /// The source as the job file sees it.
  package var sourcePath: String
  /// Indices into `plan.outputs`, in plan order; empty when the source cannot be used.
  package var outputs: [Int]
  /// The plan's warnings and errors for this job and source.
  package var issues: [TileIssue]
}

/// A warning or error shown on a tile, with the outputs it concerns.
package struct TileIssue: Sendable, Hashable {
  package var severity: Diagnostic.Severity
  package var message: String
  /// Output paths (relative to the output root) it concerns; empty for the whole source.
  package var outputs: [String]

  package init(severity: Diagnostic.Severity, message: String, outputs: [String] = []) {
    self.severity = severity
    self.message = message
    self.outputs = outputs
  }

  /// "message (a.png, b.png)".
  package var text: String {
    guard !outputs.isEmpty else { return message }
    let names = outputs.map { ($0 as NSString).lastPathComponent }
    return "\(message) (\(names.joined(separator: ", ")))"
  }
}

/// A drawn tile: the source panel (photo, guide, dimmed outside, markers) and beside it the
/// output panel (the first output rendered for real, at tile size), plus what the caption says.
package struct RenderedTile: Sendable {
  package var tile: ProofTile
  /// Source panel and output panel side by side, `2·tileSize + gap` × `tileSize`.
  package var body: Raster
  /// Oriented source pixels → body pixels (the source panel's view).
  package var sourceToBody: Affine
  /// Where the output panel's image sits in the body (pixels).
  package var outputRect: Rect
  /// The geometry drawn: the first output's, as `run` renders it (smart focus resolved).
  package var geometry: PlacementResult?
  /// The guide outline in body pixels.
  package var outline: GuideOutline?
  /// The focus point asked for (source pixels), for named and `[x, y]` focus.
  package var focusPoint: Point?
  /// The smart-crop point found (source pixels), for smart focus.
  package var smartPoint: Point?
  /// Plan issues plus the preview's own checks (fill outside the photo, smart focus cut off).
  package var issues: [TileIssue]
  /// "256×256 png" for each distinct output size and format.
  package var outputSummary: [String]
  /// How the photo sits under the guide, in the job file's words ("focus: attention",
  /// "crop 220×220 at 130, 20", "zoom 1.4 · rotate 15°").
  package var placement: String
  /// Why nothing could be drawn (unreadable source, failed decode), if so.
  package var failure: String?

  package var hasErrors: Bool { failure != nil || issues.contains { $0.severity == .error } }
}
