internal import CVipsShim
import CropGeometry
import CropPlan
import CropSpec

/// The frames of an animated source, decoded once for the outputs with `frames: all`
/// (docs/job-file.md, "Animations"): each frame a decoded source of its own, placed the same way.
package struct Animation: Sendable {
  /// The frames in order, each 8-bit RGB(A) in memory, oriented; the first is the
  /// `DecodedSource`'s own image.
  package let frames: [DecodedSource]
  /// Each frame's delay in milliseconds, as libvips reads it from the file.
  package let delays: [Int]
  /// How many times the animation plays (0: forever), as libvips reads it.
  package let loop: Int
}

extension Animation {
  /// Every frame rendered with the same geometry and style (`Renderer.render`), stacked top to
  /// bottom into one image that carries the frame height, the delays and the loop count, as
  /// libvips' WebP and GIF savers read them to write an animation (`cj_join_frames`).
  func render(geometry: PlacementResult, style: RenderStyle) throws(ImagingError) -> VipsImage {
    var rendered: [VipsImage] = []
    for frame in frames {
      rendered.append(try Renderer.render(frame, geometry: geometry, style: style))
    }
    var pointers: [OpaquePointer?] = rendered.map(\.pointer)
    let milliseconds = delays.map { Int32(clamping: $0) }
    var out: OpaquePointer?
    let status = cj_join_frames(&pointers, Int32(pointers.count), milliseconds, Int32(clamping: loop), &out)
    let path = frames.first?.path
    withExtendedLifetime(rendered) {}
    try Vips.check(status, "join frames", path: path)
    guard let out else { throw ImagingError(operation: "join frames", path: path, message: "no image returned") }
    return VipsImage(out, path: path)
  }
}

extension DecodedSource {
  /// Decodes every frame of an animated GIF or WebP (libvips' `n = -1`: one image the frames
  /// stacked top to bottom) into one source per frame, converted and oriented as `decode`
  /// does, without shrink-on-load. A frame that fails to decode (or raises a libvips warning)
  /// fails the whole decode with an error naming it (`brokenFrame`).
  static func decodeFrames(
    path: String, header: SourceHeader, strictness: DecodeStrictness, colour: ColourPolicy
  ) throws(ImagingError) -> DecodedSource {
    var keepsProfile = false
    let memory: VipsImage
    let warnings: [String]
    do {
      (memory, warnings) = try SourceOpening.capturingWarnings { () throws(ImagingError) -> VipsImage in
        let loaded = try SourceOpening.openFrames(path: path, page: 0, count: -1, strictness: strictness)
        let expected = (width: header.storedWidth, height: header.storedHeight * header.pages)
        if loaded.format != header.format || loaded.image.width != expected.width
          || loaded.image.height != expected.height
        {
          throw ImagingError(
            operation: "load", path: path,
            message: "the file changed since it was planned (now \(loaded.format.rawValue) "
              + "\(loaded.image.width)x\(loaded.image.height / max(1, header.pages)) in its frames, planned "
              + "\(header.format.rawValue) \(header.storedWidth)x\(header.storedHeight), \(header.pages) frames)")
        }
        keepsProfile =
          colour == .keep && cj_is_rgb(loaded.image.pointer) != 0 && cj_has_icc(loaded.image.pointer) != 0
        let rgb = try loaded.image.derive("colour conversion") { cj_to_srgb($0, keepsProfile ? 0 : 1, $1) }
        return try SourceOpening.decodeHere(rgb)
      }
    } catch {
      throw brokenFrame(path: path, header: header, strictness: strictness) ?? error
    }
    if !warnings.isEmpty {
      throw brokenFrame(path: path, header: header, strictness: strictness)
        ?? ImagingError(operation: "decode", path: path, message: "damaged: \(warnings.joined(separator: "; "))")
    }
    var pageHeight: Int32 = 0
    var delays = [Int32](repeating: 0, count: header.pages)
    var delayCount: Int32 = 0
    var loop: Int32 = 0
    try Vips.check(
      cj_timing(memory.pointer, &pageHeight, &delays, Int32(delays.count), &delayCount, &loop), "frame timing",
      path: path)
    let height = Int(pageHeight)
    guard height == header.storedHeight, memory.height == height * header.pages else {
      throw ImagingError(
        operation: "decode", path: path,
        message: "frames of \(height) rows in an image of \(memory.height) rows; expected \(header.pages) frames "
          + "of \(header.storedHeight)")
    }
    var frames: [DecodedSource] = []
    for index in 0..<header.pages {
      let top = Int32(index * height)
      let extracted = try memory.derive("extract frame \(index + 1)") {
        cj_extract_area($0, 0, top, Int32(memory.width), Int32(height), $1)
      }
      var frame = try extracted.derive("copy frame \(index + 1)") { cj_copy_memory($0, $1) }
      if header.orientation != 1 {
        frame = try frame.derive("autorot") { cj_autorot($0, $1) }
      }
      frames.append(DecodedSource(image: frame, header: header, path: path, keepsSourceProfile: keepsProfile))
    }
    // A file without delays shows each frame for libvips' default (100 ms).
    let timing = (0..<header.pages).map { $0 < Int(delayCount) ? Int(delays[$0]) : 100 }
    return DecodedSource(
      image: frames[0].image, header: header, path: path, keepsSourceProfile: keepsProfile,
      animation: Animation(frames: frames, delays: timing, loop: Int(loop)))
  }

  /// The first frame that fails to decode on its own, as an error naming it ("frame 3 of 5:
  /// ..."), or nil when each decodes (the failure was not one frame's).
  private static func brokenFrame(path: String, header: SourceHeader, strictness: DecodeStrictness) -> ImagingError? {
    for index in 0..<header.pages {
      var failure: String? = nil
      do {
        let (_, warnings) = try SourceOpening.capturingWarnings { () throws(ImagingError) -> Void in
          let loaded = try SourceOpening.openFrames(path: path, page: index, count: 1, strictness: strictness)
          _ = try SourceOpening.decodeHere(loaded.image)
        }
        if !warnings.isEmpty { failure = "damaged: \(warnings.joined(separator: "; "))" }
      } catch {
        failure = error.summary
      }
      if let failure {
        return ImagingError(
          operation: "decode", path: path, message: "frame \(index + 1) of \(header.pages): \(failure)")
      }
    }
    return nil
  }
}
