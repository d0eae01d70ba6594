/// The mapping of a job's delivery index.
extension JobSchema {
  package static let index = SchemaObject(
    name: "index",
    description:
      "A delivery index of the job's outputs: an HTML page of <picture> elements (srcset per format, sizes, width "
      + "and height, the placeholder as background) and the same data as JSON, per source or one for the batch.",
    fields: [
      SchemaField(
        "path", .string(pattern: "^(?!/)(?!(.*/)?\\.\\.(/|$))([^{}]|\\{(job|stem|name)\\})*\\.html$"),
        "The HTML file, relative to the output root, ending in .html; the JSON is the same path ending in .json. "
          + "With {stem} or {name} one file per source, else one for the job. Placeholders: {job}, {stem}, {name}.",
        required: true),
      SchemaField(
        "sizes", .string(), "The sizes attribute of every image and source (CSS media conditions and lengths).",
        default: "100vw"),
      SchemaField(
        "loading", .choice(IndexLoading.allCases.map(\.rawValue)), "The images' loading attribute.", default: "lazy"),
      SchemaField(
        "decoding", .choice(IndexDecoding.allCases.map(\.rawValue)), "The images' decoding attribute.",
        default: "async"),
      SchemaField(
        "base_url", .string(),
        "A URL prefix: each image's URL is it and the output's path under the root; without it, URLs are relative "
          + "to the index file."),
    ],
    rules: [])
}
