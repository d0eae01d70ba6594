import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// The identity of an output: a re-run skips it when its key is unchanged.
/// key = sha256(cropjob version, libvips version, the recipe, the source's content hash).
public enum OutputKey {
  /// Canonical text of everything that decides an output's bytes, apart from the source.
  package static func recipe(
    job: String, guide: Guide, place: PlaceSpec, outputScale: Double, geometry: PlacementResult, encode: EncodeSpec,
    metadata: MetadataPolicy, style: RenderStyle, path: String
  ) -> String {
    let parts = PartJSON.self
    return
      ([
        "path=\(path)", "guide=\(parts.guide(guide))", "place=\(parts.place(place))", "scale=\(outputScale)",
        "size=\(geometry.outputSize.width)x\(geometry.outputSize.height)",
        "transform=\(parts.transform(geometry.transform))",
        parts.tail(encode: encode, metadata: metadata, style: style) {
          tail(encode: encode, metadata: metadata, style: style)
        },
      ]).joined(separator: "\n")
  }

  /// The recipe's lines from `encode=` on: the same for most outputs of a batch (memoised).
  static func tail(encode: EncodeSpec, metadata: MetadataPolicy, style: RenderStyle) -> String {
    ([
      "encode=\(PartJSON.encode(encode.options)) max_bytes=\(encode.maxBytes.map(String.init) ?? "-") min_quality=\(encode.minQuality)",
      "metadata=\(metadata)", "style=circle:\(style.circle) alpha:\(style.alpha) bg:\(style.background)",
    ]
      // Settings added later appear only when not at their default, so that the outputs of
      // earlier job files keep their keys.
      + (encode.overBudget == .fail ? [] : ["over_budget=\(encode.overBudget.rawValue)"])
      + (encode.colour == .srgb ? [] : ["colour=\(encode.colour.rawValue)"])).joined(separator: "\n")
  }

  /// The recipe's identity without the source: what `plan --format json` prints as `key`.
  /// `engine` is the decoding library's version (`Plan.engineVersion`).
  public static func recipeKey(_ recipe: String, engine: String) -> String {
    SHA256.hex(Array("cropjob \(CropKitVersion.string)\nlibvips \(engine)\n\(recipe)".utf8))
  }

  /// The output's key: its recipe's identity and its source's content hash.
  public static func key(recipe: String, sourceHash: String, engine: String) -> String {
    SHA256.hex(Array("cropjob \(CropKitVersion.string)\nlibvips \(engine)\n\(recipe)\nsource=\(sourceHash)".utf8))
  }
}
