internal import CPixels
internal import CTurboJPEG
internal import CVipsShim
import CropPlan
import CropSpec
import Foundation

/// Which decoder reads JPEG sources (docs/decoding.md).
/// A run's choice (`RunOptions.jpegDecoder`, `VipsHeaderReader.jpegDecoder`; `cropjob run
/// --jpeg-decoder`).
public enum JPEGDecoder: String, Sendable, CaseIterable {
  /// libjpeg-turbo directly for the JPEGs it gives the same pixels for, libvips for the rest.
  case auto
  /// libvips for every JPEG (the reference path, for comparisons).
  case libvips
}

/// A file's bytes, read through one descriptor (cj_read_file), in a buffer libvips can take over.
final class FileBytes: @unchecked Sendable {
  private(set) var pointer: UnsafeMutableRawPointer?
  let count: Int

  private init(pointer: UnsafeMutableRawPointer, count: Int) {
    self.pointer = pointer
    self.count = count
  }

  deinit { if let pointer { cj_free(pointer) } }

  /// A copy of `bytes` (an object read from a store) in a buffer libvips can take over.
  convenience init(copying bytes: [UInt8]) {
    let pointer = cj_alloc(max(1, bytes.count))!
    bytes.withUnsafeBytes { if let base = $0.baseAddress { pointer.copyMemory(from: base, byteCount: $0.count) } }
    self.init(pointer: pointer, count: bytes.count)
  }

  /// Files larger than this are not read into memory (nil): libvips streams them from the
  /// path as before. The planner's default file limit (limits.max_file_bytes) is the same.
  static let maxBytes = 256 << 20

  /// The bytes of `path`, or nil when the file is larger than `maxBytes`.
  static func read(path: String) throws(ImagingError) -> FileBytes? {
    var data: UnsafeMutableRawPointer?
    var length = 0
    var message = [CChar](repeating: 0, count: 512)
    let status = cj_read_file(path, maxBytes, &data, &length, &message, message.count)
    if status == -4 { return nil }
    guard status == 0, let data else {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ImagingError(operation: "load", path: path, message: text)
    }
    return FileBytes(pointer: data, count: length)
  }

  var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count) }

  /// Gives the buffer away (to cj_open_bytes); this object no longer frees it.
  func take() -> UnsafeMutableRawPointer? {
    defer { pointer = nil }
    return pointer
  }
}

/// Decoding JPEGs with libjpeg-turbo's TurboJPEG API instead of libvips (docs/decoding.md):
/// 8-bit baseline or progressive YCbCr or greyscale JPEGs with no ICC profile or an sRGB one
/// (`SRGBProfile`), decoded at the DCT scale 1/shrink that libvips' shrink-on-load uses, into
/// a buffer wrapped as a libvips image for the same resample and encode.
enum JPEGDirect {
  /// The decoded source, or nil when the file is not one the direct path takes (the caller
  /// then hands `bytes` to libvips). Throws when libjpeg reports damage (any warning: the
  /// libvips path fails on them too), or the file no longer matches `header`.
  static func decode(
    _ bytes: FileBytes, path: String, header: SourceHeader, shrink: Int, colour: ColourPolicy
  ) throws(ImagingError) -> DecodedSource? {
    guard let info = JPEGHeaderInfo(bytes.buffer), eligible(info, colour: colour),
      info.orientation == header.orientation, let base = bytes.buffer.baseAddress
    else { return nil }
    guard let handle = tjInitDecompress() else { return nil }
    defer { tjDestroy(handle) }
    let jpeg = base.assumingMemoryBound(to: UInt8.self)
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colourspace: Int32 = 0
    if tjDecompressHeader3(handle, jpeg, UInt(bytes.count), &width, &height, &subsampling, &colourspace) != 0 {
      return nil  // libvips reads it and says what is wrong.
    }
    guard colourspace == Int32(TJCS_YCbCr.rawValue) || colourspace == Int32(TJCS_GRAY.rawValue) else { return nil }
    // Limits were checked against the planned header: a file that changed since is refused
    // before its pixels are decoded.
    guard Int(width) == header.storedWidth, Int(height) == header.storedHeight else {
      throw ImagingError(
        operation: "load", path: path,
        message: "the file changed since it was planned (now jpeg \(width)x\(height), "
          + "planned \(header.format.rawValue) \(header.storedWidth)x\(header.storedHeight))")
    }
    // libjpeg decodes ceil(size / shrink) pixels a side.
    let scaledWidth = (Int(width) + shrink - 1) / shrink
    let scaledHeight = (Int(height) + shrink - 1) / shrink
    let size = scaledWidth * scaledHeight * 3
    guard let pixels = cj_alloc(size) else {
      throw ImagingError(operation: "decode", path: path, message: "cannot hold \(size) bytes of pixels")
    }
    // Any warning stops the decode: a damaged file fails as it does through libvips. Scans
    // are limited (a progressive JPEG of thousands of tiny scans takes minutes otherwise).
    let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
    let status = tjDecompress2(
      handle, jpeg, UInt(bytes.count), pixels.assumingMemoryBound(to: UInt8.self), Int32(scaledWidth), 0,
      Int32(scaledHeight), Int32(TJPF_RGB.rawValue), flags)
    if status != 0 {
      cj_free(pixels)
      let message = String(cString: tjGetErrorStr2(handle))
      let warning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
      throw ImagingError(operation: "decode", path: path, message: warning ? "damaged: \(message)" : message)
    }
    // libvips' shrink-on-load keeps whole blocks only: floor(size / shrink) (1067 rows at 1/4
    // give 266), which the plan's geometry (DecodedSource.toDecoded) counts on.
    Vips.start()
    var out: OpaquePointer?
    // Turned upright here (as vips_autorot turns it) into a memory image: every output's
    // resample and box shrink then read it in place (docs/decoding.md).
    let wrapped = cj_orient_owned(
      pixels, scaledWidth * 3, Int32(Int(width) / shrink), Int32(Int(height) / shrink), 3, Int32(info.orientation),
      info.xres, info.yres, &out)
    try Vips.check(wrapped, "decode", path: path)
    guard let out else { throw ImagingError(operation: "decode", path: path, message: "no image returned") }
    let image = VipsImage(out, path: path)
    return DecodedSource(
      image: image, header: header, path: path, shrink: shrink, metadataSource: info.hasMetadata ? bytes : nil,
      direct: true)
  }

  /// Whether the direct path gives what libvips would: 8-bit Huffman-coded baseline,
  /// extended or progressive frames of one or three components (greyscale or YCbCr; no
  /// Adobe RGB/CMYK/YCCK transform), no ICC profile or an sRGB one, which `colour: keep` would
  /// otherwise carry to the output.
  static func eligible(_ info: JPEGHeaderInfo, colour: ColourPolicy) -> Bool {
    guard [0xC0, 0xC1, 0xC2].contains(info.frameMarker), info.precision == 8,
      info.components == 1 || info.components == 3
    else { return false }
    if info.components == 3, let transform = info.adobeTransform, transform != 1 { return false }
    if let icc = info.icc {
      return colour != .keep && SRGBProfile.isSRGB(icc)
    }
    return true
  }

  /// The metadata libvips reads from the file's header (EXIF, XMP, IPTC, ICC), for the outputs
  /// that keep some: the direct decode's pixels carry none.
  static func metadataImage(_ bytes: FileBytes, path: String) throws(ImagingError) -> VipsImage {
    var out: OpaquePointer?
    let (status, warnings) = try SourceOpening.capturingWarnings { () throws(ImagingError) -> Int32 in
      cj_jpeg_header_buffer(bytes.buffer.baseAddress, bytes.count, &out)
    }
    if status != 0 || out == nil {
      if let out { cj_unref(out) }
      let message = status != 0 ? Vips.takeError() : "no image returned"
      throw ImagingError(operation: "metadata", path: path, message: message)
    }
    _ = warnings  // The pixels decoded cleanly: the header's warnings were seen there.
    return VipsImage(out!, path: path)
  }
}
