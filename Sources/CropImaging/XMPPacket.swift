internal import CVipsShim
import CropPlan

/// The XMP packet of a source, as libvips' loaders find it (`xmp-data`: JPEG APP1, PNG
/// iTXt, WebP XMP chunk, TIFF tag 700, HEIF item).
package enum XMPPacket {
  /// The packet's bytes, or nil when the file has none. Opens the header only; libvips'
  /// warnings while doing so are dropped here (the planner's header read reports them).
  package static func read(path: String) throws(ImagingError) -> [UInt8]? {
    let image = try SourceOpening.open(path: path, headerOnly: true, strictness: .none).image
    return withExtendedLifetime(image) { () -> [UInt8]? in
      var data: UnsafeRawPointer? = nil
      var length = 0
      guard cj_xmp(image.pointer, &data, &length) == 0, let data, length > 0 else { return nil }
      return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
  }
}
