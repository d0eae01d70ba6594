import CropGeometry
import CropStorage
import CropSupport
import Foundation

/// Decodes a parsed job file into typed values, collecting every problem at once.
///
/// The keys each mapping accepts, the ranges, the list rules and the defaults it fills in
/// come from `JobSchema`, the table that `cropjob schema` prints, so the decoder and the
/// schema cannot drift apart. This file has the entry point, the top level and the jobs;
/// the extensions have one concern each: `+Limits`, `+Guide`, `+Place`, `+Outputs`,
/// `+Encode` (encode and metadata), `+JobGraph` (`from:` and cycles), `+Overrides` and
/// `+CropTable` (`overrides_from`).
package struct SpecDecoder {
  package var reader: NodeReader
  let formats: FormatAvailability
  /// What `formats` answered, once it was asked (only for a format outside its baseline).
  private(set) var probedFormats: [OutputFormat]?
  /// What `formats` answered about the face detector, once a focus named `faces`.
  private var probedFaces: String??

  /// Limits on the crop table (`overrides_from`).
  let tableLimits: CropTableLimits
  /// Which decoder reads the crop table's rows.
  package var tableDecoding = CropTableDecoding.fast
  /// Reads a crop table at an `s3://` location (plan, run); nil: such a table's syntax is
  /// checked, its rows are not read (validate makes no request).
  var objects: ObjectReading? = nil
  /// The settings of the crop table being read (nil outside one): the units of its crops.
  var tableSettings: CropTableSettings? = nil

  package init(file: String, formats: FormatAvailability, tableLimits: CropTableLimits = CropTableLimits()) {
    reader = NodeReader(file: file)
    self.formats = formats
    self.tableLimits = tableLimits
  }

  /// Why faces cannot be detected here (nil when they can); probes at most once per job file.
  mutating func faceDetectorProblem() -> String? {
    if probedFaces == nil { probedFaces = .some(formats.faceDetectorProblem()) }
    return probedFaces!
  }

  /// Whether this machine can write `format`; probes at most once per job file.
  mutating func canWrite(_ format: OutputFormat) -> Bool {
    if FormatAvailability.baseline.contains(format) { return true }
    if probedFormats == nil { probedFormats = formats.available() }
    return probedFormats!.contains(format)
  }

  package static let topKeys = JobSchema.file.keys
  package static let settingKeys = JobSchema.defaults.keys
  package static let jobKeys = JobSchema.job.keys
  package static let guideKeys = JobSchema.guide.keys
  package static let placeKeys = JobSchema.place.keys
  package static let cropKeys = JobSchema.crop.keys
  package static let outputKeys = JobSchema.output.keys
  package static let encodeKeys = JobSchema.encode.keys
  package static let limitKeys = JobSchema.limits.keys
  package static let overrideKeys = JobSchema.override.keys
  package static let cropTableKeys = JobSchema.cropTableSettings.keys
  /// Placeholders a path template may use.
  static let placeholders = JobSchema.placeholders.map(\.name)
  /// Place fields an exact `crop` replaces.
  static let cropExcludes = JobSchema.cropExcludes
  /// Guide keys that give its size: a job that sets any of them replaces all inherited ones.
  static let guideSizeKeys = ["size", "width", "height", "aspect"]
  /// What an item of `outputs` must be.
  static let outputWhat = "an output: a mapping with path"

  /// A setting inherited from `defaults` or the job, with the field path where it is
  /// written (diagnostics name that place, once, whichever job inherits it).
  struct Inherited {
    var node: YAMLNode
    var field: String
  }

  /// Settings inherited from `defaults` and the job, field by field.
  struct Settings {
    var guide: [String: Inherited] = [:]
    var guideMark: SourceMark? = nil
    var place = PlaceSpec()
    var outputs: Inherited? = nil
    var encode: [String: Inherited] = [:]
    var metadata: Inherited? = nil
    var placeholders: Inherited? = nil
  }

  /// Every job name in the file, also those of jobs with errors (for `from` and overrides).
  var declaredJobs: [String] = []
  /// `from` edges, with where each is written.
  var fromEdges: [(job: String, target: String, mark: SourceMark)] = []
  /// Where each `index.path` was written, by the index's field (`jobs.hero.index`).
  var indexPathMarks: [String: SourceMark] = [:]

  package mutating func decode(root: YAMLNode?, path: String) -> JobFile? {
    guard let root else {
      reader.error(
        SourceMark(line: 1, column: 1), "",
        Diagnostic.expected("a mapping with version, output and jobs", received: "an empty file"))
      return nil
    }
    guard let top = reader.mapping(root, "", known: Self.topKeys, what: "a mapping with version, output and jobs")
    else { return nil }
    var version = 1
    if let node = top["version"] {
      if NodeReader.plainText(node).flatMap(NodeReader.wholeValue) == 1 {
        version = 1
      } else {
        reader.expected(node, "version", "1 (the only version of the job file language)")
      }
    } else {
      reader.error(root.mark, "version", Diagnostic.missing("version", "the language version (version: 1)"))
    }
    var outputRoot = ""
    var outputLocation = StorageLocation.local(path: "")
    if let node = top["output"] {
      outputRoot = reader.string(node, "output", what: "a folder path") ?? ""
      if let parsed = location(outputRoot, node, "output", use: .outputRoot) { outputLocation = parsed }
    } else {
      reader.error(
        root.mark, "output", Diagnostic.missing("output", "the output root (the folder every output is written inside)")
      )
    }
    let limits = top["limits"].map { self.limits($0) } ?? InputLimits()
    var defaults = Settings()
    if let node = top["defaults"] {
      defaults = settings(node, "defaults", known: Self.settingKeys, base: defaults)
    }
    var jobs: [Job] = []
    if let node = top["jobs"], let entries = reader.orderedMapping(node, "jobs", what: "a mapping of job names to jobs")
    {
      if entries.isEmpty { reader.expected(node, "jobs", "at least one job") }
      declaredJobs = entries.map(\.0)
      for (name, jobNode, mark) in entries {
        if !Self.isValidName(name) {
          reader.error(
            mark, "jobs.\(name)",
            Diagnostic.expected("a job name of ASCII letters, digits, '-' and '_'", received: "\"\(name)\""))
        }
        if let job = self.job(name: name, node: jobNode, mark: mark, defaults: defaults) { jobs.append(job) }
      }
    } else if top["jobs"] == nil {
      reader.error(root.mark, "jobs", Diagnostic.missing("jobs", "the jobs (a mapping of job names to jobs)"))
    }
    let base = PathText.deletingLastComponent(path)
    // The table's rows first, so that an inline override wins over a row.
    var table: (file: String, rows: CropTableRows, settings: CropTableSettings)? = nil
    if let node = top["overrides_from"] { table = cropTable(node, base: base.isEmpty ? "." : base) }
    var overrides: [Override] = []
    if let node = top["overrides"], let items = reader.list(node, "overrides", what: "a list of overrides") {
      var seen: [OverrideKey: Int] = [:]
      for (index, item) in items.enumerated() {
        if let o = override(item, "overrides[\(index)]", index: index, seen: &seen) { overrides.append(o) }
      }
    }
    checkJobGraph()
    checkFromSizes(jobs)
    checkIndexPaths(jobs)
    return JobFile(
      path: path, baseDirectory: base.isEmpty ? "." : base, version: version, outputRoot: outputRoot,
      outputLocation: outputLocation, limits: limits,
      jobs: jobs, overrides: OverrideList(table: table?.rows ?? CropTableRows(), inline: overrides),
      cropTable: table?.file, cropTableRows: table?.rows.count ?? 0,
      cropTableSettings: table?.settings ?? CropTableSettings())
  }

  /// ASCII letters, digits, `-` and `_` (names appear in output paths through `{job}`).
  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
      }
  }

  // MARK: Settings shared by defaults and jobs

  mutating func settings(_ node: YAMLNode, _ field: String, known: [String], base: Settings) -> Settings {
    var result = base
    guard let entries = reader.mapping(node, field, known: known) else { return result }
    if let guide = entries["guide"], let g = reader.mapping(guide, join(field, "guide"), known: Self.guideKeys) {
      if g.keys.contains(where: Self.guideSizeKeys.contains) {
        for key in Self.guideSizeKeys { result.guide[key] = nil }  // a new size replaces the inherited one
      }
      for (key, value) in g { result.guide[key] = Inherited(node: value, field: join(join(field, "guide"), key)) }
      result.guideMark = guide.mark
    }
    if let place = entries["place"] {
      result.place = self.place(place, join(field, "place"), base: base.place).0
    }
    if let outputs = entries["outputs"] {
      result.outputs = Inherited(node: outputs, field: join(field, "outputs"))
      // Reported here even if no job inherits them; each job checks the outputs in full.
      for (index, item) in (outputItems(outputs, join(field, "outputs")) ?? []).enumerated() {
        _ = reader.mapping(item, join(field, "outputs") + "[\(index)]", known: Self.outputKeys, what: Self.outputWhat)
      }
    }
    if let encode = entries["encode"], let e = reader.mapping(encode, join(field, "encode"), known: Self.encodeKeys) {
      for (key, value) in e { result.encode[key] = Inherited(node: value, field: join(join(field, "encode"), key)) }
      if let format = e["format"] {
        // Checked where it is written, as the schema checks it: an output whose path's
        // extension names its format never reads an inherited one.
        _ = reader.choice(
          format, join(join(field, "encode"), "format"), OutputFormat.self, aliases: JobSchema.formatAliases)
      }
      checkFormatRanges(e, join(field, "encode"))
    }
    if let metadata = entries["metadata"] {
      result.metadata = Inherited(node: metadata, field: join(field, "metadata"))
      _ = metadataPolicy(metadata, join(field, "metadata"))  // reported here even if no output uses it
    }
    if let placeholders = entries["placeholders"] {
      result.placeholders = Inherited(node: placeholders, field: join(field, "placeholders"))
      _ = placeholderSpec(placeholders, join(field, "placeholders"))  // reported here even if no output uses it
    }
    return result
  }

  mutating func job(name: String, node: YAMLNode, mark: SourceMark, defaults: Settings) -> Job? {
    let field = "jobs.\(name)"
    guard case .mapping = node.value else {
      reader.expected(node, field, "a job: a mapping with sources, guide, place and outputs")
      return nil
    }
    let entries = reader.mapping(node, field, known: Self.jobKeys) ?? [:]
    let settings = self.settings(node, field, known: [], base: defaults)
    var input: JobInput? = nil
    var allowEmpty = false
    if let sources = entries["sources"] {
      if let from = entries["from"] {
        reader.error(from.mark, join(field, "from"), Diagnostic.expected("either sources or from", received: "both"))
      }
      let include = patterns(sources, join(field, "sources"), JobSchema.job["sources"].list, use: .sources)
      let exclude =
        entries["exclude"].map { patterns($0, join(field, "exclude"), JobSchema.job["exclude"].list, use: .exclude) }
        ?? []
      if let include, let exclude { input = .sources(include: include, exclude: exclude) }
      if let node = entries["allow_empty"] { allowEmpty = reader.bool(node, join(field, "allow_empty")) ?? false }
    } else if let from = entries["from"] {
      if let target = reader.string(from, join(field, "from"), what: "the name of another job") {
        input = .from(target)
        fromEdges.append((name, target, from.mark))
      }
      if let exclude = entries["exclude"] {
        reader.error(
          exclude.mark, join(field, "exclude"),
          Diagnostic.expected("exclude together with sources (it filters them)", received: "exclude with from"))
      }
      if let allow = entries["allow_empty"] {
        reader.error(
          allow.mark, join(field, "allow_empty"),
          Diagnostic.expected(
            "allow_empty together with sources (a from: job is empty when the job it reads is)",
            received: "allow_empty with from"))
      }
    } else {
      reader.error(
        mark, join(field, "sources"),
        Diagnostic.expected("\"sources\" (files, globs or folders) or \"from\" (another job)", received: "neither"))
    }
    let guide = self.guide(settings.guide, field: join(field, "guide"), mark: settings.guideMark ?? mark, jobMark: mark)
    var outputs: [OutputSpec] = []
    if let inherited = settings.outputs {
      if let items = outputItems(inherited.node, inherited.field) {
        var paths: [String: Int] = [:]
        for (index, item) in items.enumerated() {
          let itemField = "\(inherited.field)[\(index)]"
          if let output = self.output(item, itemField, settings: settings, guide: guide, paths: &paths, index: index) {
            outputs.append(output)
          }
        }
      }
    } else {
      reader.error(
        mark, join(field, "outputs"), Diagnostic.missing("outputs", "outputs (the files to write for each photo)"))
    }
    let index = entries["index"].flatMap { self.index($0, join(field, "index")) }
    guard let input, let guide else { return nil }
    return Job(
      name: name, input: input, guide: guide, place: settings.place, outputs: outputs, mark: mark,
      sourcesMark: entries["sources"]?.mark, allowEmpty: allowEmpty, index: index)
  }

  /// The list of outputs at `field`, held to the table's least number of outputs.
  mutating func outputItems(_ node: YAMLNode, _ field: String) -> [YAMLNode]? {
    guard let items = reader.list(node, field, what: "a list of outputs") else { return nil }
    if items.count < JobSchema.job["outputs"].list.minItems { reader.expected(node, field, "at least one output") }
    return items
  }

  /// Files, globs and folders: a string or a list of strings, as many as `rule` asks.
  /// Each is checked as a storage location (`s3://bucket/key` or a local path) for `use`.
  mutating func patterns(_ node: YAMLNode, _ field: String, _ rule: ListRule, use: LocationUse) -> [String]? {
    if case .scalar = node.value {
      guard let text = reader.string(node, field, what: "a file, glob or folder, or a list of them") else { return nil }
      return location(text, node, field, use: use) == nil ? nil : [text]
    }
    guard let items = reader.list(node, field, single: true, what: "a file, glob or folder, or a list of them") else {
      return nil
    }
    if items.count < rule.minItems {
      reader.expected(node, field, "at least one file, glob or folder")
      return nil
    }
    var result: [String] = []
    var ok = true
    for (index, item) in items.enumerated() {
      guard let text = reader.string(item, "\(field)[\(index)]", what: "a file, glob or folder") else { return nil }
      if location(text, item, "\(field)[\(index)]", use: use) == nil { ok = false }
      result.append(text)
    }
    return ok ? result : nil
  }
}
