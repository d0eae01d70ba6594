internal import CVipsShim
import CropPlan
import CropSpec

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
  /// loader recognises the bytes, or libvips warns while reading the header. A JPEG whose
  /// header libjpeg reads cleanly is read without libvips (`JPEGHeaderReader`), unless
  /// `jpegDecoder` is `.libvips` (then libvips reads every JPEG's header).
  ///
  /// The image is released inside the capture: libvips' JPEG reader reports the libjpeg
  /// warnings a header raised ("Corrupt JPEG data: 5 extraneous bytes before marker 0xdb",
  /// kept in its error buffer meanwhile) only when it is closed, as "read gave 1 warnings"
  /// followed by that buffer. Released after the capture, those reached stderr raw and the
  /// damaged file passed. The read is bracketed by `cj_reading_begin`/`cj_reading_end`, so
  /// that no other thread clears that buffer before the reader has logged it.
  package static func read(path: String, jpegDecoder: JPEGDecoder = .auto) throws(ImagingError) -> SourceHeader {
    if jpegDecoder == .auto, let header = JPEGHeaderReader.read(path: path) { return header }
    Vips.start()
    cj_reading_begin()
    var damaged = true
    defer { cj_reading_end(damaged ? 1 : 0) }
    let (header, warnings) = try SourceOpening.capturingWarnings { () throws(ImagingError) -> SourceHeader in
      let opened = try SourceOpening.open(path: path, headerOnly: true, strictness: .none)
      let (image, format) = (opened.image, opened.format)
      return withExtendedLifetime(image) {
        SourceHeader(
          format: format, storedWidth: image.width, storedHeight: image.height,
          orientation: Int(cj_orientation(image.pointer)), bands: image.bands,
          hasAlpha: image.hasAlpha, pages: Int(cj_pages(image.pointer)))
      }
    }
    damaged = !warnings.isEmpty
    if damaged {
      throw ImagingError(operation: "header", path: path, message: "damaged: \(warnings.joined(separator: "; "))")
    }
    return header
  }
}

/// The planner's header reader: libvips, header only, no pixels decoded.
package struct VipsHeaderReader: SourceHeaderReading {
  /// Which decoder reads JPEG headers (`SourceHeader.read`).
  package var jpegDecoder: JPEGDecoder

  package init(jpegDecoder: JPEGDecoder = .auto) { self.jpegDecoder = jpegDecoder }

  package var engineVersion: String { Vips.version }

  /// libvips starts here, before the planner's threads (its start-up sets and clears
  /// VIPSHOME, cj_start.c, which must not race another thread's getenv), unless
  /// `Vips.prepareLazyStart` made a later start safe: then on the first header read.
  package func start() { Vips.startBeforeThreads() }

  package func header(path: String) throws -> SourceHeader {
    try SourceHeader.read(path: path, jpegDecoder: jpegDecoder)
  }

  /// The regions in the file's XMP packet (libvips' `xmp-data`), header only.
  package func storedRegions(path: String) throws -> XMPRegionParser.Reading {
    guard let packet = try XMPPacket.read(path: path) else { return XMPRegionParser.Reading() }
    return XMPRegionParser.parse(packet)
  }
}

extension Planner {
  /// A planner that reads headers with libvips (`VipsHeaderReader`), as `cropjob` does.
  package init(limits: InputLimits? = nil, outputRoot: String? = nil, jpegDecoder: JPEGDecoder = .auto) {
    self.init(limits: limits, outputRoot: outputRoot, headers: VipsHeaderReader(jpegDecoder: jpegDecoder))
  }
}
