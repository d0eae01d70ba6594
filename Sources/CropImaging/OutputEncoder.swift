internal import CVipsShim
import CropGeometry
import CropPlan
import CropSpec

/// One encoded output and how it was reached.
package struct EncodedOutput: Sendable {
  package var bytes: [UInt8]
  package var quality: Int
  /// Encodes made (more than one when a byte budget or a quality target was searched).
  package var encodes: Int
  /// The geometry written: the planned one, or with `over_budget: shrink` that placement at
  /// the smaller size that fitted (its notes then say so).
  package var geometry: PlacementResult
  /// The placeholders asked for, computed from the pixels encoded (nil when none was asked).
  package var placeholders: PlaceholderValues? = nil
  /// With `encode.target`: the score of the file written against its own uncompressed pixels
  /// (nil without a target, or for an image smaller than the score's 11x11 window).
  package var ssim: Double? = nil
  /// With `encode.frames: all` on an animated source: the frames written (nil for a still
  /// output).
  package var frames: Int? = nil
}

/// Renders one output from a decoded source and encodes it, honouring the byte budget.
package enum OutputEncoder {
  package struct BudgetError: Error, Sendable, CustomStringConvertible {
    package var maxBytes: Int
    package var minQuality: Int
    package var smallest: Int
    package var encodes: Int
    /// The smallest pixel size tried, when `over_budget: shrink` tried smaller sizes.
    package var smallestSize: PixelSize? = nil
    package var description: String {
      let size = smallestSize.map { " and \($0) pixels" } ?? ""
      return
        "cannot fit in max_bytes \(maxBytes): \(smallest) bytes even at min_quality \(minQuality)\(size) (\(encodes) encodes)"
    }
  }

  package static func produce(
    _ source: DecodedSource, geometry: PlacementResult, style: RenderStyle, encode: EncodeSpec,
    metadata: MetadataPolicy = .strip, jpegEncoder: JPEGEncoder = .auto, placeholders: PlaceholderSpec? = nil
  ) throws -> EncodedOutput {
    // Pixels kept in the source's colour space mean nothing without its profile.
    let keepsProfile = source.keepsSourceProfile
    let kept = MetadataPolicy(kept: keepsProfile ? metadata.kept.union([.icc]) : metadata.kept)
    func image(_ geometry: PlacementResult) throws -> VipsImage {
      // An animation (`frames: all`): every frame placed alike, joined with its timing.
      var image =
        try source.animation?.render(geometry: geometry, style: style)
        ?? Renderer.render(source, geometry: geometry, style: style)
      if keepsProfile {
        // Re-attached from the decode: a background-only output is made from scratch.
        image = try image.derive("icc profile") { cj_copy_icc($0, source.image.pointer, $1) }
      }
      if !kept.kept.isEmpty, let from = try source.metadataImage() {
        // Decoded without libvips (docs/decoding.md): the metadata comes from the file's header.
        image = try image.derive("metadata") { cj_copy_metadata($0, from.pointer, $1) }
      }
      return try MetadataFilter.apply(kept, to: image)
    }
    // The bytes a budget compares are the bytes written: cleaned of what the saver added
    // (`MetadataFilter.clean`: ~200 bytes of EXIF in every WebP).
    let file = FileEncoder(options: encode.options, strip: kept.kept.isEmpty, jpegEncoder: jpegEncoder) {
      MetadataFilter.clean($0, format: encode.options.format, policy: kept)
    }
    // An animation's frame count, for the manifest (a still source has no animation).
    let frames = source.animation.map(\.frames.count)
    guard let placeholders else {
      do {
        // A search encodes the same pixels several times: rendered once into memory (an
        // opaque output's pipeline is lazy and would be rendered again by every encode).
        let pixels = try image(geometry)
        let searched =
          encode.target == nil ? pixels : try pixels.derive("copy to memory") { cj_copy_memory($0, $1) }
        var result = try encodeWithBudget(searched, encode: encode, file: file, geometry: geometry)
        result.frames = frames
        return result
      } catch let error as BudgetError where encode.overBudget == .shrink {
        var result = try downsize(geometry, after: error, encode: encode, file: file, image: image)
        result.frames = frames
        return result
      }
    }
    // The placeholders read the pixels encoded: rendered once into memory, for both, on this
    // thread (libvips' own copy to memory wakes its worker threads: 10 % more CPU in job C).
    func rendered(_ geometry: PlacementResult) throws -> VipsImage {
      try SourceOpening.decodeHere(image(geometry))
    }
    var result: EncodedOutput
    var pixels: VipsImage
    do {
      pixels = try rendered(geometry)
      result = try encodeWithBudget(pixels, encode: encode, file: file, geometry: geometry)
    } catch let error as BudgetError where encode.overBudget == .shrink {
      result = try downsize(geometry, after: error, encode: encode, file: file, image: image)
      pixels = try rendered(result.geometry)
    }
    result.placeholders = try Placeholders.make(pixels, spec: placeholders)
    result.frames = frames
    return result
  }

  /// Encodes an image into the bytes of the file to write, at a quality.
  struct FileEncoder {
    let options: EncodeOptions
    let strip: Bool
    let jpegEncoder: JPEGEncoder
    let clean: ([UInt8]) -> [UInt8]

    func callAsFunction(_ image: VipsImage, quality: Int) throws -> [UInt8] {
      clean(try ImageEncoder.encode(image, options: options, quality: quality, strip: strip, jpegEncoder: jpegEncoder))
    }

    /// A file that decodes to the same pixels as the file at `quality` would, made faster
    /// (a JPEG written by libjpeg directly: baseline, standard Huffman tables, not optimised
    /// ones), or nil when there is no such shortcut (another format or encoder: the file
    /// itself is then encoded). For scoring only: its size is not the file's.
    func samePixels(_ image: VipsImage, quality: Int) throws -> [UInt8]? {
      guard options.format == .jpeg, strip, jpegEncoder == .auto else { return nil }
      return try ImageEncoder.jpegDirect(image, options: options, quality: quality, optimize: false)
    }
  }

  /// Without a budget or a target: one encode at `quality`. With a budget: the highest
  /// quality in [min_quality, quality] whose file fits, by bisection (at most 1 + ⌈log2(range)⌉
  /// encodes). With a target: then the lowest quality from min_quality up to that one whose file
  /// scores at least the target, by bisection again (`reachTarget`).
  static func encodeWithBudget(_ image: VipsImage, encode: EncodeSpec, file: FileEncoder, geometry: PlacementResult)
    throws -> EncodedOutput
  {
    let top = encode.options.quality
    let first = try file(image, quality: top)
    guard let budget = encode.maxBytes, first.count > budget else {
      let ceiling = EncodedOutput(bytes: first, quality: top, encodes: 1, geometry: geometry)
      return try reachTarget(image, from: ceiling, encode: encode, file: file)
    }
    var encodes = 1
    var low = encode.minQuality
    var high = top - 1
    var best: EncodedOutput? = nil
    var smallest = first.count
    while low <= high {
      let mid = (low + high) / 2
      let bytes = try file(image, quality: mid)
      encodes += 1
      smallest = min(smallest, bytes.count)
      if bytes.count <= budget {
        best = EncodedOutput(bytes: bytes, quality: mid, encodes: 0, geometry: geometry)
        low = mid + 1
      } else {
        high = mid - 1
      }
    }
    guard var result = best else {
      throw BudgetError(maxBytes: budget, minQuality: encode.minQuality, smallest: smallest, encodes: encodes)
    }
    result.encodes = encodes
    return try reachTarget(image, from: result, encode: encode, file: file)
  }

  /// With `encode.target`: the lowest quality in [min_quality, `ceiling.quality`] whose file,
  /// decoded, scores at least the target against `image`'s own pixels, by bisection (scores
  /// grow with quality; at most ⌈log2(range)⌉ more encodes, and one more of the quality
  /// chosen when its candidate was a fast one). `ceiling` is the file at the
  /// highest quality allowed (`quality`, or the budget's); where even it falls short it is
  /// written, with a note. The result carries the score of the file written.
  static func reachTarget(_ image: VipsImage, from ceiling: EncodedOutput, encode: EncodeSpec, file: FileEncoder)
    throws -> EncodedOutput
  {
    guard let target = encode.target else { return ceiling }
    let reference = PerceptualScore(reference: try image.raster())
    var result = ceiling
    guard let top = try reference.score(encoded: ceiling.bytes, path: image.path) else {
      return result  // smaller than a window: no score, written at the ceiling
    }
    result.ssim = top
    guard top >= target.ssim else {
      result.geometry.notes.append(
        .qualityTargetNotReached(
          ssim: target.ssim, score: top, quality: ceiling.quality,
          withinBudget: ceiling.quality < encode.options.quality
        ))
      return result
    }
    // Without a byte budget only the pixels of a candidate count: it is encoded the fast way
    // where the format has one (`samePixels`), and the quality chosen is encoded again, as the
    // file to write, once the search ends.
    let fast = encode.maxBytes == nil
    var written = true  // whether `result.bytes` is the file to write at `result.quality`
    var low = encode.minQuality
    var high = ceiling.quality - 1
    while low <= high {
      let mid = (low + high) / 2
      let candidate = fast ? try file.samePixels(image, quality: mid) : nil
      let bytes = try candidate ?? file(image, quality: mid)
      result.encodes += 1
      let score = try reference.score(encoded: bytes, path: image.path) ?? 0
      if score >= target.ssim && encode.maxBytes.map({ bytes.count <= $0 }) != false {
        result.bytes = bytes
        result.quality = mid
        result.ssim = score
        written = candidate == nil
        high = mid - 1
      } else {
        low = mid + 1
      }
    }
    if !written {
      result.bytes = try file(image, quality: result.quality)
      result.encodes += 1
    }
    return result
  }

  /// `over_budget: shrink`, after even `min_quality` did not fit: the largest width (height
  /// following the aspect) whose file fits at `min_quality`, to within 1 % of the planned
  /// width. The search keeps a bracket (widest known to fit, narrowest known not to) and
  /// alternates two steps: a guess that bytes grow with pixels (width × √(budget / bytes)
  /// from the last file) and a bisection, which bounds it by 2 × ⌈log2(width)⌉ encodes;
  /// photos take 3 to 6.
  static func downsize(
    _ geometry: PlacementResult, after error: BudgetError, encode: EncodeSpec, file: FileEncoder,
    image: (PlacementResult) throws -> VipsImage
  ) throws -> EncodedOutput {
    let planned = geometry.outputSize
    let tolerance = max(1, planned.width / 100)
    var failure = error
    var fits = 0  // widest width known to fit (0: none yet)
    var tooBig = planned.width  // narrowest width known not to fit
    var last = (width: planned.width, bytes: error.smallest)
    var guessNext = true
    var best: EncodedOutput? = nil
    var bestImage: VipsImage? = nil
    while tooBig - fits > tolerance || (fits == 0 && tooBig > 1) {
      var width = (fits + tooBig) / 2
      if guessNext {
        let guess = Int(Double(last.width) * (Double(error.maxBytes) / Double(last.bytes)).squareRoot())
        width = min(tooBig - 1, max(fits + 1, guess))
      }
      guessNext.toggle()
      width = max(1, width)
      let size = PixelSize(
        width: width, height: max(1, Int((Double(width) * Double(planned.height) / Double(planned.width)).rounded())))
      var resized = geometry.resized(to: size)
      let rendered = try image(resized)
      let bytes = try file(rendered, quality: encode.minQuality)
      failure.encodes += 1
      last = (width, bytes.count)
      if bytes.count <= error.maxBytes {
        resized.notes.append(.downsizedToBudget(from: planned, to: size, maxBytes: error.maxBytes))
        best = EncodedOutput(bytes: bytes, quality: encode.minQuality, encodes: 0, geometry: resized)
        bestImage = rendered
        fits = width
      } else {
        failure.smallest = min(failure.smallest, bytes.count)
        failure.smallestSize = size
        tooBig = width
      }
    }
    guard var result = best, let bestImage else { throw failure }
    result.encodes = failure.encodes
    if encode.target != nil {
      // The budget won: the score of the file written is recorded all the same.
      result.ssim = try PerceptualScore(reference: bestImage.raster()).score(
        encoded: result.bytes, path: bestImage.path)
    }
    return result
  }
}
