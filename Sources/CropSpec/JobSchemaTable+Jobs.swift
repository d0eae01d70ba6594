import CropGeometry

/// The mappings of the top level, the limits, the defaults, the jobs and the guide.
extension JobSchema {
  package static let file = SchemaObject(
    name: "file",
    description: "A cropjob job file: which photos to take, how each sits under the guide, and which files to write.",
    fields: [
      SchemaField("version", .constant(1), "The job file language's version; always 1.", required: true),
      SchemaField(
        "output", .string(),
        "The output root, relative to the job file's folder (or absolute). Every output path resolves inside it.",
        required: true),
      SchemaField("limits", .ref("limits"), "Limits on each source, checked from its header before any decode."),
      SchemaField(
        "defaults", .ref("defaults"),
        "Settings every job inherits: guide, place and encode field by field, outputs and metadata as a whole."),
      SchemaField(
        "jobs", .map(keyPattern: jobNamePattern, value: .ref("job"), minProperties: 1),
        "The jobs, by name, in the order they are listed.", required: true),
      SchemaField(
        "overrides", .list(.ref("override"), minItems: 0, unique: true),
        "Exact placements for single sources (e.g. saved from an interactive cropper); they win over the job's."),
      SchemaField(
        "overrides_from", .oneOf([.string(pattern: cropTablePattern), .ref("crop_table")]),
        "A crop table: a CSV (.csv) or JSON Lines (.jsonl) file of overrides, one row per source, with the columns "
          + "of crop_table_row; relative to the job file's folder. Its rows apply before overrides, so an inline "
          + "override wins. The path alone, or a mapping with the path and how to read the table (crop_table)."),
    ],
    rules: [
      SchemaRule(
        description: "A job needs a guide with a size unless defaults give one.",
        schema: [
          "if": ["properties": ["defaults": ["not": ["required": ["guide"]]]]],
          "then": [
            "properties": [
              "jobs": [
                "additionalProperties": [
                  "required": ["guide"],
                  "properties": ["guide": ["anyOf": .array(guideSizeKeys.map { ["required": [.string($0)]] })]],
                ]
              ]
            ]
          ],
        ]),
      SchemaRule(
        description: "A job needs outputs unless defaults give them.",
        schema: [
          "if": ["properties": ["defaults": ["not": ["required": ["outputs"]]]]],
          "then": ["properties": ["jobs": ["additionalProperties": ["required": ["outputs"]]]]],
        ]),
    ])

  package static let limits = SchemaObject(
    name: "limits",
    description:
      "Limits checked from each source's header before any pixel is decoded; a source beyond one fails alone.",
    fields: [
      SchemaField(
        "max_pixels", .integer(maxPixelsRange), "Most pixels (width x height) a source may have.",
        default: .int(InputLimits().maxPixels)),
      SchemaField(
        "max_file_bytes", .integer(maxFileBytesRange), "Largest source file in bytes.",
        default: .int(InputLimits().maxFileBytes)),
      SchemaField(
        "max_pages", .integer(maxPagesRange), "Most pages or frames a source may have (only the first is used).",
        default: .int(InputLimits().maxPages)),
    ],
    rules: [])

  static let settingFields: [SchemaField] = [
    SchemaField("guide", .ref("guide"), "The crop frame: shape and size."),
    SchemaField("place", .ref("place"), "How each photo sits under the guide."),
    // Unique: two equal outputs would write the same files (the decoder's check is stronger:
    // no two outputs may share a path template).
    SchemaField("outputs", .list(.ref("output"), unique: true), "The files written for each photo."),
    SchemaField("encode", .ref("encode"), "Encoder settings every output inherits, field by field."),
    SchemaField(
      "metadata", .ref("metadata"),
      "Which metadata outputs keep: strip (nothing), keep (everything), or a list of kinds; the orientation tag and "
        + "the EXIF thumbnail are never written.",
      default: .string(MetadataPolicy.strip.description)),
    SchemaField("placeholders", placeholdersType, placeholdersDescription + " Every output inherits them as a whole."),
  ]

  package static let defaults = SchemaObject(
    name: "defaults",
    description:
      "Settings inherited by every job: guide, place and encode field by field (a job giving any of size, width, "
      + "height or aspect replaces all four), outputs and metadata as a whole.",
    fields: settingFields, rules: [])

  package static let job = SchemaObject(
    name: "job",
    description: "One job: its photos (sources, or another job's outputs), the guide, the placement and the outputs.",
    fields: [
      SchemaField("sources", .ref("patterns"), "The photos: files, globs and folders, sorted and de-duplicated."),
      SchemaField(
        "exclude", .oneOf([.string(), .list(.string(), minItems: 0)]),
        "Patterns removed from sources, like sources' (an empty list removes nothing); a bare name pattern matches "
          + "anywhere."),
      SchemaField("from", .ref("job_name"), "Another job whose outputs are this job's sources."),
      SchemaField(
        "allow_empty", .boolean,
        "Whether sources may match no file (a nightly folder that is sometimes empty or not there yet): then validate, "
          + "plan and run say so and succeed; otherwise a job that cannot produce anything is an error.",
        default: false),
    ] + settingFields + [
      SchemaField(
        "index", .ref("index"),
        "A delivery index of the job's outputs (HTML <picture> elements and JSON), written after them.")
    ],
    rules: [
      SchemaRule(
        description: "Give sources or from, not both.",
        schema: ["oneOf": [["required": ["sources"]], ["required": ["from"]]]]),
      SchemaRule(
        description: "exclude filters sources, and allow_empty concerns them.",
        schema: ["dependentRequired": ["exclude": ["sources"], "allow_empty": ["sources"]]]),
    ])

  /// The guide's keys that give it a size (`aspect` needs one of width and height).
  static let guideSizeKeys = ["size", "width", "height"]

  package static let guide = SchemaObject(
    name: "guide",
    description:
      "The crop frame. Its size: size (a square), width and height, or aspect with one of width and height.",
    fields: [
      SchemaField(
        "shape", .choice(GuideShape.allCases.map(\.rawValue)),
        "rect: any aspect; square: width = height; circle: a square whose corners are masked (transparent in "
          + "formats with alpha, else the background).",
        default: "rect"),
      SchemaField("size", .integer(sideRange), "Width and height in pixels, for a square frame."),
      SchemaField("width", .integer(sideRange), "Width in pixels."),
      SchemaField("height", .integer(sideRange), "Height in pixels."),
      SchemaField(
        "aspect", .string(pattern: aspectPattern),
        "Width to height as \"W:H\" (\"16:9\"), with one of width and height; rect guides only."),
    ],
    rules: [
      SchemaRule(
        description: "size excludes width, height and aspect.",
        schema: [
          "dependentSchemas": [
            "size": ["not": ["anyOf": [["required": ["width"]], ["required": ["height"]], ["required": ["aspect"]]]]]
          ]
        ]),
      SchemaRule(
        description:
          "aspect needs exactly one of width and height: alone it gives no size, with both it over-determines it.",
        schema: ["dependentSchemas": ["aspect": ["oneOf": [["required": ["width"]], ["required": ["height"]]]]]]),
      SchemaRule(
        description: "Square and circle guides have no aspect.",
        schema: [
          "if": ["properties": ["shape": ["enum": ["square", "circle"]]], "required": ["shape"]],
          "then": ["not": ["required": ["aspect"]]],
        ]),
    ])
}
