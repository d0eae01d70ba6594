/// The mappings of the outputs and their encoder settings.
extension JobSchema {
  package static let output = SchemaObject(
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
      SchemaField("placeholders", placeholdersType, placeholdersDescription + " Over the job's and the defaults'."),
      SchemaField(
        "cache_control", .string(),
        "The Cache-Control stored with each object written to an s3:// output, e.g. "
          + "\"public, max-age=31536000, immutable\" (local files have none)."),
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
    ] + extensionRangeRules(encodeFields, path: "path", encode: "encode") + extensionFormatRules()
      + extensionBudgetRules() + [framesRule()])

  /// An output's own `encode.frames: all` needs a format that animates, by its path's
  /// extension or its own `encode.format`.
  static func framesRule() -> SchemaRule {
    let animating = OutputFormat.allCases.filter(\.animates)
    let extensions = extensionFormats.filter { animating.contains($0.value) }.keys.sorted()
    return SchemaRule(
      description:
        "frames: all in an output's encode needs a format that animates "
        + "(\(alternatives(animating.map(\.rawValue)))).",
      schema: [
        "if": [
          "properties": ["encode": ["properties": ["frames": ["const": "all"]], "required": ["frames"]]],
          "required": ["encode"],
        ],
        "then": [
          "anyOf": [
            ["properties": ["path": ["pattern": .string(extensionPattern(extensions))]]],
            [
              "properties": [
                "encode": ["properties": ["format": ["enum": formatEnum(animating)]], "required": ["format"]]
              ]
            ],
          ]
        ],
      ])
  }

  static let lossy: [OutputFormat] = [.jpeg, .webp, .avif, .heif, .jxl]
  /// Formats a byte budget cannot search (no quality to lower).
  package static let budgetlessFormats: [OutputFormat] = [.tiff, .gif]
  /// Formats whose byte budget needs `palette: true` (the only way they have a quality).
  package static let paletteBudgetFormats: [OutputFormat] = [.png]

  /// Why `format` with these settings cannot have a byte budget, or nil when it can: the
  /// decoder's check and the schema's rules (`extensionBudgetRules`, the encode rules) are
  /// both this table.
  package static func budgetProblem(_ format: OutputFormat, palette: Bool, lossless: Bool) -> String? {
    if budgetlessFormats.contains(format) { return format.rawValue }
    if paletteBudgetFormats.contains(format) { return palette ? nil : "\(format.rawValue) without palette: true" }
    return lossless ? "lossless \(format.rawValue)" : nil
  }

  /// An output whose path's extension names a format: its own `encode.format`, if given,
  /// names the same format (the decoder's "agrees with the path's extension").
  static func extensionFormatRules() -> [SchemaRule] {
    OutputFormat.allCases.compactMap { format in
      let extensions = extensionFormats.filter { $0.value == format }.keys.sorted()
      guard !extensions.isEmpty else { return nil }
      return SchemaRule(
        description:
          "A path ending in \(alternatives(extensions.map { "." + $0 })) writes \(format.rawValue): its encode.format "
          + "agrees.",
        schema: [
          "if": ["properties": ["path": ["pattern": .string(extensionPattern(extensions))]], "required": ["path"]],
          "then": ["properties": ["encode": ["properties": ["format": ["enum": formatEnum([format])]]]]],
        ])
    }
  }

  /// The byte budget rules of `budgetProblem` for an output whose format is its path's
  /// extension (an encode naming its format is held by the encode rules).
  static func extensionBudgetRules() -> [SchemaRule] {
    func pathIs(_ formats: [OutputFormat]) -> SchemaJSON {
      let extensions = extensionFormats.filter { formats.contains($0.value) }.keys.sorted()
      return ["properties": ["path": ["pattern": .string(extensionPattern(extensions))]], "required": ["path"]]
    }
    let budgetless = budgetlessFormats.map(\.rawValue)
    let palette = paletteBudgetFormats.map(\.rawValue)
    return [
      SchemaRule(
        description: "A byte budget needs a quality to search: not \(alternatives(budgetless)) by its extension.",
        schema: [
          "if": pathIs(budgetlessFormats),
          "then": ["properties": ["encode": ["not": ["required": ["max_bytes"]]]]],
        ]),
      SchemaRule(
        description:
          "A byte budget needs a quality to search: \(alternatives(palette)) by its extension only with palette.",
        schema: [
          "if": [
            "allOf": [pathIs(paletteBudgetFormats), ["properties": ["encode": ["required": ["max_bytes"]]]]]
          ],
          "then": ["properties": ["encode": ["properties": ["palette": ["const": true]], "required": ["palette"]]]],
        ]),
      SchemaRule(
        description:
          "A byte budget needs a quality to search: not lossless, unless the format is \(alternatives(palette)).",
        schema: [
          "if": [
            "properties": [
              "encode": ["properties": ["lossless": ["const": true]], "required": ["lossless", "max_bytes"]]
            ],
            "required": ["encode"],
          ],
          "then": [
            "anyOf": [
              pathIs(paletteBudgetFormats),
              [
                "properties": [
                  "encode": [
                    "properties": ["format": ["enum": formatEnum(paletteBudgetFormats)]], "required": ["format"],
                  ]
                ]
              ],
            ]
          ],
        ]),
    ]
  }
  static let modern: [OutputFormat] = [.webp, .avif, .heif, .jxl]

  static let encodeFields: [SchemaField] = [
    SchemaField(
      "format", .choice(formatNames),
      "Output format (jpg, heic and tif are other names of jpeg, heif and tiff); it must agree with the path's "
        + "extension and this build of libvips must be able to write it (see `cropjob formats`)."),
    SchemaField(
      "quality", .integer(qualityRange),
      "Encoder quality (PNG: only with palette). Default per format (sharp's): "
        + OutputFormat.allCases.filter { (lossy + [.png]).contains($0) }.map { "\($0.rawValue) \($0.defaultQuality)" }
        .joined(separator: ", ") + ".",
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
      "target", .ref("target"),
      "A perceptual quality target: the lowest quality from min_quality to quality whose file reaches it against "
        + "the output's own uncompressed pixels, by bisection (with max_bytes, within the budget: the budget wins). "
        + "Where even quality does not reach it, the output is written at quality (or the budget's) and its note "
        + "says so. Needs a lossy jpeg, webp or avif output.",
      formats: QualityTarget.formats),
    SchemaField(
      "colour", .choice(ColourPolicy.allCases.map(\.rawValue)),
      "Colour space of the output's pixels: srgb converts through the source's ICC profile (CMYK and wide gamut "
        + "included; untagged sources are taken as sRGB); keep leaves RGB pixels in the source's colour space and "
        + "embeds its ICC profile whatever metadata says (CMYK, greyscale and Lab sources are still converted to "
        + "sRGB). Background colours are numbers in the output's colour space.",
      default: "srgb"),
    SchemaField(
      "frames", .choice(FramesPolicy.allCases.map(\.rawValue)),
      "Which frames of an animated GIF or WebP source the output holds: first (a still image), or all (an "
        + "animation: every frame placed the same way, with the source's frame delays and loop count). all needs "
        + "a format that animates (\(alternatives(OutputFormat.allCases.filter(\.animates).map(\.rawValue)))); "
        + "inherited from defaults or the job, it leaves the other outputs at the first frame.",
      default: "first"),
    SchemaField("progressive", .boolean, "Progressive (interlaced) JPEG.", default: false, formats: [.jpeg]),
    SchemaField(
      "subsample", .choice(subsampleNames),
      "JPEG chroma subsampling; auto is libvips' choice (4:2:0 below quality 90).", default: "auto",
      formats: [.jpeg]),
    SchemaField(
      "compression", .integer(compressionRange), "PNG zlib level (rows filtered adaptively from 1 up).", default: 2,
      formats: [.png]),
    SchemaField(
      "palette", .boolean, "Quantise PNG to a palette (then quality and max_bytes apply).", default: false,
      formats: [.png]),
  ]

  package static let encode = SchemaObject(
    name: "encode",
    description:
      "Encoder settings. The format comes from encode.format, else from the path's extension, else jpeg; a path's "
      + "extension wins over an inherited format.",
    fields: encodeFields,
    rules: formatRangeRules(encodeFields) + [
      SchemaRule(
        description:
          "A byte budget needs a quality to search: \(alternatives(paletteBudgetFormats.map(\.rawValue))) only with "
          + "palette.",
        schema: [
          "if": [
            "properties": ["format": ["enum": formatEnum(paletteBudgetFormats)]], "required": ["format", "max_bytes"],
          ],
          "then": ["properties": ["palette": ["const": true]], "required": ["palette"]],
        ]),
      SchemaRule(
        description: "A byte budget needs a quality to search: not \(alternatives(budgetlessFormats.map(\.rawValue))).",
        schema: [
          "if": ["properties": ["format": ["enum": formatEnum(budgetlessFormats)]], "required": ["format"]],
          "then": ["not": ["required": ["max_bytes"]]],
        ]),
      SchemaRule(
        description:
          "A byte budget needs a quality to search: not lossless (except "
          + "\(alternatives(paletteBudgetFormats.map(\.rawValue))) with palette).",
        schema: [
          "if": ["properties": ["lossless": ["const": true]], "required": ["lossless", "max_bytes"]],
          "then": ["properties": ["format": ["enum": formatEnum(paletteBudgetFormats)]]],
        ]),
    ])

  /// `encode.target`: what the quality search must reach.
  package static let target = SchemaObject(
    name: "target",
    description:
      "A perceptual quality target for the quality search (docs/job-file.md, \"Perceptual quality target\").",
    fields: [
      SchemaField(
        "ssim", .number(unitRange),
        "SSIM on luma (11x11 Gaussian windows, σ 1.5) of the decoded file against the output's uncompressed "
          + "pixels, 0…1; 0.98 is hard to tell apart at 1x.",
        required: true)
    ],
    rules: [])
}
