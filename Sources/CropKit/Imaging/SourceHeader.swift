import CVipsShim

/// Image formats cropjob reads. Anything else is refused before decoding.
public enum InputFormat: String, Sendable, Codable, CaseIterable {
  case jpeg, png, webp, tiff, gif, heif

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

  /// Whether libvips can shrink this format while decoding (by 2, 4 or 8).
  var shrinksOnLoad: Bool { self == .jpeg || self == .webp }
}

/// What the header of a source says, read without decoding pixels.
public struct SourceHeader: Sendable, Hashable, Codable {
  public var format: InputFormat
  /// Size as stored, before EXIF orientation.
  public var storedWidth: Int
  public var storedHeight: Int
  /// EXIF orientation 1...8.
  public var orientation: Int
  public var bands: Int
  public var hasAlpha: Bool
  public var pages: Int

  /// Size after EXIF orientation: the size every geometry works in.
  public var width: Int { orientation >= 5 ? storedHeight : storedWidth }
  public var height: Int { orientation >= 5 ? storedWidth : storedHeight }

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
