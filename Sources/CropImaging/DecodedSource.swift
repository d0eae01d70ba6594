internal import CVipsShim
import CropGeometry
import CropPlan
import CropSpec
import CropSupport

/// How strictly decoding treats damage in a file (libvips' `fail_on`).
public enum DecodeStrictness: Int32, Sendable, Codable {
  case none = 0
  case truncated = 1
  case error = 2
  case warning = 3
}

/// A source decoded once, oriented, 8-bit RGB (sRGB unless `colour: keep`), held in memory
/// for all of its outputs that share a colour policy.
package final class DecodedSource: @unchecked Sendable {
  package let image: VipsImage
  /// Decoded pixels per oriented-source pixel, per axis (1 unless shrunk on load).
  package let scaleX: Double
  package let scaleY: Double
  package let header: SourceHeader
  package let path: String

  package var width: Int { image.width }
  package var height: Int { image.height }
  package var hasAlpha: Bool { image.hasAlpha }
  /// Whether the pixels are in the source's own colour space, described by its embedded ICC
  /// profile (which the image carries), rather than sRGB: `colour: keep` on a tagged RGB source.
  package let keepsSourceProfile: Bool
  /// The faces found in these pixels, once per detection size asked (`FaceDetector.faces`):
  /// the outputs of the decode that ask for the same size share one detection.
  let faces = LockedBox<[Int: [FocusBox]]>([:])

  /// Oriented-source pixels → decoded pixels. JPEG shrink-on-load decodes whole blocks of
  /// `shrink` stored pixels counted from the stored top-left corner (libvips drops a partial
  /// last block: 1067 rows at 1/4 give 266), wherever EXIF orientation then moves that corner;
  /// the ratio of the sizes (266/1067) would misplace outputs by up to 3/4 of a decoded pixel.
  /// Other loaders resample the whole image to the decoded size.
  package let toDecoded: Affine
  /// The file's bytes when its pixels were decoded without libvips (JPEGDirect) and it has
  /// metadata: read from them for the outputs that keep some (`metadataImage()`).
  let metadataSource: FileBytes?
  /// Which library decoded the pixels: `.auto` for libjpeg-turbo directly, `.libvips` for libvips.
  package var decodedBy: JPEGDecoder { direct ? .auto : .libvips }
  private let direct: Bool
  /// Every frame of an animated source decoded with `frames: all` (`image` is the first);
  /// nil for a still image or the first frame alone.
  package let animation: Animation?

  init(
    image: VipsImage, header: SourceHeader, path: String, shrink: Int = 1, keepsSourceProfile: Bool = false,
    metadataSource: FileBytes? = nil, direct: Bool = false, animation: Animation? = nil
  ) {
    self.image = image
    self.animation = animation
    self.metadataSource = metadataSource
    self.direct = direct
    self.keepsSourceProfile = keepsSourceProfile
    self.header = header
    self.path = path
    scaleX = Double(image.width) / Double(header.width)
    scaleY = Double(image.height) / Double(header.height)
    let stored = Size(width: Double(header.storedWidth), height: Double(header.storedHeight))
    let decoded = Geometry.orientedSize(
      stored: Size(width: Double(image.width), height: Double(image.height)), orientation: header.orientation)
    let blocks = header.format == .jpeg && shrink > 1
    let scale = Affine.scale(
      x: blocks ? 1 / Double(shrink) : decoded.width / stored.width,
      y: blocks ? 1 / Double(shrink) : decoded.height / stored.height)
    toDecoded =
      Geometry.orientationTransform(stored: decoded, orientation: header.orientation) * scale
      * Geometry.orientationTransform(stored: stored, orientation: header.orientation).inverted()!
  }

  /// The decoded, oriented pixels, copied into Swift memory (for tests and tools).
  package func raster() throws(ImagingError) -> Raster { try image.raster() }

  /// The image whose metadata the outputs keep from: the decoded one, or for a direct JPEG
  /// decode libvips' reading of the file's header.
  func metadataImage() throws(ImagingError) -> VipsImage? {
    guard let metadataSource else { return nil }
    return try JPEGDirect.metadataImage(metadataSource, path: path)
  }

  /// Decodes `path` once: shrink-on-load by `shrink`, convert to 8-bit sRGB (or with
  /// `colour: keep`, an RGB source to 8 bits in its own colour space), into memory, then
  /// apply EXIF orientation. The decode runs on the calling thread, and any libvips
  /// warning raised meanwhile fails it (as does `strictness`, libvips' `fail_on`): damaged
  /// files never pass as damaged pixels. A file that no longer matches `header` (replaced
  /// since planning) is refused before its pixels are decoded. JPEGs are read into memory
  /// through one descriptor and, when eligible, decoded by libjpeg-turbo directly, the rest
  /// by libvips from those bytes (docs/decoding.md); `jpegDecoder: .libvips` sends every JPEG
  /// to libvips. With `frames: all` a GIF or WebP of several frames decodes every frame
  /// (`decodeFrames`, `animation`).
  /// `contents`: the source's bytes, read from a store (`path` then only names it): decoded
  /// from memory the same way a file's bytes are.
  package static func decode(
    path: String, header: SourceHeader, shrink: Int, strictness: DecodeStrictness = .warning,
    colour: ColourPolicy = .srgb, jpegDecoder: JPEGDecoder = .auto, frames: FramesPolicy = .first,
    contents: [UInt8]? = nil
  ) throws(ImagingError) -> DecodedSource {
    if frames == .all && header.pages > 1 && header.format.animates {
      guard contents == nil else {
        throw ImagingError(
          operation: "load", path: path, message: "frames: all is not supported for sources in object storage yet")
      }
      return try decodeFrames(path: path, header: header, strictness: strictness, colour: colour)
    }
    var shrink = max(1, shrink)
    while shrink > header.largestShrink { shrink /= 2 }
    var bytes: FileBytes? = contents.map(FileBytes.init(copying:))
    if header.format == .jpeg && jpegDecoder == .auto && bytes == nil { bytes = try FileBytes.read(path: path) }
    if header.format == .jpeg && jpegDecoder == .auto, let read = bytes {
      if let direct = try JPEGDirect.decode(read, path: path, header: header, shrink: shrink, colour: colour) {
        return direct
      }
      bytes = read
    }
    var keepsProfile = false
    let (memory, warnings) = try SourceOpening.capturingWarnings { () throws(ImagingError) -> VipsImage in
      let opened: SourceOpening.Opened
      if let bytes {
        opened = try SourceOpening.open(bytes: bytes, path: path, shrink: shrink, strictness: strictness)
      } else {
        opened = try SourceOpening.open(path: path, headerOnly: false, shrink: shrink, strictness: strictness)
      }
      let loaded = opened.image
      // Whether this is the file that was planned: its format and the size its header
      // stores, as the planner read them; not the decoded size, which a shrink-on-load
      // makes depend on the loader (libvips does not shrink an animated WebP).
      if opened.format != header.format || opened.storedWidth != header.storedWidth
        || opened.storedHeight != header.storedHeight
      {
        throw ImagingError(
          operation: "load", path: path,
          message: "the file changed since it was planned (now \(opened.format.rawValue) "
            + "\(opened.storedWidth)x\(opened.storedHeight), "
            + "planned \(header.format.rawValue) \(header.storedWidth)x\(header.storedHeight))")
      }
      // An RGB source kept in its own colour space only changes depth (16 -> 8 bits); its
      // profile stays attached to describe the pixels.
      keepsProfile = colour == .keep && cj_is_rgb(loaded.pointer) != 0 && cj_has_icc(loaded.pointer) != 0
      let rgb = try loaded.derive("colour conversion") { cj_to_srgb($0, keepsProfile ? 0 : 1, $1) }
      return try SourceOpening.decodeHere(rgb)
    }
    if !warnings.isEmpty {
      throw ImagingError(operation: "decode", path: path, message: "damaged: \(warnings.joined(separator: "; "))")
    }
    let oriented: VipsImage
    if header.orientation != 1 {
      // autorot reads the orientation tag, which the loader copied onto the image.
      oriented = try memory.derive("autorot") { cj_autorot($0, $1) }
    } else {
      oriented = memory
    }
    return DecodedSource(image: oriented, header: header, path: path, shrink: shrink, keepsSourceProfile: keepsProfile)
  }
}
