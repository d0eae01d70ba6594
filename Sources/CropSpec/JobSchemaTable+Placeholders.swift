/// The placeholders recorded beside each output (`placeholders:`).
extension JobSchema {
  package static let placeholderKindNames = PlaceholderKind.allCases.map(\.rawValue)
  /// BlurHash components a side, as the algorithm allows.
  package static let blurhashComponentRange = 1...9
  /// The LQIP's longer side: with at most 32 pixels its data URI stays under 1 kB.
  package static let lqipSizeRange = 4...32

  /// `placeholders:` as a list of kinds (their default settings) or as a mapping.
  static let placeholdersType = SchemaType.oneOf([
    .list(.choice(placeholderKindNames), minItems: 0, unique: true), .ref("placeholders"),
  ])

  package static let placeholderSettings = SchemaObject(
    name: "placeholders",
    description:
      "Placeholders computed from each output's own pixels and recorded in the manifest and the state, for pages "
      + "to show while the file loads: the kinds, and their settings.",
    fields: [
      SchemaField(
        "kinds", .list(.choice(placeholderKindNames), minItems: 0, unique: true),
        "Which placeholders: blurhash (a BlurHash string), thumbhash (a ThumbHash, base64), dominant (the dominant "
          + "colour, #rrggbb), lqip (a tiny image as a data URI, under 1 kB); each once ([] computes none).",
        required: true),
      SchemaField(
        "blurhash_components", .list(.integer(blurhashComponentRange), minItems: 2, maxItems: 2),
        "BlurHash components [across, down], 1-9 each.",
        default: [.int(PlaceholderSpec.defaultBlurhash.x), .int(PlaceholderSpec.defaultBlurhash.y)]),
      SchemaField(
        "lqip_size", .integer(lqipSizeRange),
        "The LQIP's longer side in pixels (the other follows the output's aspect).",
        default: .int(PlaceholderSpec.defaultLQIPSize)),
      SchemaField(
        "lqip_format", .choice(LQIPFormat.allCases.map(\.rawValue)),
        "The LQIP's format: webp (keeps transparency) or jpeg.",
        default: .string(PlaceholderSpec.defaultLQIPFormat.rawValue)),
    ],
    rules: [])

  static let placeholdersDescription =
    "Placeholders recorded beside each file (manifest and state): a list of kinds (blurhash, thumbhash, dominant, "
    + "lqip) with their default settings, or a mapping with the kinds and settings; none by default."
}
