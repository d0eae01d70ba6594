import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// The identity of an output: a re-run skips it when its key is unchanged.
/// recipe key = sha256("cropjob <version>\nlibvips <version>\n<recipe>");
/// key = sha256("<recipe key>\nsource=<the source's sha256>").
public enum OutputKey {
  /// Canonical text of everything that decides an output's bytes, apart from the source.
  package static func recipe(
    job: String, guide: Guide, place: PlaceSpec, outputScale: Double, geometry: PlacementResult, encode: EncodeSpec,
    metadata: MetadataPolicy, style: RenderStyle, path: String, placeholders: PlaceholderSpec? = nil
  ) -> String {
    let parts = PartJSON.parts(guide: guide, place: place, transform: geometry.transform) {
      PartJSON.tail(encode: encode, metadata: metadata, style: style) {
        tail(encode: encode, metadata: metadata, style: style)
      }
    }
    // The lines joined by "\n", appended to one string (no array of lines).
    var text = "path="
    text.reserveCapacity(
      path.utf8.count + parts.guide.utf8.count + parts.place.utf8.count + parts.transform.utf8.count
        + parts.tail.utf8.count + 96)
    text += path
    text += "\nguide="
    text += parts.guide
    text += "\nplace="
    text += parts.place
    text += "\nscale="
    text += "\(outputScale)"
    text += "\nsize="
    text += "\(geometry.outputSize.width)x\(geometry.outputSize.height)"
    text += "\ntransform="
    text += parts.transform
    text += "\n"
    text += parts.tail
    if let placeholders {
      // Only when asked for, so that the keys of outputs without placeholders stay as they
      // were: asking for them makes the output again, with its record.
      text += "\nplaceholders="
      text += placeholders.recipe
    }
    return text
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
      + (encode.colour == .srgb ? [] : ["colour=\(encode.colour.rawValue)"])
      + (encode.frames == .first ? [] : ["frames=\(encode.frames.rawValue)"])
      + (encode.target.map { ["target=ssim:\($0.ssim)"] } ?? [])).joined(separator: "\n")
  }

  /// The recipe's identity without the source: what `plan --format json` prints as `key`.
  /// `engine` is the decoding library's version (`Plan.engineVersion`).
  public static func recipeKey(_ recipe: String, engine: String) -> String {
    SHA256.hex(Array("cropjob \(CropKitVersion.string)\nlibvips \(engine)\n\(recipe)".utf8))
  }

  /// The output's key, which the manifest and the state hold: the SHA-256 (hex) of the
  /// recipe's key (`recipeKey`, what `plan --format json` prints as `key`), a newline,
  /// `source=` and the source file's SHA-256 (hex). So the plan's key and the file's hash
  /// give it without cropjob (README, "Plan, run, re-run").
  public static func key(recipe: String, sourceHash: String, engine: String) -> String {
    key(recipeKey: recipeKey(recipe, engine: engine), sourceHash: sourceHash)
  }

  /// The output's key from the plan's `key` and the source's content hash.
  public static func key(recipeKey: String, sourceHash: String) -> String {
    var text = recipeKey
    text += "\nsource="
    text += sourceHash
    return text.withUTF8 { SHA256.hex($0) }
  }
}
