import CropGeometry
import CropSpec
import CropStorage
import CropSupport
import Dispatch
import Foundation

/// Expands a job file into a plan: sources, headers, geometry, names and checks.
/// Pure apart from reading directories and image headers; never decodes pixels.
package struct Planner: Sendable {
  package var limits: InputLimits
  /// Override of the output root (command line `--output`).
  package var outputRoot: String?
  /// Reads each source's header (the imaging stage's `VipsHeaderReader` in cropjob).
  package var headers: any SourceHeaderReading
  /// The stores sources in object storage (`s3://`) are listed and read through; local
  /// files are walked and read as they always were.
  package var storage = StorageSet()

  package init(limits: InputLimits? = nil, outputRoot: String? = nil, headers: any SourceHeaderReading) {
    self.limits = limits ?? InputLimits()
    self.outputRoot = outputRoot
    self.headers = headers
  }

  /// The plan of `file`, in named phases: sources, headers, outputs job by job in
  /// dependency order, shrink-on-load, then the checks over all output paths. The whole plan
  /// in memory: a batch of many sources is planned window by window (`PlanStream`), with
  /// the same outputs, issues and order.
  package func plan(_ file: JobFile) -> Plan {
    PlanStream.make(file, planner: self, window: Int.max, collect: true).plan!
  }

  /// Jobs in the order they are planned and run: by stage (`stages(of:)`), then as the job
  /// file lists them.
  static func jobsInOrder(_ jobs: [Job]) -> [(job: Job, stage: Int)] {
    let stages = Self.stages(of: jobs)
    return jobs.enumerated().sorted {
      (stages[$0.element.name]!, $0.offset) < (stages[$1.element.name]!, $1.offset)
    }.map { ($0.element, stages[$0.element.name]!) }
  }

  /// Phase 3: every output of `job`, from each of its sources, with the warnings its
  /// geometry raises.
  func planOutputs(of job: Job, stage: Int, into draft: inout PlanDraft) {
    let sources = draft.jobSources[job.name] ?? []
    // The outputs the sources make, as a rule (an output is large: an array grown append by
    // append holds up to twice the memory, and both buffers while it grows).
    draft.outputs.reserveCapacity(
      draft.outputs.count + sources.count * job.outputs.reduce(0) { $0 + Self.scales($1.sizes, guide: job.guide).count }
    )
    for (index, subdirectory) in sources {
      draft.sources[index].stage = max(draft.sources[index].stage, stage)
      let source = draft.sources[index]
      if let error = source.error {
        Self.failOutputs(of: job, source: source.path, subdirectory: subdirectory, error, kind: .source, into: &draft)
        continue
      }
      guard let header = source.header else { continue }
      let settings = draft.file.cropTableSettings
      let applied = draft.overrides.apply(
        job.place, job: job.name, source: source, header: header, settings: settings)
      if let failure = applied.failure {
        Self.failOutputs(of: job, source: source.path, subdirectory: subdirectory, failure, kind: .other, into: &draft)
        continue
      }
      if settings.requireCrop, case .sources = job.input, !applied.hasRow {
        Self.failOutputs(
          of: job, source: source.path, subdirectory: subdirectory,
          "no row of the crop table \(draft.file.cropTable ?? "") for this photo (require_crop: true)", kind: .other,
          into: &draft)
        continue
      }
      if let replaced = applied.replacedRowCrop {
        draft.issue(
          .warning, job: job.name, source: source.path,
          "the override at \(draft.file.path):\(replaced.inline.line):\(replaced.inline.column) sets "
            + "\(replaced.fields.joined(separator: ", ")), which replaces the crop of "
            + "\(draft.file.cropTable ?? "the crop table"):\(replaced.row) (a crop and fit, zoom, focus, offset, "
            + "rotate exclude each other; set crop in the override to change the crop)",
          kind: .cropReplaced)
      }
      let place = applied.place
      for (entry, spec) in job.outputs.enumerated() {
        var sizes: [PlannedOutput] = []
        for (sizeIndex, outputScale) in Self.scales(spec.sizes, guide: job.guide).enumerated() {
          let result = plannedOutput(
            job: job, source: source, sourceIndex: index, subdirectory: subdirectory, header: header, place: place,
            spec: spec, entry: entry, sizeIndex: sizeIndex, outputScale: outputScale, root: draft.root, stage: stage)
          switch result {
          case .failure(let problem):
            // The file it would have written (the size the job asks for), not the template.
            let path = Self.requestedPath(
              spec, job: job, sourcePath: source.path, subdirectory: subdirectory, outputScale: outputScale)
            draft.issue(
              .error, job: job.name, source: source.path, output: path,
              "invalid placement: \(problem.message)", kind: .source)
          case .success(let planned):
            if let problem = Self.framesProblem(planned, header: header, limits: limits) {
              draft.issue(.error, job: job.name, source: source.path, output: planned.path, problem, kind: .source)
            } else {
              sizes.append(planned)
            }
          }
        }
        let collapsed = Self.collapsedSizes(sizes, skip: place.upscaleSkip == true)
        for message in collapsed.warnings {
          draft.issue(.warning, job: job.name, source: source.path, output: message.path, message.text, kind: .upscale)
        }
        for planned in collapsed.kept {
          for note in planned.geometry.notes {
            if case .guideNotCovered = note, place.overflow != .clamp { continue }
            // A capped size that others fold onto is in `collapsed.warnings`, once.
            if case .upscaleCapped = note, collapsed.folded.contains(planned.path) { continue }
            draft.issue(
              .warning, job: job.name, source: source.path, output: planned.path, note.description,
              kind: note.issueKind)
          }
          let photo = Size(width: Double(header.width), height: Double(header.height))
          if let message = FocusCheck.cutOffMessage(
            place: place, guide: job.guide, source: photo, geometry: planned.geometry)
          {
            draft.issue(.warning, job: job.name, source: source.path, output: planned.path, message, kind: .focus)
          }
          if let message = FocusCheck.noEffectMessage(
            place: place, guide: job.guide, source: photo)
          {
            draft.issue(.warning, job: job.name, source: source.path, output: planned.path, message, kind: .focus)
          }
          draft.outputs.append(planned)
        }
      }
    }
  }

  private func plannedOutput(
    job: Job, source: PlannedSource, sourceIndex: Int, subdirectory: String, header: SourceHeader, place: PlaceSpec,
    spec: OutputSpec, entry: Int, sizeIndex: Int, outputScale: Double, root: String, stage: Int
  ) -> Result<PlannedOutput, PlanProblem> {
    var smart: FocusSpec? = nil
    let focus: Point
    switch place.focus {
    case .named(let name): focus = name.point
    case .point(let p): focus = p
    case .smart, .search:
      smart = place.focus
      focus = NamedPosition.centre.point
    }
    let placement = Placement(
      fit: place.fit, zoom: place.zoom, offset: place.offset, focus: focus, rotate: place.rotate,
      flipHorizontal: place.flipHorizontal, flipVertical: place.flipVertical, crop: place.crop,
      overflow: place.overflow,
      upscale: place.upscale)
    let sourceSize = Size(width: Double(header.width), height: Double(header.height))
    let problems = Geometry.validate(
      source: sourceSize, guide: job.guide, placement: placement, outputScale: outputScale)
    guard problems.isEmpty else { return .failure(PlanProblem(message: problems.joined(separator: "; "))) }
    var geometry = Geometry.place(source: sourceSize, guide: job.guide, placement: placement, outputScale: outputScale)
    let regionBoxes = Self.regionBoxes(place: place, source: source, header: header)
    var regionsPlaced: BoxFocus? = nil
    if let placed = Self.placeAboutRegions(
      regionBoxes, place: place, source: sourceSize, guide: job.guide, placement: placement, outputScale: outputScale)
    {
      geometry = placed.geometry
      geometry.notes += placed.notes
      regionsPlaced = placed
    }
    let format = spec.encode.options.format
    let circle = job.guide.shape == .circle
    let alpha =
      format.hasAlpha
      && (circle || header.hasAlpha || !geometry.coversOutput || smart != nil && place.overflow != .clamp)
    let background = Self.background(place.background, formatHasAlpha: format.hasAlpha)
    let style = RenderStyle(circle: circle, alpha: alpha, background: background)
    var encode = spec.encode
    // A still source (or the pages of a TIFF or HEIF) written with `frames: all` is the still
    // output `first` writes (same key).
    if header.pages <= 1 || !header.format.animates { encode.frames = .first }
    let relative = OutputPaths.render(
      spec.pathTemplate, job: job.name, sourcePath: source.path, subdirectory: subdirectory,
      size: geometry.outputSize, scale: outputScale, format: format)
    return .success(
      PlannedOutput(
        job: job.name, sourceIndex: sourceIndex, entry: entry, sizeIndex: sizeIndex, path: relative,
        absolutePath: PathText.appending(root, relative), guide: job.guide, place: place,
        outputScale: outputScale, geometry: geometry, smartFocus: smart, regionBoxes: regionBoxes,
        regionsPlaced: regionsPlaced, encode: encode,
        metadata: spec.metadata, style: style, stage: stage, placeholders: spec.placeholders,
        cacheControl: spec.cacheControl))
  }

  struct PlanProblem: Error { var message: String }

  /// Why an output with `frames: all` cannot be made from `header`'s frames: the pixel limit
  /// covers every frame it decodes (`max_pages` is checked for every source).
  static func framesProblem(_ output: PlannedOutput, header: SourceHeader, limits: InputLimits) -> String? {
    guard output.encode.frames == .all else { return nil }
    let pixels = header.width * header.height * header.pages
    guard pixels > limits.maxPixels else { return nil }
    return "frames: all decodes \(header.pages) frames of \(header.width)x\(header.height), \(pixels) pixels; "
      + "the limit is \(limits.maxPixels) (limits.max_pixels covers every frame)"
  }

  /// Output scales (multiples of the guide) of an output entry.
  static func scales(_ sizes: OutputSizes, guide: Guide) -> [Double] {
    switch sizes {
    case .scales(let s): return s
    case .widths(let w): return w.map { Double($0) / Double(guide.size.width) }
    }
  }

  /// Topological level of each job: 0 for jobs that read files, 1 + level of `from`.
  static func stages(of jobs: [Job]) -> [String: Int] {
    var result: [String: Int] = [:]
    let byName = Dictionary(jobs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    func level(_ name: String, _ depth: Int) -> Int {
      if let known = result[name] { return known }
      guard depth < jobs.count, let job = byName[name], case .from(let up) = job.input else { return 0 }
      let value = level(up, depth + 1) + 1
      result[name] = value
      return value
    }
    for job in jobs { result[job.name] = level(job.name, 0) }
    return result
  }

  /// The background an output is rendered with (docs/job-file.md, `place.background`): the
  /// job's colour, or transparent (formats with alpha) / white (formats without). Without
  /// alpha, a partly transparent colour is composited over white, as it shows on a white
  /// page, and rounded: `"#33669980"` is (153, 178, 204) in JPEG.
  static func background(_ colour: [Double]?, formatHasAlpha: Bool) -> [Double] {
    guard let colour else { return formatHasAlpha ? [0, 0, 0, 0] : [255, 255, 255, 255] }
    guard !formatHasAlpha, colour.count == 4, colour[3] < 255 else { return colour }
    let alpha = colour[3] / 255
    return colour.prefix(3).map { ($0 * alpha + 255 * (1 - alpha)).rounded() } + [255]
  }

  /// The header of the source at `path` (absolute), or why it cannot be used: one `stat`
  /// (a re-run over unchanged photos, a cache hit, reads no file), then the input limits.
  /// `recordedHash`: the header came from the state's record of the file (size, mtime,
  /// ctime, inode and device as recorded), which records this content hash; `stamp`: the
  /// file's status then (`SourceFileStatus.stamp`; 0 when it could not be read).
  /// Called from several threads at once, after `headers.start()`.
  /// A source in object storage (`object`, as listed) has the identity of its change token
  /// (no request); its header, unless known, is read from a ranged GET of its head
  /// (`objectHeader`).
  func readHeader(_ path: String, object: SourceObject? = nil) -> (
    SourceHeader?, String?, recordedHash: String?, stamp: UInt64
  ) {
    guard let status = object?.identity ?? SourceFileStatus.of(path: path) else {
      return (nil, "cannot read the file (missing or permission denied)", nil, 0)
    }
    if status.size > limits.maxFileBytes {
      return (
        nil, "the file is \(status.size) bytes; the limit is \(limits.maxFileBytes) (limits.max_file_bytes)", nil, 0
      )
    }
    do {
      let header: SourceHeader
      var recordedHash: String? = nil
      if let known = headers.knownHeader(path: path, status: status) {
        header = known.header
        recordedHash = known.sha256
      } else if let object {
        header = try objectHeader(path, object)
      } else {
        guard access(path, R_OK) == 0 else { return (nil, "permission denied", nil, 0) }
        header = try headers.header(path: path)
      }
      if header.width * header.height > limits.maxPixels {
        return (
          nil,
          "\(header.width)x\(header.height) is \(header.width * header.height) pixels; the limit is \(limits.maxPixels) (limits.max_pixels)",
          nil, 0
        )
      }
      if header.pages > limits.maxPages {
        return (nil, "\(header.pages) pages; the limit is \(limits.maxPages) (limits.max_pages)", nil, 0)
      }
      return (header, nil, recordedHash, status.stamp)
    } catch {
      return (nil, String(describing: error), nil, 0)
    }
  }
}

extension Planner {
  /// The bytes of an object's head read for its header: enough for JPEG, PNG, WebP, GIF and
  /// most TIFF and HEIF headers (an EXIF block with a large thumbnail may need more).
  package static let objectHeadBytes: Int64 = 64 << 10

  /// The header of the object `location` from a ranged GET of its first `objectHeadBytes`,
  /// widened to the whole object when the header needs more.
  func objectHeader(_ location: String, _ source: SourceObject) throws -> SourceHeader {
    let (store, key, size) = (source.store, source.key, source.size)
    var length = min(Self.objectHeadBytes, max(1, size))
    while true {
      let bytes = try store.read(key, range: ByteRange(offset: 0, length: length))
      let complete = Int64(bytes.count) < length || length >= size
      if let header = try headers.header(bytes: bytes, location: location, complete: complete) { return header }
      guard !complete else { throw ObjectHeaderUnsupported(location: location) }
      length = size
    }
  }
}
