internal import CVipsShim
import CropPlan

extension InputFormat {
  /// Maps a libvips loader class name to the format, or nil when cropjob does not accept it.
  init?(loaderClass: String) {
    let table: [(String, InputFormat)] = [
      ("VipsForeignLoadJpeg", .jpeg), ("VipsForeignLoadPng", .png),
      ("VipsForeignLoadWebp", .webp), ("VipsForeignLoadTiff", .tiff),
      ("VipsForeignLoadGif", .gif), ("VipsForeignLoadNsgif", .gif),
      ("VipsForeignLoadHeif", .heif),
    ]
    guard let match = table.first(where: { loaderClass.hasPrefix($0.0) }) else { return nil }
    self = match.1
  }
}

extension SourceHeader {
  /// Reads the header of `path`. Throws when the path is not a regular file, no accepted
  /// loader recognises the bytes, or libvips warns while reading the header.
  public static func read(path: String) throws(ImagingError) -> SourceHeader {
    let (opened, warnings) = try SourceOpening.capturingWarnings { () throws(ImagingError) in
      try SourceOpening.open(path: path, headerOnly: true, strictness: .none)
    }
    let (image, format) = opened
    if !warnings.isEmpty {
      throw ImagingError(operation: "header", path: path, message: "damaged: \(warnings.joined(separator: "; "))")
    }
    return SourceHeader(
      format: format, storedWidth: image.width, storedHeight: image.height,
      orientation: Int(cj_orientation(image.pointer)), bands: image.bands,
      hasAlpha: image.hasAlpha, pages: Int(cj_pages(image.pointer)))
  }
}

/// The planner's header reader: libvips, header only, no pixels decoded.
public struct VipsHeaderReader: SourceHeaderReading {
  public init() {}

  public var engineVersion: String { Vips.version }

  /// libvips starts here, before the planner's threads: its start-up sets and clears
  /// VIPSHOME (cj_start.c), which must not race another thread's getenv.
  public func start() { Vips.start() }

  public func header(path: String) throws -> SourceHeader { try SourceHeader.read(path: path) }
}
