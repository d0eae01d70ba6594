/// The columns of a crop table (`overrides_from`): one row is one override, its cells the
/// fields of an exact crop and of the place fields a cropper saves, flattened. The reader
/// knows exactly these columns, and `cropjob schema` prints them as `$defs/crop_table_row`,
/// the schema of one JSON Lines row.
extension JobSchema {
  /// The crop rectangle's columns, as the keys of `crop`.
  public static let cropTableCropColumns = ["x", "y", "width", "height", "angle"]
  /// Columns that come in pairs, as the `[x, y]` place field they make.
  public static let cropTablePairs = [("focus_x", "focus_y", "focus"), ("offset_x", "offset_y", "offset")]
  /// Columns that hold a job name or a path (CSV cells there are strings, never numbers).
  public static let cropTableTextColumns = ["source", "job"]

  public static let cropTable = SchemaObject(
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
      SchemaField("x", crop["x"].type, "The crop's left edge, in source pixels (crop.x)."),
      SchemaField("y", crop["y"].type, "The crop's top edge (crop.y)."),
      SchemaField("width", crop["width"].type, "The crop's width (crop.width)."),
      SchemaField("height", crop["height"].type, "The crop's height (crop.height)."),
      SchemaField(
        "angle", crop["angle"].type, "The crop's rotation in degrees, clockwise, about its centre (crop.angle).",
        default: crop["angle"].defaultValue),
      SchemaField("zoom", place["zoom"].type, "Scale after fit, about the focus point (place.zoom)."),
      SchemaField("focus_x", .number(unitRange), "The focus point's x, 0 (left) to 1 (right) (place.focus)."),
      SchemaField("focus_y", .number(unitRange), "The focus point's y, 0 (top) to 1 (bottom) (place.focus)."),
      SchemaField("offset_x", .number(offsetRange), "Drags the photo right by this many guide pixels (place.offset)."),
      SchemaField("offset_y", .number(offsetRange), "Drags the photo down by this many guide pixels (place.offset)."),
      SchemaField(
        "rotate", place["rotate"].type, "Rotation in degrees, clockwise, about the focus point (place.rotate)."),
    ],
    rules: cropTableRules)

  static var cropTableRules: [SchemaRule] {
    let crop = cropTableCropColumns
    let placeColumns = ["zoom", "focus_x", "focus_y", "offset_x", "offset_y", "rotate"]
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
        description: "An exact crop replaces zoom, focus, offset and rotate.",
        schema: [
          "dependentSchemas": ["x": ["not": ["anyOf": .array(placeColumns.map { ["required": [.string($0)]] })]]]
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
        schema: ["anyOf": .array((["x"] + placeColumns).map { ["required": [.string($0)]] })]),
    ]
  }
}
