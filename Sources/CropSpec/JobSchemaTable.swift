import CropGeometry

/// The job file language in one table: every mapping, its keys, their types, ranges,
/// defaults, list rules and descriptions. `SpecDecoder` takes its known keys, ranges, list
/// rules and the defaults it fills in from here, and `cropjob schema` prints it as a JSON
/// Schema (`SchemaJSON.swift`), so the decoder, the schema and the reference (checked by a
/// test) cannot drift apart. The mappings are in `JobSchemaTable+Jobs.swift` (top level,
/// limits, defaults, jobs, guide), `+Place.swift` (place, crop, overrides),
/// `+Outputs.swift` (outputs, encode) and `+CropTable.swift` (the columns of a crop table,
/// which is not YAML and so not one of `objects`).
package enum JobSchema {
  // MARK: Ranges the decoder checks

  /// Largest guide or output side in pixels.
  package static let maxSide = 16384
  package static let sideRange = 1...maxSide
  package static let zoomRange = 0.2...5.0
  package static let offsetRange = -100_000.0...100_000.0
  package static let angleRange = -360.0...360.0
  package static let unitRange = 0.0...1.0
  /// `face_padding`: up to twice the box on each side (a box five times its size).
  package static let facePaddingRange = 0.0...2.0
  /// A focus point `[x, y]`.
  package static let pointType = SchemaType.pair(unitRange)
  package static let cropPositionRange = -1_000_000.0...1_000_000.0
  package static let cropSideRange = 1.0...1_000_000.0
  package static let scaleRange = 0.01...16.0
  package static let qualityRange = 1...100
  package static let compressionRange = 0...9
  package static let maxBytesRange = 100...(1 << 31)
  package static let colourRange = 0...255
  package static let maxPixelsRange = 1...(1 << 40)
  package static let maxFileBytesRange = 1...(1 << 40)
  package static let maxPagesRange = 1...100_000

  /// CPU effort as libvips' savers take it (webpsave 0-6, heifsave 0-9, jxlsave 1-9), with
  /// their defaults; `effort` is checked against the range of the output's format.
  static let effortRanges = [
    FormatRange(formats: [.webp], range: 0...6, defaultValue: 4),
    FormatRange(formats: [.avif, .heif], range: 0...9, defaultValue: 4),
    FormatRange(formats: [.jxl], range: 1...9, defaultValue: 7),
  ]

  /// CPU effort for `format` (for a format without effort: the union of the ranges).
  package static func effortRange(_ format: OutputFormat) -> ClosedRange<Int> {
    encode["effort"].integerRange(for: format)!
  }

  // MARK: Names

  /// Job names: ASCII letters, digits, `-` and `_` (they appear in paths through `{job}`).
  package static let jobNamePattern = "^[A-Za-z0-9_-]+$"
  /// `"16:9"`: two positive decimal numbers.
  package static let aspectPattern = "^(?=[0-9.]*[1-9])[0-9]+(\\.[0-9]+)?:(?=[0-9.]*[1-9])[0-9]+(\\.[0-9]+)?$"
  package static let hexColourPattern = "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"
  /// A crop table's file name: `.csv` or `.jsonl`, in any case.
  package static let cropTablePattern = "[^/]\\.([Cc][Ss][Vv]|[Jj][Ss][Oo][Nn][Ll])$"

  package static let placeholders: [SchemaPlaceholder] = [
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
  package static let sizePlaceholders = ["width", "height", "scale"]

  /// A path template: relative, no `..` segment, `{stem}` or `{name}` present, only known
  /// placeholders.
  package static var templatePattern: String {
    let names = placeholders.map(\.name).joined(separator: "|")
    return "^(?!/)(?!(.*/)?\\.\\.(/|$))(?=.*\\{(stem|name)\\})([^{]|\\{(\(names))\\})*$"
  }

  // MARK: Value types

  /// Focus names, their spellings and the smart strategies.
  package static let focusAliases = ["center": NamedPosition.centre, "middle": .centre]
  package static var focusNames: [String] {
    NamedPosition.allCases.map(\.rawValue) + focusAliases.keys.sorted() + SmartStrategy.allCases.map(\.rawValue)
      + BoxFinder.allCases.map(\.rawValue)
  }
  package static let flipNames = ["horizontal", "vertical", "both", "none"]
  package static let colourNames: [String: [Double]] = [
    "white": [255, 255, 255, 255], "black": [0, 0, 0, 255], "transparent": [0, 0, 0, 0],
    "grey": [128, 128, 128, 255], "gray": [128, 128, 128, 255],
  ]
  package static let formatAliases: [String: OutputFormat] = ["jpg": .jpeg, "heic": .heif, "tif": .tiff]
  package static var formatNames: [String] {
    OutputFormat.allCases.map(\.rawValue) + formatAliases.keys.sorted()
  }
  /// The names `format` may be written as in `encode.format` (`heif`, `heic`).
  package static func names(of format: OutputFormat) -> [String] {
    [format.rawValue] + formatAliases.filter { $0.value == format }.keys.sorted()
  }
  /// The path extensions that choose a format (the path's extension wins over an inherited
  /// `encode.format`).
  package static let extensionFormats: [String: OutputFormat] = [
    "jpg": .jpeg, "jpeg": .jpeg, "png": .png, "webp": .webp, "avif": .avif, "heic": .heif, "heif": .heif,
    "jxl": .jxl, "tif": .tiff, "tiff": .tiff, "gif": .gif,
  ]
  package static let subsampleNames = ["auto", "4:2:0", "4:4:4"]
  /// The metadata policies with a name (`strip`, `keep`); the others are lists of kinds.
  package static let namedMetadataPolicies: [MetadataPolicy] = [.strip, .keep]

  package static let values: [SchemaValue] = [
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
        + "saliency; entropy: the busiest region), faces (found by the face detector), regions (stored in the "
        + "photo), or a normalised point [x, y] ([0, 0] is the photo's top-left); or a list tried in order, "
        + "faces and regions first, each once, ending with at most one other strategy (default attention).",
      type: .oneOf([
        .choice(focusNames), .pair(unitRange),
        .ordered(
          .list(
            .oneOf([.choice(focusNames), .pair(unitRange)]), minItems: 1, maxItems: BoxFinder.allCases.count + 1,
            unique: true),
          leading: BoxFinder.allCases.map(\.rawValue)),
      ])),
    SchemaValue(
      name: "region_types",
      description: "A region type (face, pet, focus, barcode) or a list of them, each once.",
      type: .oneOf([
        .choice(RegionType.allCases.map(\.rawValue)),
        .list(.choice(RegionType.allCases.map(\.rawValue)), minItems: 1, unique: true),
      ])),
    SchemaValue(
      name: "flip",
      description:
        "Mirror the finished picture left-right (horizontal) and/or top-bottom (vertical): a name or a list, each "
        + "name once ([] mirrors nothing, as none).",
      type: .oneOf([.choice(flipNames), .list(.choice(flipNames), minItems: 0, unique: true)])),
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
        "Which metadata outputs keep: strip (nothing), keep (everything), or a list of kinds, each kind once ([] "
        + "keeps nothing, as strip). The orientation tag and the EXIF thumbnail are never written.",
      type: .oneOf([
        .choice(namedMetadataPolicies.map(\.description)),
        .list(.choice(MetadataPolicy.Kind.allCases.map(\.rawValue)), minItems: 0, unique: true),
      ])),
  ]

  /// The named value type `name` (`$defs`), if there is one.
  package static func value(_ name: String) -> SchemaValue? { values.first { $0.name == name } }

  /// `; "zoom" is a key of place` when `key` belongs to other mappings than the one whose
  /// keys are `known` (a key written one level too high or too low), else "".
  package static func elsewhere(_ key: String, notIn known: [String]) -> String {
    let names = [
      "file": "the top level", "limits": "limits", "job": "a job", "guide": "guide", "place": "place",
      "crop": "place.crop", "output": "an output", "encode": "encode", "target": "encode.target",
      "crop_table": "overrides_from",
      "placeholders": "placeholders", "index": "a job's index",
    ]
    let homes = objects.filter { $0.keys.contains(key) && $0.keys != known }.compactMap { names[$0.name] }
    guard !homes.isEmpty else { return "" }
    return "; \"\(key)\" is a key of " + homes.joined(separator: " or ")
  }

  /// Every mapping, in the order the schema and the reference list them.
  package static let objects: [SchemaObject] = [
    file, limits, defaults, job, index, guide, place, crop, output, encode, target, placeholderSettings, override,
    cropTableSettings,
  ]
}
