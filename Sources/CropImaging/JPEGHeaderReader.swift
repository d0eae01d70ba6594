internal import CPixels
internal import CVipsShim
import CropPlan

/// The planner's header read for JPEGs without libvips (docs/decoding.md, "Reading JPEG
/// headers"): the file's first bytes through one descriptor, libjpeg's own `jpeg_read_header`
/// over them, the orientation from the EXIF block. It answers only for what it reads exactly as
/// libvips does: 8-bit YCbCr or greyscale JPEGs whose header libjpeg reads without an error or
/// a warning within the first `prefixBytes`, with plain EXIF (`JPEGHeaderInfo.plainOrientation`).
/// Every other file, damaged ones included, is left to libvips, which reads and reports it as
/// before.
package enum JPEGHeaderReader {
  /// How much of the file is read: 16 KiB first (most headers end there), and when the
  /// segments up to the first scan do not fit, 256 KiB (EXIF is at most 64 KiB, XMP and ICC
  /// segments come before the first scan too); a header longer than that goes to libvips.
  static let prefixBytes = [16 << 10, 256 << 10]

  /// libjpeg's J_COLOR_SPACE values for the two colour spaces taken.
  private static let grayscale: Int32 = 1
  private static let yCbCr: Int32 = 3

  /// The header of `path`, or nil when it is not a file this reader takes.
  package static func read(path: String) -> SourceHeader? {
    for limit in prefixBytes {
      var data: UnsafeMutableRawPointer?
      var length = 0
      var fileSize = 0
      let magic: [UInt8] = [0xFF, 0xD8, 0xFF]
      guard cj_read_head(path, limit, magic, magic.count, &data, &length, &fileSize) == 0, let data else {
        return nil
      }
      defer { cj_free(data) }
      if let header = header(UnsafeRawBufferPointer(start: data, count: length)) { return header }
      // Only a header cut short by the limit is worth a longer read.
      if length >= fileSize { return nil }
    }
    return nil
  }

  /// The header in a file's first bytes, or nil.
  static func header(_ bytes: UnsafeRawBufferPointer) -> SourceHeader? {
    guard let data = bytes.baseAddress else { return nil }
    let length = bytes.count
    var width: Int32 = 0
    var height: Int32 = 0
    var components: Int32 = 0
    var colourSpace: Int32 = 0
    var precision: Int32 = 0
    guard cj_jpeg_header_facts(data, length, &width, &height, &components, &colourSpace, &precision) == 0,
      precision == 8, (components == 3 && colourSpace == yCbCr) || (components == 1 && colourSpace == grayscale),
      let info = JPEGHeaderInfo(bytes),
      info.components == Int(components), let orientation = info.plainOrientation
    else { return nil }
    return SourceHeader(
      format: .jpeg, storedWidth: Int(width), storedHeight: Int(height), orientation: orientation,
      bands: Int(components), hasAlpha: false, pages: 1)
  }
}
