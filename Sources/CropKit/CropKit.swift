// CropKit is what library users import: every stage of cropjob, re-exported. Each stage is a
// target of its own (docs/architecture.md); depend on one of them directly to take less.
@_exported import CropExecute
@_exported import CropGeometry
@_exported import CropImaging
@_exported import CropPlan
@_exported import CropPreview
@_exported import CropSpec
@_exported import CropStorage
@_exported import CropStore
@_exported import CropSupport

extension Planner {
  /// A planner that takes the headers of sources unchanged since `state` recorded them from
  /// the state (one `stat` each) and reads the others with libvips (`CachingHeaderReader`).
  package init<Output>(
    limits: InputLimits? = nil, outputRoot: String? = nil, state: StateView<Output>, jpegDecoder: JPEGDecoder = .auto
  ) {
    self.init(
      limits: limits, outputRoot: outputRoot,
      headers: CachingHeaderReader(wrapping: VipsHeaderReader(jpegDecoder: jpegDecoder), sources: state.sources))
  }

  /// A planner that takes the headers of sources unchanged since `state` recorded them from
  /// the state, looked up a window of sources at a time (`CachingHeaderReader`), and reads
  /// the others with libvips.
  package init(
    limits: InputLimits? = nil, outputRoot: String? = nil, state: StateReader, jpegDecoder: JPEGDecoder = .auto
  ) {
    self.init(
      limits: limits, outputRoot: outputRoot,
      headers: CachingHeaderReader(wrapping: VipsHeaderReader(jpegDecoder: jpegDecoder), state: state))
  }
}
