/// The mappings of the outputs and their encoder settings.
extension JobSchema {
  public static let output = SchemaObject(
    name: "output",
    description:
      "One output entry: a path template and one or more sizes, each written for every photo of the job.",
    fields: [
      SchemaField(
        "path", .ref("path_template"),
        "Where to write, relative to the output root; its extension picks the format unless encode.format says.",
        required: true),
      SchemaField("size", .integer(sideRange), "One output width in pixels (the height follows the guide's aspect)."),
      SchemaField(
        "scales", .list(.number(scaleRange), unique: true),
        "Multiples of the guide size, e.g. [1, 2, 3] for @1x @2x @3x.", default: [1]),
      SchemaField(
        "widths", .list(.integer(sideRange), unique: true),
        "Output widths in pixels (heights follow the guide's aspect)."),
      SchemaField(
        "encode", .ref("encode"), "Encoder settings, field by field over the job's and the defaults' encode."),
      SchemaField(
        "metadata", .ref("metadata"), "Which metadata this output keeps (over the job's and the defaults').",
        default: "strip"),
    ],
    rules: [
      SchemaRule(
        description: "Use one of size, scales and widths.",
        schema: [
          "dependentSchemas": [
            "size": ["not": ["anyOf": [["required": ["scales"]], ["required": ["widths"]]]]],
            "scales": ["not": ["required": ["widths"]]],
          ]
        ]),
      SchemaRule(
        description: "Several sizes need {width}, {height} or {scale} in the path.",
        schema: [
          "anyOf": [
            ["properties": ["scales": ["maxItems": 1], "widths": ["maxItems": 1]]],
            ["properties": ["path": ["pattern": "\\{(width|height|scale)\\}"]]],
          ]
        ]),
    ] + extensionRangeRules(encodeFields, path: "path", encode: "encode"))

  static let lossy: [OutputFormat] = [.jpeg, .webp, .avif, .heif, .jxl]
  static let modern: [OutputFormat] = [.webp, .avif, .heif, .jxl]

  static let encodeFields: [SchemaField] = [
    SchemaField(
      "format", .choice(formatNames),
      "Output format (jpg, heic and tif are other names of jpeg, heif and tiff); it must agree with the path's "
        + "extension and this build of libvips must be able to write it (see `cropjob formats`)."),
    SchemaField(
      "quality", .integer(qualityRange), "Encoder quality (PNG: only with palette).", default: 85,
      formats: lossy + [.png]),
    SchemaField("lossless", .boolean, "Lossless compression.", default: false, formats: modern),
    .perFormat("effort", effortRanges, "CPU effort"),
    SchemaField(
      "max_bytes", .integer(maxBytesRange),
      "Largest file allowed: the highest quality from min_quality to quality that fits is found by bisection; "
        + "an output that does not fit even at min_quality fails. Needs a lossy format (or png with palette).",
      formats: lossy + [.png]),
    SchemaField(
      "min_quality", .integer(qualityRange), "Lowest quality the max_bytes search may use.", default: 30,
      formats: lossy + [.png]),
    SchemaField(
      "over_budget", .choice(OverBudget.allCases.map(\.rawValue)),
      "What an output that does not fit max_bytes even at min_quality does: fail (nothing is written), or shrink: "
        + "it is written at min_quality at the largest pixel size, same aspect, whose file fits (found by "
        + "bisection; the manifest records the size written).",
      default: "fail", formats: lossy + [.png]),
    SchemaField(
      "colour", .choice(ColourPolicy.allCases.map(\.rawValue)),
      "Colour space of the output's pixels: srgb converts through the source's ICC profile (CMYK and wide gamut "
        + "included; untagged sources are taken as sRGB); keep leaves RGB pixels in the source's colour space and "
        + "embeds its ICC profile whatever metadata says (CMYK, greyscale and Lab sources are still converted to "
        + "sRGB). Background colours are numbers in the output's colour space.",
      default: "srgb"),
    SchemaField("progressive", .boolean, "Progressive (interlaced) JPEG.", default: false, formats: [.jpeg]),
    SchemaField(
      "subsample", .choice(subsampleNames),
      "JPEG chroma subsampling; auto is libvips' choice (4:2:0 below quality 90).", default: "auto",
      formats: [.jpeg]),
    SchemaField("compression", .integer(compressionRange), "PNG zlib level.", default: 6, formats: [.png]),
    SchemaField(
      "palette", .boolean, "Quantise PNG to a palette (then quality and max_bytes apply).", default: false,
      formats: [.png]),
  ]

  public static let encode = SchemaObject(
    name: "encode",
    description:
      "Encoder settings. The format comes from encode.format, else from the path's extension, else jpeg; a path's "
      + "extension wins over an inherited format.",
    fields: encodeFields,
    rules: formatRangeRules(encodeFields) + [
      SchemaRule(
        description: "A byte budget needs a quality to search: PNG only with palette.",
        schema: [
          "if": ["properties": ["format": ["const": "png"]], "required": ["format", "max_bytes"]],
          "then": ["properties": ["palette": ["const": true]], "required": ["palette"]],
        ]),
      SchemaRule(
        description: "A byte budget needs a quality to search: not TIFF.",
        schema: [
          "if": ["properties": ["format": ["enum": formatEnum([.tiff])]], "required": ["format"]],
          "then": ["not": ["required": ["max_bytes"]]],
        ]),
      SchemaRule(
        description: "A byte budget needs a quality to search: not lossless (except PNG with palette).",
        schema: [
          "if": ["properties": ["lossless": ["const": true]], "required": ["lossless", "max_bytes"]],
          "then": ["properties": ["format": ["const": "png"]]],
        ]),
    ])
}
