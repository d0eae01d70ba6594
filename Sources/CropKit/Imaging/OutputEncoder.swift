import CropGeometry

/// One encoded output and how it was reached.
public struct EncodedOutput: Sendable {
  public var bytes: [UInt8]
  public var quality: Int
  /// Encodes made (more than one when a byte budget was searched).
  public var encodes: Int
}

/// Renders one output from a decoded source and encodes it, honouring the byte budget.
public enum OutputEncoder {
  public struct BudgetError: Error, Sendable, CustomStringConvertible {
    public var maxBytes: Int
    public var minQuality: Int
    public var smallest: Int
    public var encodes: Int
    public var description: String {
      "cannot fit in max_bytes \(maxBytes): \(smallest) bytes even at min_quality \(minQuality) (\(encodes) encodes)"
    }
  }

  public static func produce(
    _ source: DecodedSource, geometry: PlacementResult, style: RenderStyle, encode: EncodeSpec,
    metadata: MetadataPolicy = .strip
  ) throws -> EncodedOutput {
    let rendered = try Renderer.render(source, geometry: geometry, style: style)
    let filtered = try MetadataFilter.apply(metadata, to: rendered)
    var output = try encodeWithBudget(filtered, encode: encode, strip: metadata.kept.isEmpty)
    if encode.options.format == .webp && metadata.kept.isEmpty {
      output.bytes = WebPChunks.strip(output.bytes, keepICC: false)
    }
    return output
  }

  /// Without a budget: one encode at `quality`. With one: the highest quality in
  /// [min_quality, quality] whose file fits, by bisection (at most 1 + ⌈log2(range)⌉ encodes).
  static func encodeWithBudget(_ image: VipsImage, encode: EncodeSpec, strip: Bool) throws -> EncodedOutput {
    let top = encode.options.quality
    let first = try Encoder.encode(image, options: encode.options, quality: top, strip: strip)
    guard let budget = encode.maxBytes, first.count > budget else {
      return EncodedOutput(bytes: first, quality: top, encodes: 1)
    }
    var encodes = 1
    var low = encode.minQuality
    var high = top - 1
    var best: EncodedOutput? = nil
    var smallest = first.count
    while low <= high {
      let mid = (low + high) / 2
      let bytes = try Encoder.encode(image, options: encode.options, quality: mid, strip: strip)
      encodes += 1
      smallest = min(smallest, bytes.count)
      if bytes.count <= budget {
        best = EncodedOutput(bytes: bytes, quality: mid, encodes: 0)
        low = mid + 1
      } else {
        high = mid - 1
      }
    }
    guard var result = best else {
      throw BudgetError(maxBytes: budget, minQuality: encode.minQuality, smallest: smallest, encodes: encodes)
    }
    result.encodes = encodes
    return result
  }
}
