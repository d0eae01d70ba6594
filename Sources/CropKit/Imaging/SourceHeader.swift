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

  /// Reads the header of `path`. Throws when no accepted loader recognises the file.
  public static func read(path: String) throws(ImagingError) -> SourceHeader {
    Vips.start()
    guard let loader = cj_find_loader(path) else {
      throw ImagingError(
        operation: "load", path: path,
        message: "not a readable image (\(Vips.takeError().isEmpty ? "unknown format" : "unknown format or unreadable file"))")
    }
    let loaderName = String(cString: loader)
    guard let format = InputFormat(loaderClass: loaderName) else {
      throw ImagingError(
        operation: "load", path: path,
        message:
          "unsupported format (\(loaderName)); cropjob reads \(InputFormat.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    var out: OpaquePointer?
    try Vips.check(cj_load(path, 1, 0, 1, &out), "header", path: path)
    guard let out else { throw ImagingError(operation: "header", path: path, message: "no image") }
    let image = VipsImage(out, path: path)
    return SourceHeader(
      format: format, storedWidth: image.width, storedHeight: image.height,
      orientation: Int(cj_orientation(image.pointer)), bands: image.bands,
      hasAlpha: image.hasAlpha, pages: Int(cj_pages(image.pointer)))
  }
}
