internal import CPixels
internal import CVipsShim
import CropGeometry
import CropPlan
import Foundation

/// Resamples one output from a decoded source: one affine resample from the source pixels.
package enum Renderer {
  /// Renders `size` output pixels, where `transform` maps oriented-source pixels to output
  /// pixels. The source region is first box-shrunk by a whole factor, then one resample places
  /// it exactly, with sub-pixel precision: when the transform has no rotation or shear (flips
  /// are fine) and the photo covers the output, separably (rows, then columns) with Lanczos3
  /// widened by the remaining ratio (2 to 4 after the box) on a downscale and the Catmull-Rom
  /// cubic otherwise; else (a rotation, or an output the photo does not cover) the same
  /// separable reduce to the output's scale, then libvips' bicubic affine at a ratio of about
  /// 1 (docs/resampling.md).
  package static func render(
    _ source: DecodedSource, geometry: PlacementResult, style: RenderStyle
  ) throws(ImagingError) -> VipsImage {
    let transform = geometry.transform
    let size = geometry.outputSize
    // The circle follows the guide, which `overflow: shrink` may have trimmed the output of.
    let circleFrame = geometry.guideRect
    // Decoded-image pixels -> output pixels.
    var m = transform * source.toDecoded.inverted()!
    var image = source.image
    guard let inverse = m.inverted() else {
      throw ImagingError(operation: "place", path: source.path, message: "degenerate transform \(m)")
    }
    let corners = [
      Point(x: 0, y: 0), Point(x: Double(size.width), y: 0),
      Point(x: 0, y: Double(size.height)), Point(x: Double(size.width), y: Double(size.height)),
    ].map { inverse.apply($0) }
    // Output px per decoded px. The downscale kernel reaches 3 / scale decoded px from an
    // output pixel's centre (Lanczos3 widened by the ratio, cj_resample_axis).
    let scale = sqrt(abs(m.a * m.d - m.b * m.c))
    let margin = max(4.0, (3 / scale + 2).rounded(.up))
    let x0 = max(0, Int((corners.map(\.x).min()! - margin).rounded(.down)))
    let y0 = max(0, Int((corners.map(\.y).min()! - margin).rounded(.down)))
    let x1 = min(image.width, Int((corners.map(\.x).max()! + margin).rounded(.up)))
    let y1 = min(image.height, Int((corners.map(\.y).max()! + margin).rounded(.up)))
    let needsAlphaBand = style.alpha || style.circle || image.hasAlpha
    let channels = needsAlphaBand ? 4 : 3
    let background = Array(style.background.prefix(channels))

    if x1 - x0 < 1 || y1 - y0 < 1 {
      // The photo lies wholly outside the output: background only.
      var constant = background
      if needsAlphaBand && !style.alpha { constant[3] = 255 }
      let image = try constantImage(size: size, colour: constant, path: source.path)
      return try finish(image, size: size, circleFrame: circleFrame, style: style)
    }
    m = m * Affine.translation(x: Double(x0), y: Double(y0))
    // The box shrink leaves the separable Lanczos3 a ratio of 2 to 4, which its widened
    // kernel filters far better than a box (docs/resampling.md); the affine path downscales
    // through the same separable resample first.
    let separable = geometry.coversOutput && m.b == 0 && m.c == 0 && m.a != 0 && m.d != 0
    let boxShrink = scale < 0.25 ? Int((0.5 / scale).rounded(.down)) : 1
    var window = (x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    // An opaque 8-bit memory image (every direct JPEG decode, opaque PNGs) is box-shrunk
    // directly, the window in place, to the pixels vips_shrink gives (cj_box_shrink).
    var shrunk = false
    if boxShrink > 1 && !image.hasAlpha && window.width >= boxShrink && window.height >= boxShrink,
      let direct = try boxShrunk(image, window: window, factor: boxShrink)
    {
      image = direct
      m = m * Affine.scale(Double(boxShrink))
      window = (0, 0, image.width, image.height)
      shrunk = true
    }
    if separable && (boxShrink <= 1 || shrunk) && !image.hasAlpha {
      // The plain case (an opaque photo covering the output, no rotation): the resample reads
      // the window of the decoded (or box-shrunk) image in place, with no libvips operation
      // (issue 15); a circle, an alpha band or a flatten is then one pass over the result
      // (`finish`): the photo covers the output, so its alpha was 255 everywhere.
      let odx = m.tx + 0.5 * m.a - 0.5
      let ody = m.ty + 0.5 * m.d - 0.5
      if let resampled = try resampleAxisAligned(image, m, odx: odx, ody: ody, size: size, window: window) {
        return try finish(resampled, size: size, circleFrame: circleFrame, style: style)
      }
    }
    // A source with alpha in 8-bit memory (a PNG or WebP decoded whole) is premultiplied and
    // box-shrunk directly into a float memory image: vips_premultiply's and vips_shrink's
    // floats, bit for bit (cj_premultiply_shrink), which the resample then reads in place.
    // Only when those floats are small: libvips' lazy chain holds a few strips, and a 12 MP
    // window at ratio 1 would take 190 MB as floats (`premultipliedLimit`).
    var premultiplied = false
    if image.hasAlpha && needsAlphaBand {
      let factor = boxShrink > 1 && window.width >= boxShrink && window.height >= boxShrink ? boxShrink : 1
      let side = { (n: Int) in factor == 1 ? n : (2 * n + factor) / (2 * factor) }
      let floats = side(window.width) * side(window.height) * image.bands * 4
      if floats <= premultipliedLimit, let direct = try premultipliedShrunk(image, window: window, factor: factor) {
        image = direct
        if factor > 1 { m = m * Affine.scale(Double(factor)) }
        window = (0, 0, image.width, image.height)
        shrunk = true
        premultiplied = true
      }
    }
    if !shrunk {
      let w = window
      image = try image.derive("extract_area") {
        cj_extract_area($0, Int32(w.x), Int32(w.y), Int32(w.width), Int32(w.height), $1)
      }
    }
    // A source with alpha is premultiplied before the box shrink too, so that the colour of
    // transparent pixels never bleeds into visible ones; an opaque one (alpha added below, if
    // at all, is 255 everywhere) is shrunk in 8 bits first, which gives the same pixels.
    let premultiplyFirst = image.hasAlpha
    if needsAlphaBand && premultiplyFirst && !premultiplied {
      image = try image.derive("premultiply") { cj_premultiply($0, $1) }
    }
    if !shrunk && boxShrink > 1 && image.width >= boxShrink && image.height >= boxShrink {
      image = try image.derive("shrink") { cj_shrink($0, Double(boxShrink), Double(boxShrink), $1) }
      m = m * Affine.scale(Double(boxShrink))
    }
    if needsAlphaBand && !premultiplyFirst {
      image = try image.derive("bandjoin") { cj_ensure_alpha($0, $1) }
      image = try image.derive("premultiply") { cj_premultiply($0, $1) }
    }
    // A rotated placement, or an output the photo does not cover, is first reduced by the
    // separable, widened Lanczos3 to the output's scale, so that libvips' point-sampled affine
    // only turns and places it (ratio about 1) and never downscales (docs/resampling.md).
    if !separable, let (reduced, sx, sy) = try reduceBeforeAffine(image, scale: sqrt(abs(m.a * m.d - m.b * m.c))) {
      image = reduced
      m = m * Affine.scale(x: 1 / sx, y: 1 / sy)
    }
    // libvips puts pixel centres on integer coordinates; ours are at +0.5.
    let odx = m.tx + 0.5 * (m.a + m.b) - 0.5
    let ody = m.ty + 0.5 * (m.c + m.d) - 0.5
    var fill = background
    if needsAlphaBand {
      let alpha = style.alpha ? fill[3] : 255
      fill = [fill[0] * alpha / 255, fill[1] * alpha / 255, fill[2] * alpha / 255, alpha]
    }
    let affineMatrix = m
    // Where the photo covers the whole output, the cubic's taps beyond its last pixel repeat
    // that pixel: no background in the edge pixels (an upscaled crop at the photo's edge
    // otherwise got a half-transparent or background-tinted first row).
    let copyEdges: Int32 = geometry.coversOutput ? 1 : 0
    if separable, let resampled = try resampleAxisAligned(image, m, odx: odx, ody: ody, size: size) {
      image = resampled
    } else {
      image = try image.derive("affine") { input, out in
        fill.withUnsafeBufferPointer { bg in
          cj_affine_edges(
            input, affineMatrix.a, affineMatrix.b, affineMatrix.c, affineMatrix.d, 0, 0, odx, ody, 0, 0,
            Int32(size.width), Int32(size.height), "bicubic", bg.baseAddress, Int32(bg.count), copyEdges, out)
        }
      }
    }
    // With alpha, the premultiplied floats go to `finish` as they are: it undoes the
    // premultiplication in its one pass.
    if !needsAlphaBand {
      image = try image.derive("cast") { cj_cast_uchar($0, $1) }
    }
    return try finish(image, size: size, circleFrame: circleFrame, style: style)
  }

  /// The resample done separably (rows, then columns) when the transform has no rotation or
  /// shear (b == c == 0; a flip is a negative a or d) and the photo covers the whole output,
  /// so that every tap beyond the sampled area repeats its edge pixel (the affine's `extend: copy`)
  /// and no output pixel takes the background. At the preimages of the output pixel centres,
  /// at exact sub-pixel positions in floating point; per axis, on a downscale Lanczos3
  /// stretched by the ratio (2 ceil(3 ratio) + 1 taps: every pixel under the output pixel's
  /// footprint counts, where libvips' point-sampled interpolator aliases), otherwise the same
  /// Catmull-Rom cubic as the affine (docs/resampling.md). `nil` when it does not apply.
  /// `window`: the part of `image` resampled, as if extracted first (nil: all of it).
  private static func resampleAxisAligned(
    _ image: VipsImage, _ m: Affine, odx: Double, ody: Double, size: PixelSize,
    window: (x: Int, y: Int, width: Int, height: Int)? = nil
  ) throws(ImagingError) -> VipsImage? {
    let w = window ?? (0, 0, 0, 0)
    return try inMemory("resample", image) {
      cj_resample_axis(
        image.pointer, Int32(w.x), Int32(w.y), Int32(w.width), Int32(w.height), m.a, m.d, odx, ody,
        Int32(size.width), Int32(size.height), &$0)
    }
  }

  /// Runs one of the shim's in-memory operations on `image`: nil when it does not take the image
  /// (status 1), a failure named `operation` when libvips fails, else the image it made.
  private static func inMemory(
    _ operation: String, _ image: VipsImage, _ call: (inout OpaquePointer?) -> Int32
  ) throws(ImagingError) -> VipsImage? {
    var out: OpaquePointer?
    let status = call(&out)
    if status > 0 { return nil }
    try Vips.check(status, operation, path: image.path)
    guard let out else { throw ImagingError(operation: operation, path: image.path, message: "no image returned") }
    return VipsImage(out, path: image.path)
  }

  /// The window of `image` box-shrunk by `factor` without a libvips operation (cj_box_shrink:
  /// vips_shrink's pixels), or nil when `image` is not an 8-bit image in memory.
  package static func boxShrunk(
    _ image: VipsImage, window: (x: Int, y: Int, width: Int, height: Int), factor: Int
  ) throws(ImagingError) -> VipsImage? {
    try inMemory("shrink", image) {
      cj_box_shrink(
        image.pointer, Int32(window.x), Int32(window.y), Int32(window.width), Int32(window.height), Int32(factor), &$0)
    }
  }

  /// The largest premultiplied, box-shrunk window computed in memory (bytes of floats); larger
  /// ones go through libvips' lazy operations, strip by strip.
  static let premultipliedLimit = 8 << 20

  /// The window of an 8-bit memory image with alpha premultiplied (float) and, when `factor` > 1,
  /// box-shrunk, without libvips operations (cj_premultiply_shrink: the floats vips_premultiply
  /// and vips_shrink give), or nil when `image` is not one it takes.
  package static func premultipliedShrunk(
    _ image: VipsImage, window: (x: Int, y: Int, width: Int, height: Int), factor: Int
  ) throws(ImagingError) -> VipsImage? {
    try inMemory("premultiply", image) {
      cj_premultiply_shrink(
        image.pointer, Int32(window.x), Int32(window.y), Int32(window.width), Int32(window.height), Int32(factor), &$0)
    }
  }

  /// `premultipliedShrunk`'s reference: extract, premultiply and shrink by libvips (for tests).
  package static func premultipliedShrunkByLibvips(
    _ image: VipsImage, window: (x: Int, y: Int, width: Int, height: Int), factor: Int
  ) throws(ImagingError) -> VipsImage {
    let extracted = try image.derive("extract_area") {
      cj_extract_area($0, Int32(window.x), Int32(window.y), Int32(window.width), Int32(window.height), $1)
    }
    let premultiplied = try extracted.derive("premultiply") { cj_premultiply($0, $1) }
    guard factor > 1 else { return premultiplied }
    return try premultiplied.derive("shrink") { cj_shrink($0, Double(factor), Double(factor), $1) }
  }

  /// `boxShrunk`'s reference: the window extracted and shrunk by libvips (for tests).
  package static func boxShrunkByLibvips(
    _ image: VipsImage, window: (x: Int, y: Int, width: Int, height: Int), factor: Int
  ) throws(ImagingError) -> VipsImage {
    let extracted = try image.derive("extract_area") {
      cj_extract_area($0, Int32(window.x), Int32(window.y), Int32(window.width), Int32(window.height), $1)
    }
    return try extracted.derive("shrink") { cj_shrink($0, Double(factor), Double(factor), $1) }
  }

  /// `image` resampled separably by `scale` (output px per input px; a downscale only), to a
  /// whole number of pixels: the factors actually used per axis (`round(size × scale) / size`,
  /// so that the reduced image covers exactly what `image` does) come with it. `nil` when
  /// there is nothing to reduce or the resample does not apply to the image's format.
  private static func reduceBeforeAffine(_ image: VipsImage, scale: Double) throws(ImagingError)
    -> (VipsImage, Double, Double)?
  {
    guard scale < 0.999 else { return nil }
    let width = max(1, Int((Double(image.width) * scale).rounded()))
    let height = max(1, Int((Double(image.height) * scale).rounded()))
    let sx = Double(width) / Double(image.width)
    let sy = Double(height) / Double(image.height)
    // Pixel corners map to pixel corners; libvips' centres are on integers.
    let m = Affine.scale(x: sx, y: sy)
    let reduced = try resampleAxisAligned(
      image, m, odx: 0.5 * sx - 0.5, ody: 0.5 * sy - 0.5, size: PixelSize(width: width, height: height))
    return reduced.map { ($0, sx, sy) }
  }

  /// The last pass over the output's pixels (`input`: 8-bit, or premultiplied float RGBA):
  /// alpha undone from premultiplication, the circle's coverage (computed once per size:
  /// `CircleMasks`) multiplied into it, and the result flattened onto the background when the
  /// format has no alpha, in one pass in memory (cj_finish: the bytes of `finishedByLibvips`).
  package static func finish(_ input: VipsImage, size: PixelSize, circleFrame: Rect, style: RenderStyle)
    throws(ImagingError) -> VipsImage
  {
    let mask = style.circle ? CircleMasks.mask(size: size, frame: circleFrame) : nil
    let background = Array(style.background.prefix(3))
    var out: OpaquePointer?
    let status = background.withUnsafeBufferPointer { bg in
      guard let mask else { return cj_finish(input.pointer, nil, style.alpha ? 1 : 0, bg.baseAddress, &out) }
      return mask.withUnsafeBufferPointer {
        cj_finish(input.pointer, $0.baseAddress, style.alpha ? 1 : 0, bg.baseAddress, &out)
      }
    }
    if status == 1 {
      // An opaque output left as it is, or bands cj_finish does not take.
      return try finishedByLibvips(input, size: size, circleFrame: circleFrame, style: style)
    }
    try Vips.check(status, "finish", path: input.path)
    guard let out else { throw ImagingError(operation: "finish", path: input.path, message: "no image returned") }
    return VipsImage(out, path: input.path)
  }

  /// `finish` by libvips operations (unpremultiply, circle mask, flatten): its reference for
  /// tests, and the way for images cj_finish does not take.
  package static func finishedByLibvips(
    _ input: VipsImage, size: PixelSize, circleFrame: Rect, style: RenderStyle
  ) throws(ImagingError) -> VipsImage {
    var image = input
    if image.isFloat {
      image = try image.derive("unpremultiply") { cj_unpremultiply_uchar($0, $1) }
    }
    if style.circle {
      let mask = try maskImage(size: size, frame: circleFrame, path: image.path)
      if !image.hasAlpha {
        image = try image.derive("bandjoin") { cj_ensure_alpha($0, $1) }
      }
      image = try image.derive("circle mask") { cj_apply_mask($0, mask.pointer, $1) }
    }
    if style.alpha && !image.hasAlpha {
      image = try image.derive("bandjoin") { cj_ensure_alpha($0, $1) }
    }
    if !style.alpha && image.hasAlpha {
      let bg = Array(style.background.prefix(3))
      image = try image.derive("flatten") { input, out in
        bg.withUnsafeBufferPointer { cj_flatten(input, $0.baseAddress, 3, out) }
      }
    }
    return image
  }

  private static func constantImage(size: PixelSize, colour: [Double], path: String) throws(ImagingError) -> VipsImage {
    var out: OpaquePointer?
    let status = colour.withUnsafeBufferPointer {
      cj_constant(Int32(size.width), Int32(size.height), $0.baseAddress, Int32($0.count), &out)
    }
    try Vips.check(status, "background", path: path)
    return VipsImage(out!, path: path)
  }

  private static func maskImage(size: PixelSize, frame: Rect, path: String?) throws(ImagingError) -> VipsImage {
    let mask = Geometry.circleMask(outputSize: size, frame: frame)
    var out: OpaquePointer?
    let status = mask.withUnsafeBytes {
      cj_from_memory($0.baseAddress, $0.count, Int32(size.width), Int32(size.height), 1, &out)
    }
    try Vips.check(status, "circle mask", path: path)
    return VipsImage(out!, path: path)
  }
}
