import CropGeometry

/// The mappings of the placement, the exact crop and the overrides.
extension JobSchema {
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
    SchemaField(
      "focus", .ref("focus"),
      "Which source point sits at the guide's centre, or a list of strategies tried in order.", default: "centre"),
    SchemaField(
      "face_padding", .number(facePaddingRange),
      "Each face or region box grows by this fraction of its width (left and right) and height (top and bottom) "
        + "before it is kept inside the guide.",
      default: .number(PlaceSpec.facePaddingDefault)),
    SchemaField(
      "regions", .ref("region_types"), "The types of the photo's stored regions that focus: regions uses.",
      default: .array(PlaceSpec.regionTypesDefault.map { .string($0.rawValue) })),
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
      "upscale", .oneOf([.boolean, .choice(["skip"])]),
      "Whether outputs may have more pixels than the source region they show; false caps the output size "
        + "(sizes of one entry capped to one name are written once); skip writes only the sizes the photo "
        + "fills, and one output at the photo's own size in place of those it cannot.",
      default: true),
  ]

  /// Place fields an exact `crop` replaces.
  package static let cropExcludes = ["fit", "zoom", "focus", "offset", "rotate"]

  static let cropRule = SchemaRule(
    description: "crop replaces fit, zoom, focus, offset and rotate.",
    schema: ["dependentSchemas": ["crop": ["not": ["anyOf": .array(cropExcludes.map { ["required": [.string($0)]] })]]]]
  )

  package static let place = SchemaObject(
    name: "place",
    description: "How each photo sits under the guide, field by field over defaults.place.",
    fields: placeFields, rules: [cropRule])

  package static let crop = SchemaObject(
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

  package static let override = SchemaObject(
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
}
