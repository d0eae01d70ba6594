import CropGeometry

/// The type of a value in a job file, as the schema and the reference describe it.
public indirect enum SchemaType: Sendable {
  /// A non-empty string; `pattern` (ECMA-262) must match the whole string.
  case string(pattern: String? = nil)
  case integer(ClosedRange<Int>)
  case number(ClosedRange<Double>)
  case boolean
  /// Exactly this integer (`version: 1`).
  case constant(Int)
  /// One of these strings.
  case choice([String])
  /// A list of values of one type.
  case list(SchemaType, minItems: Int = 1, maxItems: Int? = nil, unique: Bool = false)
  /// Exactly two numbers `[x, y]` in a range.
  case pair(ClosedRange<Double>)
  /// A named value type or mapping (`$defs`).
  case ref(String)
  /// Exactly one of several forms.
  case oneOf([SchemaType])
  /// A mapping from names matching `keyPattern` to values of one type.
  case map(keyPattern: String, value: SchemaType, minProperties: Int)
}

/// One key of a mapping in the job file.
public struct SchemaField: Sendable {
  public let name: String
  public let type: SchemaType
  public let description: String
  /// What the decoder uses when the key is absent (nil: nothing, or it is required).
  public let defaultValue: SchemaJSON?
  public let required: Bool
  /// For encoder keys: the formats the key has an effect on (nil: every format).
  public let formats: [OutputFormat]?

  init(
    _ name: String, _ type: SchemaType, _ description: String, default defaultValue: SchemaJSON? = nil,
    required: Bool = false, formats: [OutputFormat]? = nil
  ) {
    self.name = name
    self.type = type
    self.description = description
    self.defaultValue = defaultValue
    self.required = required
    self.formats = formats
  }
}

/// A rule across the keys of one mapping that JSON Schema can express.
public struct SchemaRule: Sendable {
  public let description: String
  public let schema: SchemaJSON
}

/// A mapping of the job file: its keys (the decoder rejects any other) and its rules.
public struct SchemaObject: Sendable {
  /// The `$defs` name, and the prefix of its fields in docs/job-file.md (`guide.shape`).
  public let name: String
  public let description: String
  public let fields: [SchemaField]
  public let rules: [SchemaRule]

  /// The keys the decoder knows, in the order the reference lists them.
  public var keys: [String] { fields.map(\.name) }

  public func field(_ name: String) -> SchemaField? { fields.first { $0.name == name } }
}

/// A named value type (`$defs`) used by several fields.
public struct SchemaValue: Sendable {
  public let name: String
  public let description: String
  public let type: SchemaType
}

/// A placeholder of output path templates.
public struct SchemaPlaceholder: Sendable {
  public let name: String
  public let description: String
}

/// The job file language in one table: every mapping, its keys, their types, ranges,
/// defaults and descriptions. `SpecDecoder` takes its known keys and ranges from here and
/// `cropjob schema` prints it as a JSON Schema, so the decoder, the schema and the
/// reference (checked by a test) cannot drift apart.
public enum JobSchema {
  // MARK: Ranges the decoder checks

  /// Largest guide or output side in pixels.
  public static let maxSide = 16384
  public static let sideRange = 1...maxSide
  public static let zoomRange = 0.2...5.0
  public static let offsetRange = -100_000.0...100_000.0
  public static let angleRange = -360.0...360.0
  public static let unitRange = 0.0...1.0
  public static let cropPositionRange = -1_000_000.0...1_000_000.0
  public static let cropSideRange = 1.0...1_000_000.0
  public static let scaleRange = 0.01...16.0
  public static let qualityRange = 1...100
  public static let compressionRange = 0...9
  public static let maxBytesRange = 100...(1 << 31)
  public static let colourRange = 0...255
  public static let maxPixelsRange = 1...(1 << 40)
  public static let maxFileBytesRange = 1...(1 << 40)
  public static let maxPagesRange = 1...100_000

  /// CPU effort: WebP 0...6, JPEG XL 1...9, AVIF/HEIF 0...9.
  public static func effortRange(_ format: OutputFormat) -> ClosedRange<Int> {
    switch format {
    case .webp: return 0...6
    case .jxl: return 1...9
    default: return 0...9
    }
  }

  // MARK: Names

  /// Job names: ASCII letters, digits, `-` and `_` (they appear in paths through `{job}`).
  public static let jobNamePattern = "^[A-Za-z0-9_-]+$"
  /// `"16:9"`: two positive decimal numbers.
  public static let aspectPattern = "^(?=[0-9.]*[1-9])[0-9]+(\\.[0-9]+)?:(?=[0-9.]*[1-9])[0-9]+(\\.[0-9]+)?$"
  public static let hexColourPattern = "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"

  public static let placeholders: [SchemaPlaceholder] = [
    SchemaPlaceholder(name: "job", description: "the job's name"),
    SchemaPlaceholder(name: "stem", description: "the source file's name without its extension (`IMG_0042`)"),
    SchemaPlaceholder(name: "name", description: "the source file's name with its extension (`IMG_0042.jpg`)"),
    SchemaPlaceholder(name: "ext", description: "the source file's extension, without the dot (`jpg`)"),
    SchemaPlaceholder(
      name: "dir",
      description:
        "the source's folder below the literal start of its pattern (`photos/**/*.jpg` and `photos/2024/a.jpg` give "
        + "`2024`); empty for files named directly"),
    SchemaPlaceholder(name: "width", description: "the output's width in pixels"),
    SchemaPlaceholder(name: "height", description: "the output's height in pixels"),
    SchemaPlaceholder(name: "scale", description: "the output's scale relative to the guide (`1`, `2`, `1.5`)"),
    SchemaPlaceholder(name: "format", description: "the output format's usual extension (`jpg`, `png`, `webp`, …)"),
  ]
  /// Placeholders that tell the sizes of one output entry apart.
  public static let sizePlaceholders = ["width", "height", "scale"]

  /// A path template: relative, no `..` segment, `{stem}` or `{name}` present, only known
  /// placeholders.
  public static var templatePattern: String {
    let names = placeholders.map(\.name).joined(separator: "|")
    return "^(?!/)(?!(.*/)?\\.\\.(/|$))(?=.*\\{(stem|name)\\})([^{]|\\{(\(names))\\})*$"
  }

  // MARK: Value types

  /// Focus names, their spellings and the smart strategies.
  public static let focusAliases = ["center": NamedPosition.centre, "middle": .centre]
  public static var focusNames: [String] {
    NamedPosition.allCases.map(\.rawValue) + focusAliases.keys.sorted() + SmartStrategy.allCases.map(\.rawValue)
  }
  public static let flipNames = ["horizontal", "vertical", "both", "none"]
  public static let colourNames: [String: [Double]] = [
    "white": [255, 255, 255, 255], "black": [0, 0, 0, 255], "transparent": [0, 0, 0, 0],
    "grey": [128, 128, 128, 255], "gray": [128, 128, 128, 255],
  ]
  public static let formatAliases: [String: OutputFormat] = ["jpg": .jpeg, "heic": .heif, "tif": .tiff]
  public static var formatNames: [String] {
    OutputFormat.allCases.map(\.rawValue) + formatAliases.keys.sorted()
  }
  public static let subsampleNames = ["auto", "4:2:0", "4:4:4"]

  public static let values: [SchemaValue] = [
    SchemaValue(
      name: "job_name", description: "A job's name: ASCII letters, digits, '-' and '_'.",
      type: .string(pattern: jobNamePattern)),
    SchemaValue(
      name: "patterns",
      description:
        "A file, a glob (`*`, `?`, `[abc]`, `**` for any depth) or a folder (every image below it), or a list of "
        + "them; relative to the job file's folder.",
      type: .oneOf([.string(), .list(.string())])),
    SchemaValue(
      name: "path_template",
      description:
        "An output path relative to the output root, with placeholders "
        + placeholders.map { "{\($0.name)}" }.joined(separator: " ")
        + "; it must contain {stem} or {name}, and may not be absolute or contain a `..` segment.",
      type: .string(pattern: templatePattern)),
    SchemaValue(
      name: "focus",
      description:
        "The source point put at the guide's centre: a named position, a smart strategy (attention: libvips' "
        + "saliency; entropy: the busiest region), or a normalised point [x, y] ([0, 0] is the photo's top-left).",
      type: .oneOf([.choice(focusNames), .pair(unitRange)])),
    SchemaValue(
      name: "flip",
      description:
        "Mirror the finished picture left-right (horizontal) and/or top-bottom (vertical): a name or a list.",
      type: .oneOf([.choice(flipNames), .list(.choice(flipNames), minItems: 0)])),
    SchemaValue(
      name: "colour",
      description:
        "A colour: \"#rgb\", \"#rgba\", \"#rrggbb\", \"#rrggbbaa\", a name, or [r, g, b] / [r, g, b, a] in 0...255.",
      type: .oneOf([
        .choice(colourNames.keys.sorted()), .string(pattern: hexColourPattern),
        .list(.integer(colourRange), minItems: 3, maxItems: 4),
      ])),
    SchemaValue(
      name: "metadata",
      description:
        "Which metadata outputs keep: strip (nothing), keep (everything), or a list of kinds. The orientation tag and "
        + "the EXIF thumbnail are never written.",
      type: .oneOf([
        .choice(["strip", "keep"]), .list(.choice(MetadataPolicy.Kind.allCases.map(\.rawValue)), minItems: 0),
      ])),
  ]

  // MARK: Mappings

  public static let file = SchemaObject(
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
        "overrides", .list(.ref("override"), minItems: 0),
        "Exact placements for single sources (e.g. saved from an interactive cropper); they win over the job's."),
    ],
    rules: [
      SchemaRule(
        description: "A job needs a guide unless defaults give one.",
        schema: [
          "if": ["properties": ["defaults": ["not": ["required": ["guide"]]]]],
          "then": ["properties": ["jobs": ["additionalProperties": ["required": ["guide"]]]]],
        ]),
      SchemaRule(
        description: "A job needs outputs unless defaults give them.",
        schema: [
          "if": ["properties": ["defaults": ["not": ["required": ["outputs"]]]]],
          "then": ["properties": ["jobs": ["additionalProperties": ["required": ["outputs"]]]]],
        ]),
    ])

  public static let limits = SchemaObject(
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

  /// `strip`, `keep`, or a list of `MetadataPolicy.Kind`s.
  static let metadataType = SchemaType.oneOf([
    .choice(["strip", "keep"]), .list(.choice(MetadataPolicy.Kind.allCases.map(\.rawValue)), unique: true),
  ])

  static let settingFields: [SchemaField] = [
    SchemaField("guide", .ref("guide"), "The crop frame: shape and size."),
    SchemaField("place", .ref("place"), "How each photo sits under the guide."),
    SchemaField("outputs", .list(.ref("output")), "The files written for each photo."),
    SchemaField("encode", .ref("encode"), "Encoder settings every output inherits, field by field."),
    SchemaField(
      "metadata", metadataType,
      "Which metadata outputs keep: strip (nothing), keep (everything), or a list of kinds; the orientation tag and the EXIF thumbnail are never written.",
      default: .string(MetadataPolicy.strip.description)),
  ]

  public static let defaults = SchemaObject(
    name: "defaults",
    description:
      "Settings inherited by every job: guide, place and encode field by field (a job giving any of size, width, "
      + "height or aspect replaces all four), outputs and metadata as a whole.",
    fields: settingFields, rules: [])

  public static let job = SchemaObject(
    name: "job",
    description: "One job: its photos (sources, or another job's outputs), the guide, the placement and the outputs.",
    fields: [
      SchemaField("sources", .ref("patterns"), "The photos: files, globs and folders, sorted and de-duplicated."),
      SchemaField("exclude", .ref("patterns"), "Patterns removed from sources; a bare name pattern matches anywhere."),
      SchemaField("from", .ref("job_name"), "Another job whose outputs are this job's sources."),
    ] + settingFields,
    rules: [
      SchemaRule(
        description: "Give sources or from, not both.",
        schema: ["oneOf": [["required": ["sources"]], ["required": ["from"]]]]),
      SchemaRule(description: "exclude filters sources.", schema: ["dependentRequired": ["exclude": ["sources"]]]),
    ])

  public static let guide = SchemaObject(
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
        description: "aspect with both width and height over-determines the guide.",
        schema: ["dependentSchemas": ["aspect": ["not": ["required": ["width", "height"]]]]]),
      SchemaRule(
        description: "Square and circle guides have no aspect.",
        schema: [
          "if": ["properties": ["shape": ["enum": ["square", "circle"]]], "required": ["shape"]],
          "then": ["not": ["required": ["aspect"]]],
        ]),
    ])

  static let placeFields: [SchemaField] = [
    SchemaField(
      "fit", .choice(Fit.allCases.map(\.rawValue)),
      "cover: the photo fills the guide; contain: the whole photo fits inside it; none: one guide pixel per source "
        + "pixel.",
      default: "cover"),
    SchemaField(
      "zoom", .number(zoomRange), "Scale after fit, about the focus point (the crop screens' pinch limits).",
      default: 1),
    SchemaField(
      "offset", .pair(offsetRange),
      "Drags the photo by [dx, dy] guide pixels, as on screen (right and down are positive).",
      default: [0, 0]),
    SchemaField("focus", .ref("focus"), "Which source point sits at the guide's centre.", default: "centre"),
    SchemaField(
      "rotate", .number(angleRange), "Rotation in degrees, clockwise, about the focus point.", default: 0),
    SchemaField(
      "flip", .ref("flip"), "Mirror the finished picture (applied last, about the guide's axes).", default: "none"),
    SchemaField(
      "crop", .ref("crop"),
      "An exact rectangle in source pixels (after EXIF orientation); replaces fit, zoom, focus, offset and rotate."),
    SchemaField(
      "overflow", .choice(Overflow.allCases.map(\.rawValue)),
      "Where the photo does not cover the guide: clamp moves it the least so that it does; fill leaves background; "
        + "shrink trims the output to the photo.",
      default: "clamp"),
    SchemaField(
      "background", .ref("colour"),
      "Fills uncovered pixels; default white for formats without alpha, transparent for formats with it."),
    SchemaField(
      "upscale", .boolean,
      "Whether outputs may have more pixels than the source region they show; false caps the output size.",
      default: true),
  ]

  /// Place fields an exact `crop` replaces.
  public static let cropExcludes = ["fit", "zoom", "focus", "offset", "rotate"]

  static let cropRule = SchemaRule(
    description: "crop replaces fit, zoom, focus, offset and rotate.",
    schema: ["dependentSchemas": ["crop": ["not": ["anyOf": .array(cropExcludes.map { ["required": [.string($0)]] })]]]]
  )

  public static let place = SchemaObject(
    name: "place",
    description: "How each photo sits under the guide, field by field over defaults.place.",
    fields: placeFields, rules: [cropRule])

  public static let crop = SchemaObject(
    name: "crop",
    description:
      "An exact crop rectangle in source pixels after EXIF orientation, as interactive croppers save it; its centre "
      + "and size are used, turned by angle about the centre.",
    fields: [
      SchemaField("x", .number(cropPositionRange), "Left edge.", required: true),
      SchemaField("y", .number(cropPositionRange), "Top edge.", required: true),
      SchemaField("width", .number(cropSideRange), "Width.", required: true),
      SchemaField("height", .number(cropSideRange), "Height.", required: true),
      SchemaField("angle", .number(angleRange), "Rotation in degrees, clockwise, about the centre.", default: 0),
    ],
    rules: [])

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
        "metadata", metadataType,
        "Which metadata this output keeps (over the job's and the defaults').", default: "strip"),
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
    ])

  static let lossy: [OutputFormat] = [.jpeg, .webp, .avif, .heif, .jxl]
  static let modern: [OutputFormat] = [.webp, .avif, .heif, .jxl]

  public static let encode = SchemaObject(
    name: "encode",
    description:
      "Encoder settings. The format comes from encode.format, else from the path's extension, else jpeg; a path's "
      + "extension wins over an inherited format.",
    fields: [
      SchemaField(
        "format", .choice(formatNames),
        "Output format (jpg, heic and tif are other names of jpeg, heif and tiff); it must agree with the path's "
          + "extension and this build of libvips must be able to write it (see `cropjob formats`)."),
      SchemaField(
        "quality", .integer(qualityRange), "Encoder quality (PNG: only with palette).", default: 85,
        formats: lossy + [.png]),
      SchemaField("lossless", .boolean, "Lossless compression.", default: false, formats: modern),
      SchemaField(
        "effort", .integer(0...9), "CPU effort: webp 0-6 (default 4), avif/heif 0-9 (default 4), jxl 1-9 (default 7).",
        formats: modern),
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
    ],
    rules: [
      SchemaRule(
        description: "WebP effort is 0-6.",
        schema: [
          "if": ["properties": ["format": ["const": "webp"]], "required": ["format"]],
          "then": ["properties": ["effort": ["maximum": 6]]],
        ]),
      SchemaRule(
        description: "JPEG XL effort is 1-9.",
        schema: [
          "if": ["properties": ["format": ["const": "jxl"]], "required": ["format"]],
          "then": ["properties": ["effort": ["minimum": 1]]],
        ]),
      SchemaRule(
        description: "A byte budget needs a quality to search: PNG only with palette.",
        schema: [
          "if": ["properties": ["format": ["const": "png"]], "required": ["format", "max_bytes"]],
          "then": ["properties": ["palette": ["const": true]], "required": ["palette"]],
        ]),
      SchemaRule(
        description: "A byte budget needs a quality to search: not TIFF.",
        schema: [
          "if": ["properties": ["format": ["enum": ["tiff", "tif"]]], "required": ["format"]],
          "then": ["not": ["required": ["max_bytes"]]],
        ]),
      SchemaRule(
        description: "A byte budget needs a quality to search: not lossless (except PNG with palette).",
        schema: [
          "if": ["properties": ["lossless": ["const": true]], "required": ["lossless", "max_bytes"]],
          "then": ["properties": ["format": ["const": "png"]]],
        ]),
    ])

  public static let override = SchemaObject(
    name: "override",
    description:
      "An exact placement for one source: crop or any place field, winning over the job's (over every job that "
      + "reads the source when job is not given). Later overrides win over earlier ones.",
    fields: [
      SchemaField("job", .ref("job_name"), "The job it applies to; every job that reads the source when absent."),
      SchemaField(
        "source", .string(), "The source path as the job reads it, relative to the job file's folder.",
        required: true),
    ] + placeFields,
    rules: [
      cropRule,
      SchemaRule(
        description: "An override sets crop or at least one place field.",
        schema: ["anyOf": .array(placeFields.map { ["required": [.string($0.name)]] })]),
    ])

  /// `; "zoom" is a key of place` when `key` belongs to other mappings than the one whose
  /// keys are `known` (a key written one level too high or too low), else "".
  public static func elsewhere(_ key: String, notIn known: [String]) -> String {
    let names = [
      "file": "the top level", "limits": "limits", "job": "a job", "guide": "guide", "place": "place",
      "crop": "place.crop", "output": "an output", "encode": "encode",
    ]
    let homes = objects.filter { $0.keys.contains(key) && $0.keys != known }.compactMap { names[$0.name] }
    guard !homes.isEmpty else { return "" }
    return "; \"\(key)\" is a key of " + homes.joined(separator: " or ")
  }

  /// Every mapping, in the order the schema and the reference list them.
  public static let objects: [SchemaObject] = [
    file, limits, defaults, job, guide, place, crop, output, encode, override,
  ]

  // MARK: JSON Schema

  /// The JSON Schema (draft 2020-12) of the job file.
  public static func json() -> SchemaJSON {
    var members: [SchemaJSON.Member] = [
      .init("$schema", "https://json-schema.org/draft/2020-12/schema"),
      .init("$id", "urn:cropjob:job-file:1"),
      .init("title", "cropjob job file"),
    ]
    if case .object(let root) = json(file) { members += root }
    var defs: [SchemaJSON.Member] = objects.dropFirst().map { .init($0.name, json($0)) }
    defs += values.map { value in
      var schema = json(value.type)
      schema.prepend("description", .string(value.description))
      return .init(value.name, schema)
    }
    members.append(.init("$defs", .object(defs)))
    return .object(members)
  }

  /// The schema as `cropjob schema` prints it.
  public static var text: String { json().rendered() + "\n" }

  static func json(_ object: SchemaObject) -> SchemaJSON {
    var members: [SchemaJSON.Member] = [.init("type", "object"), .init("description", .string(object.description))]
    let properties = object.fields.map { field -> SchemaJSON.Member in
      var schema = json(field.type)
      var description = field.description
      if let formats = field.formats {
        description += " Applies to: \(formats.map(\.rawValue).joined(separator: ", "))."
      }
      schema.prepend("description", .string(description))
      if let value = field.defaultValue { schema.append("default", value) }
      return .init(field.name, schema)
    }
    members.append(.init("properties", .object(properties)))
    let required = object.fields.filter(\.required).map { SchemaJSON.string($0.name) }
    if !required.isEmpty { members.append(.init("required", .array(required))) }
    members.append(.init("additionalProperties", false))
    if !object.rules.isEmpty {
      members.append(
        .init(
          "allOf",
          .array(
            object.rules.map { rule in
              var schema = rule.schema
              schema.prepend("description", .string(rule.description))
              return schema
            })))
    }
    return .object(members)
  }

  static func json(_ type: SchemaType) -> SchemaJSON {
    switch type {
    case .string(let pattern):
      var s: SchemaJSON = ["type": "string", "minLength": 1]
      if let pattern { s.append("pattern", .string(pattern)) }
      return s
    case .integer(let range):
      return ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)]
    case .number(let range):
      return ["type": "number", "minimum": .number(range.lowerBound), "maximum": .number(range.upperBound)]
    case .boolean:
      return ["type": "boolean"]
    case .constant(let value):
      return ["const": .int(value)]
    case .choice(let names):
      return ["type": "string", "enum": .array(names.map { .string($0) })]
    case .list(let item, let minItems, let maxItems, let unique):
      var s: SchemaJSON = ["type": "array", "items": json(item)]
      if minItems > 0 { s.append("minItems", .int(minItems)) }
      if let maxItems { s.append("maxItems", .int(maxItems)) }
      if unique { s.append("uniqueItems", true) }
      return s
    case .pair(let range):
      return ["type": "array", "items": json(.number(range)), "minItems": 2, "maxItems": 2]
    case .ref(let name):
      return ["$ref": .string("#/$defs/\(name)")]
    case .oneOf(let forms):
      return ["oneOf": .array(forms.map(json))]
    case .map(let keyPattern, let value, let minProperties):
      return [
        "type": "object", "propertyNames": ["pattern": .string(keyPattern)], "minProperties": .int(minProperties),
        "additionalProperties": json(value),
      ]
    }
  }
}

extension SchemaJSON {
  fileprivate mutating func prepend(_ key: String, _ value: SchemaJSON) {
    if case .object(let members) = self { self = .object([Member(key, value)] + members) }
  }

  fileprivate mutating func append(_ key: String, _ value: SchemaJSON) {
    if case .object(let members) = self { self = .object(members + [Member(key, value)]) }
  }
}
