import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// The identity of an output: a re-run skips it when its key is unchanged.
/// recipe key = sha256("cropjob <version>\nlibvips <version>\n<recipe>");
/// key = sha256("<recipe key>\nsource=<the source's sha256>").
package enum OutputKey {
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
    // The lines joined by "\n", their bytes gathered in one buffer (no array of lines, no
    // string appends).
    var text: [UInt8] = []
    text.reserveCapacity(
      path.utf8.count + parts.guide.utf8.count + parts.place.utf8.count + parts.transform.utf8.count
        + parts.tail.utf8.count + 96 + (placeholders?.recipe.utf8.count ?? 0))
    text += "path=".utf8
    text += path.utf8
    text += "\nguide=".utf8
    text += parts.guide.utf8
    text += "\nplace=".utf8
    text += parts.place.utf8
    text += "\nscale=".utf8
    text += outputScale.description.utf8
    text += "\nsize=".utf8
    text += String(geometry.outputSize.width).utf8
    text += "x".utf8
    text += String(geometry.outputSize.height).utf8
    text += "\ntransform=".utf8
    text += parts.transform.utf8
    text += "\n".utf8
    text += parts.tail.utf8
    if let placeholders {
      // Only when asked for, so that the keys of outputs without placeholders stay as they
      // were: asking for them makes the output again, with its record.
      text += "\nplaceholders=".utf8
      text += placeholders.recipe.utf8
    }
    return String(decoding: text, as: UTF8.self)
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
  package static func recipeKey(_ recipe: String, engine: String) -> String {
    // The bytes gathered straight into one buffer (no interpolated string on the way).
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32 + CropKitVersion.string.utf8.count + engine.utf8.count + recipe.utf8.count)
    bytes += "cropjob ".utf8
    bytes += CropKitVersion.string.utf8
    bytes += "\nlibvips ".utf8
    bytes += engine.utf8
    bytes += "\n".utf8
    bytes += recipe.utf8
    return SHA256.hex(bytes)
  }

  /// The output's key, which the manifest and the state hold: the SHA-256 (hex) of the
  /// recipe's key (`recipeKey`, what `plan --format json` prints as `key`), a newline,
  /// `source=` and the source file's SHA-256 (hex). So the plan's key and the file's hash
  /// give it without cropjob (README, "Plan, run, re-run").
  package static func key(recipe: String, sourceHash: String, engine: String) -> String {
    key(recipeKey: recipeKey(recipe, engine: engine), sourceHash: sourceHash)
  }

  /// The output's key from the plan's `key` and the source's content hash.
  package static func key(recipeKey: String, sourceHash: String) -> String {
    var text = recipeKey
    text += "\nsource="
    text += sourceHash
    return text.withUTF8 { SHA256.hex($0) }
  }
}
