internal import CVipsShim
import CropPlan

extension SourceHeader {
  /// The header of a source in object storage from its first bytes (`complete`: all of
  /// them), read as `read(path:)` reads a file's: JPEG by `JPEGHeaderReader` when it takes
  /// it, else libvips header-only. JPEG and PNG headers are at the start of the file; a GIF's
  /// page count, a WebP's frames and TIFF and HEIF layouts may need the whole file, so for
  /// those (and for a JPEG or PNG cut short) nil asks for all of the bytes.
  package static func read(
    bytes: [UInt8], location: String, complete: Bool, jpegDecoder: JPEGDecoder = .auto
  ) throws(ImagingError) -> SourceHeader? {
    if jpegDecoder == .auto, let header = bytes.withUnsafeBytes({ JPEGHeaderReader.header($0) }) { return header }
    let startsWholeHeader =
      bytes.starts(with: [0xFF, 0xD8, 0xFF]) || bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    guard complete || startsWholeHeader else { return nil }
    Vips.start()
    cj_reading_begin()
    var damaged = true
    defer { cj_reading_end(damaged ? 1 : 0) }
    let result: (value: SourceHeader, warnings: [String])
    do {
      result = try SourceOpening.capturingWarnings { () throws(ImagingError) -> SourceHeader in
        let memory = FileBytes(copying: bytes)
        var out: OpaquePointer?
        var index: Int32 = -1
        let status = cj_open_bytes_header(
          memory.take(), bytes.count, DecodeStrictness.none.rawValue, &index, &out)
        guard status == 0, let out, let format = InputFormat(loaderIndex: Int(index)) else {
          if status == -3 {
            let kind = SourceOpening.sniff(Array(bytes.prefix(512))).map { "unsupported format (\($0))" }
            throw ImagingError(operation: "header", path: location, message: kind ?? "not an image cropjob reads")
          }
          throw ImagingError(operation: "header", path: location, message: SourceOpening.explained(Vips.takeError()))
        }
        let image = VipsImage(out, path: location)
        return withExtendedLifetime(image) {
          SourceHeader(
            format: format, storedWidth: image.width, storedHeight: image.height,
            orientation: Int(cj_orientation(image.pointer)), bands: image.bands,
            hasAlpha: image.hasAlpha, pages: Int(cj_pages(image.pointer)))
        }
      }
    } catch {
      if complete { throw error }
      return nil
    }
    damaged = !result.warnings.isEmpty
    if damaged {
      if !complete { return nil }
      throw ImagingError(
        operation: "header", path: location, message: "damaged: \(result.warnings.joined(separator: "; "))")
    }
    return result.value
  }
}

extension VipsHeaderReader {
  package func header(bytes: [UInt8], location: String, complete: Bool) throws -> SourceHeader? {
    try SourceHeader.read(bytes: bytes, location: location, complete: complete, jpegDecoder: jpegDecoder)
  }
}
