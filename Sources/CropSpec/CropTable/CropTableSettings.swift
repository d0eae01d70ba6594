import CropGeometry

/// How a crop table is read and what its rows demand (`overrides_from` as a mapping; the
/// path alone takes every default).
package struct CropTableSettings: Sendable, Hashable {
  /// What a row with a problem does.
  package enum OnError: String, Sendable, Hashable, CaseIterable {
    /// The job file is invalid: nothing runs (the default).
    case failJob = "fail-job"
    /// The row's problems are warnings and the row's source fails (for the job the row names,
    /// or every job); other sources run.
    case failRow = "fail-row"
  }

  /// What a row that matches no source of the jobs it applies to does.
  package enum OnUnmatchedRow: String, Sendable, Hashable, CaseIterable {
    /// One warning names them (the default).
    case warn
    /// An error that stops the run (the table and the photos disagree).
    case error
  }

  /// The frame the rows' crops are in (`upright`: cropjob's own).
  package var frame: CropFrame = .upright
  /// For `frame: cropperjs`: whether Cropper.js ran with `checkOrientation` (its default),
  /// which folds a JPEG's EXIF orientation into `rotate`, `scaleX` and `scaleY`.
  package var checkOrientation = true
  /// What `x, y, width, height` count in.
  package var units: CropUnits = .pixels
  package var onError: OnError = .failJob
  /// Whether a source that a job reads (from `sources`) fails without a row for it.
  package var requireCrop = false
  package var onUnmatchedRow: OnUnmatchedRow = .warn

  package init() {}

  /// Whether rows are crops in cropjob's own frame and pixels, as the fast decoder reads them.
  var isPlain: Bool { frame == .upright && units == .pixels }

  /// The EXIF orientation Cropper.js folded into a row's numbers, for a source of `format`
  /// (it reads the orientation of JPEGs only) with `orientation`; 1 for none.
  package func foldedOrientation(isJPEG: Bool, orientation: Int) -> Int {
    frame == .cropperjs && checkOrientation && isJPEG ? orientation : 1
  }
}
