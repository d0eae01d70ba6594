import CropGeometry

/// The columns of a crop table (`overrides_from`): one row is one override, its cells the
/// fields of an exact crop and of the place fields a cropper saves, flattened. The reader
/// knows exactly these columns, and `cropjob schema` prints them as `$defs/crop_table_row`,
/// the schema of one JSON Lines row.
extension JobSchema {
  /// The crop rectangle's columns, as the keys of `crop`.
  package static let cropTableCropColumns = ["x", "y", "width", "height", "angle"]
  /// Columns that come in pairs, as the `[x, y]` place field they make.
  package static let cropTablePairs = [("focus_x", "focus_y", "focus"), ("offset_x", "offset_y", "offset")]
  /// Columns that hold a job name or a path (CSV cells there are strings, never numbers).
  package static let cropTableTextColumns = ["source", "job"]

  /// Columns of a crop in the frames of croppers: the mirrors before the turn. They hold no
  /// value of the fast decoder's layout: a row that sets one is read by the general decoder.
  package static let cropTableFrameColumns = ["flip", "scaleX", "scaleY"]
  /// `scaleX` and `scaleY`: 1, or -1 for a mirror (Cropper.js's values).
  package static let mirrorScale = SchemaType.oneOf([.constant(1), .constant(-1)])
  /// The range of `x, y` and of `width, height` in each of a table's units.
  package static func cropTableRange(_ key: String, units: CropUnits) -> ClosedRange<Double> {
    let side = key == "width" || key == "height"
    switch units {
    case .pixels: return side ? cropSideRange : cropPositionRange
    case .relative: return side ? 0.0001...10 : -10...10
    case .percent: return side ? 0.01...1000 : -1000...1000
    }
  }

  /// `overrides_from` as a mapping: the table's path and how to read it.
  package static let cropTableSettings = SchemaObject(
    name: "crop_table",
    description:
      "A crop table and how to read it: the frame and units its crops are in (as the cropper that saved them "
      + "measures), what a bad row does, and whether every photo needs a row and every row a photo.",
    fields: [
      SchemaField(
        "path", .string(pattern: cropTablePattern),
        "The table: a .csv or .jsonl file, relative to the job file's folder.", required: true),
      SchemaField(
        "frame", .choice(CropFrame.allCases.map(\.rawValue)),
        "The frame of the crops: upright (cropjob's: x, y in the upright photo, angle about the crop's centre), "
          + "cropperjs (Cropper.js getData(): x, y in the box of the turned image, rotate, scaleX, scaleY) or "
          + "react-easy-crop (croppedAreaPixels, or croppedArea with units percent, and rotate, flip).",
        default: .string(CropFrame.upright.rawValue)),
      SchemaField(
        "check_orientation", .boolean,
        "With frame cropperjs: whether Cropper.js ran with checkOrientation (its default), which folds a JPEG's "
          + "EXIF orientation into rotate, scaleX and scaleY.", default: true),
      SchemaField(
        "units", .choice(CropUnits.allCases.map(\.rawValue)),
        "What x, y, width and height count: pixels, relative (0 to 1 of the frame's width and height) or percent "
          + "(0 to 100).", default: .string(CropUnits.pixels.rawValue)),
      SchemaField(
        "on_error", .choice(CropTableSettings.OnError.allCases.map(\.rawValue)),
        "fail-job: a bad row makes the job file invalid; fail-row: its problems are warnings and its source fails, "
          + "the others run.", default: .string(CropTableSettings.OnError.failJob.rawValue)),
      SchemaField(
        "require_crop", .boolean, "Whether a photo a job reads from its sources fails without a row.",
        default: false),
      SchemaField(
        "on_unmatched_row", .choice(CropTableSettings.OnUnmatchedRow.allCases.map(\.rawValue)),
        "warn: rows that match no photo are one warning; error: they are an error and nothing runs.",
        default: .string(CropTableSettings.OnUnmatchedRow.warn.rawValue)),
    ],
    rules: [
      SchemaRule(
        description: "check_orientation is Cropper.js's option: it needs frame cropperjs.",
        schema: [
          "dependentSchemas": [
            "check_orientation": ["required": ["frame"], "properties": ["frame": ["const": "cropperjs"]]]
          ]
        ])
    ])

  package static let cropTable = SchemaObject(
    name: "crop_table_row",
    description:
      "One row of a crop table (overrides_from): one override, flattened. In CSV the header names the columns, in "
      + "any order, and an empty cell is not set; in JSON Lines each line is an object of these keys (leave a key "
      + "out to not set it). x, y, width and height (with angle) are an exact crop; focus_x and focus_y, and "
      + "offset_x and offset_y, go in pairs.",
    fields: [
      SchemaField(
        "source", .string(), "The source path as the job reads it, relative to the job file's folder.",
        required: true),
      SchemaField("job", .ref("job_name"), "The job it applies to; every job that reads the source when absent."),
      SchemaField("x", tableCropType("x"), "The crop's left edge, in the table's frame and units (crop.x)."),
      SchemaField("y", tableCropType("y"), "The crop's top edge (crop.y)."),
      SchemaField("width", tableCropType("width"), "The crop's width (crop.width)."),
      SchemaField("height", tableCropType("height"), "The crop's height (crop.height)."),
      SchemaField(
        "angle", crop["angle"].type,
        "The crop's rotation in degrees, clockwise, about its centre (crop.angle); frame upright only.",
        default: crop["angle"].defaultValue),
      SchemaField("zoom", place["zoom"].type, "Scale after fit, about the focus point (place.zoom)."),
      SchemaField("focus_x", .number(unitRange), "The focus point's x, 0 (left) to 1 (right) (place.focus)."),
      SchemaField("focus_y", .number(unitRange), "The focus point's y, 0 (top) to 1 (bottom) (place.focus)."),
      SchemaField("offset_x", .number(offsetRange), "Drags the photo right by this many guide pixels (place.offset)."),
      SchemaField("offset_y", .number(offsetRange), "Drags the photo down by this many guide pixels (place.offset)."),
      SchemaField(
        "rotate", place["rotate"].type,
        "Rotation in degrees, clockwise: about the focus point (place.rotate) in frame upright; in a cropper's "
          + "frame, the cropper's rotation of the image (Cropper.js rotate, react-easy-crop rotation)."),
      SchemaField(
        "flip", .choice(flipNames),
        "Mirror: of the output (place.flip) in frame upright; of the image before it is turned in a cropper's frame "
          + "(react-easy-crop's flip)."),
      SchemaField("scaleX", mirrorScale, "Cropper.js scaleX: -1 mirrors the image left-right before it is turned."),
      SchemaField("scaleY", mirrorScale, "Cropper.js scaleY: -1 mirrors the image top-bottom before it is turned."),
    ],
    rules: cropTableRules)

  /// The type of crop column `key`: every unit's range (the decoder checks the table's own).
  static func tableCropType(_ key: String) -> SchemaType {
    let ranges = CropUnits.allCases.map { cropTableRange(key, units: $0) }
    return .number(ranges.map(\.lowerBound).min()!...ranges.map(\.upperBound).max()!)
  }

  static var cropTableRules: [SchemaRule] {
    let crop = cropTableCropColumns
    let placeColumns = ["zoom", "focus_x", "focus_y", "offset_x", "offset_y", "rotate"]
    let excluded = ["zoom", "focus_x", "focus_y", "offset_x", "offset_y"]
    func requiring(_ columns: [String]) -> SchemaJSON { .array(columns.map { .string($0) }) }
    return [
      SchemaRule(
        description: "x, y, width and height go together; angle needs them.",
        schema: [
          "dependentRequired": .object(
            crop.map { column in
              SchemaJSON.Member(column, requiring(crop.dropLast().filter { $0 != column }))
            })
        ]),
      SchemaRule(
        description:
          "An exact crop replaces zoom, focus and offset, and in frame upright rotate (in a cropper's frame rotate "
          + "is the crop's: the decoder checks the frame).",
        schema: [
          "dependentSchemas": ["x": ["not": ["anyOf": .array(excluded.map { ["required": [.string($0)]] })]]]
        ]),
      SchemaRule(
        description: "scaleX and scaleY belong to a crop; flip is given as flip or as scaleX and scaleY, not both.",
        schema: [
          "dependentRequired": [
            "scaleX": requiring(Array(crop.dropLast())), "scaleY": requiring(Array(crop.dropLast())),
          ],
          "dependentSchemas": ["flip": ["not": ["anyOf": [["required": ["scaleX"]], ["required": ["scaleY"]]]]]],
        ]),
      SchemaRule(
        description: "focus_x and focus_y, and offset_x and offset_y, go in pairs.",
        schema: [
          "dependentRequired": [
            "focus_x": ["focus_y"], "focus_y": ["focus_x"], "offset_x": ["offset_y"], "offset_y": ["offset_x"],
          ]
        ]),
      SchemaRule(
        description: "A row sets a crop or at least one place column.",
        schema: ["anyOf": .array((["x"] + placeColumns + ["flip"]).map { ["required": [.string($0)]] })]),
    ]
  }
}
