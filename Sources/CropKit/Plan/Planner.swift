import CropGeometry
import Dispatch
import Foundation

/// Expands a job file into a plan: sources, headers, geometry, names and checks.
/// Pure apart from reading directories and image headers; never decodes pixels.
public struct Planner: Sendable {
  public var limits: InputLimits
  /// Override of the output root (command line `--output`).
  public var outputRoot: String?

  public init(limits: InputLimits? = nil, outputRoot: String? = nil) {
    self.limits = limits ?? InputLimits()
    self.outputRoot = outputRoot
  }

  public func plan(_ file: JobFile) -> Plan {
    var issues: [PlanIssue] = []
    let root = SourceExpansion.absolute(
      outputRoot ?? file.outputRoot,
      base: outputRoot == nil ? file.baseDirectory : FileManager.default.currentDirectoryPath)
    let stages = Self.stages(of: file.jobs)
    let jobsInOrder = file.jobs.enumerated().sorted {
      (stages[$0.element.name]!, $0.offset) < (stages[$1.element.name]!, $1.offset)
    }.map(\.element)

    // 1. Sources of jobs that read files, then their headers, concurrently.
    var sources: [PlannedSource] = []
    var sourceIndex: [String: Int] = [:]
    var jobSources: [String: [(index: Int, subdirectory: String)]] = [:]
    for job in file.jobs {
      guard case .sources(let include, let exclude) = job.input else { continue }
      let (matches, unmatched) = SourceExpansion.expand(include: include, exclude: exclude, base: file.baseDirectory)
      for pattern in unmatched {
        issues.append(
          PlanIssue(
            severity: .warning, job: job.name, source: pattern, output: nil, message: "matches no file",
            blocksRun: false))
      }
      if matches.isEmpty && unmatched.count == include.count {
        issues.append(
          PlanIssue(
            severity: .error, job: job.name, source: nil, output: nil, message: "the job has no sources",
            blocksRun: false))
      }
      for match in matches {
        let absolute = SourceExpansion.absolute(match.path, base: file.baseDirectory)
        let index: Int
        if let existing = sourceIndex[absolute] {
          index = existing
        } else {
          index = sources.count
          sourceIndex[absolute] = index
          sources.append(
            PlannedSource(
              path: match.path, absolutePath: absolute, header: nil, error: nil, producedBy: nil, stage: 0,
              loadShrink: 1))
        }
        jobSources[job.name, default: []].append((index, match.subdirectory))
      }
    }
    readHeaders(&sources)

    // 2. Outputs, job by job in dependency order.
    var outputs: [PlannedOutput] = []
    for job in jobsInOrder {
      let stage = stages[job.name]!
      if case .from(let upstream) = job.input {
        // The upstream job's first output entry, at its largest size, is this job's source.
        let produced = outputs.filter { $0.job == upstream && $0.entry == 0 }
        let largest = Dictionary(grouping: produced, by: \.sourceIndex).values.compactMap {
          $0.max { $0.outputScale < $1.outputScale }
        }
        for output in largest.sorted(by: { $0.path < $1.path }) {
          let absolute = output.absolutePath
          let index = sources.count
          sourceIndex[absolute] = index
          let header = SourceHeader(
            format: InputFormat(
              rawValue: output.encode.options.format == .jpeg ? "jpeg" : output.encode.options.format.rawValue) ?? .png,
            storedWidth: output.geometry.outputSize.width, storedHeight: output.geometry.outputSize.height,
            orientation: 1,
            bands: output.style.alpha ? 4 : 3, hasAlpha: output.style.alpha, pages: 1)
          sources.append(
            PlannedSource(
              path: output.path, absolutePath: absolute, header: header, error: nil, producedBy: upstream, stage: stage,
              loadShrink: 1))
          jobSources[job.name, default: []].append((index, ""))
        }
      }
      for (index, subdirectory) in jobSources[job.name] ?? [] {
        sources[index].stage = max(sources[index].stage, stage)
        let source = sources[index]
        if let error = source.error {
          issues.append(
            PlanIssue(
              severity: .error, job: job.name, source: source.path, output: nil, message: error, blocksRun: false))
          continue
        }
        guard let header = source.header else { continue }
        var place = job.place
        for o in file.overrides
        where (o.job == nil || o.job == job.name) && Self.sameSource(o.source, source, base: file.baseDirectory) {
          place = place.applying(o)
        }
        for (entry, spec) in job.outputs.enumerated() {
          for (sizeIndex, outputScale) in Self.scales(spec.sizes, guide: job.guide).enumerated() {
            let result = plannedOutput(
              job: job, source: source, sourceIndex: index, subdirectory: subdirectory, header: header, place: place,
              spec: spec, entry: entry, sizeIndex: sizeIndex, outputScale: outputScale, root: root, stage: stage)
            guard case .success(let planned) = result else {
              if case .failure(let problem) = result {
                issues.append(
                  PlanIssue(
                    severity: .error, job: job.name, source: source.path, output: spec.pathTemplate,
                    message: "invalid placement: \(problem.message)", blocksRun: false))
              }
              continue
            }
            for note in planned.geometry.notes {
              if case .guideNotCovered = note, place.overflow != .clamp { continue }
              issues.append(
                PlanIssue(
                  severity: .warning, job: job.name, source: source.path, output: planned.path,
                  message: note.description, blocksRun: false))
            }
            let photo = Size(width: Double(header.width), height: Double(header.height))
            if let message = FocusCheck.cutOffMessage(
              place: place, guide: job.guide, source: photo, geometry: planned.geometry)
            {
              issues.append(
                PlanIssue(
                  severity: .warning, job: job.name, source: source.path, output: planned.path, message: message,
                  blocksRun: false))
            }
            outputs.append(planned)
          }
        }
      }
    }

    // 3. Shrink-on-load from each source's largest output; collisions; paths inside the root.
    // (One pass over the outputs: a batch has millions of them.)
    var maxScales = [Double?](repeating: nil, count: sources.count)
    for output in outputs {
      maxScales[output.sourceIndex] = max(maxScales[output.sourceIndex] ?? 0, output.geometry.scale)
    }
    for i in sources.indices {
      if let header = sources[i].header {
        sources[i].loadShrink = DecodedSource.loadShrink(for: header, maxOutputScale: maxScales[i] ?? 1)
      }
    }
    let sourceFiles = Dictionary(
      sources.filter { $0.producedBy == nil }.map { ($0.absolutePath, $0.path) }, uniquingKeysWith: { a, _ in a })
    var byPath: [String: Int] = [:]  // absolute path → index of the first output writing it
    for (index, output) in outputs.enumerated() {
      if let source = sourceFiles[output.absolutePath] {
        issues.append(
          PlanIssue(
            severity: .error, job: output.job, source: sources[output.sourceIndex].path, output: output.path,
            message: "path collision: would overwrite the source \(source)", blocksRun: true))
      } else if !output.path.contains("/"), output.path.hasPrefix("cropjob-manifest"), output.path.hasSuffix(".json") {
        issues.append(
          PlanIssue(
            severity: .error, job: output.job, source: sources[output.sourceIndex].path, output: output.path,
            message: "path collision: cropjob's manifest uses this name", blocksRun: true))
      }
      if let firstIndex = byPath[output.absolutePath] {
        let first = outputs[firstIndex]
        issues.append(
          PlanIssue(
            severity: .error, job: output.job, source: sources[output.sourceIndex].path, output: output.path,
            message: "path collision: also written by job \(first.job) from \(sources[first.sourceIndex].path)",
            blocksRun: true))
      } else {
        byPath[output.absolutePath] = index
      }
      if let problem = OutputPaths.escapeProblem(output.absolutePath, root: root) {
        issues.append(
          PlanIssue(
            severity: .error, job: output.job, source: sources[output.sourceIndex].path, output: output.path,
            message: problem, blocksRun: true))
      }
    }
    return Plan(jobFile: file, outputRoot: root, sources: sources, outputs: outputs, issues: issues)
  }

  private func plannedOutput(
    job: Job, source: PlannedSource, sourceIndex: Int, subdirectory: String, header: SourceHeader, place: PlaceSpec,
    spec: OutputSpec, entry: Int, sizeIndex: Int, outputScale: Double, root: String, stage: Int
  ) -> Result<PlannedOutput, PlanProblem> {
    var smart: SmartStrategy? = nil
    let focus: Point
    switch place.focus {
    case .named(let name): focus = name.point
    case .point(let p): focus = p
    case .smart(let strategy):
      smart = strategy
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
    let geometry = Geometry.place(source: sourceSize, guide: job.guide, placement: placement, outputScale: outputScale)
    let format = spec.encode.options.format
    let circle = job.guide.shape == .circle
    let alpha =
      format.hasAlpha
      && (circle || header.hasAlpha || !geometry.coversOutput || smart != nil && place.overflow != .clamp)
    let background = place.background ?? (format.hasAlpha ? [0, 0, 0, 0] : [255, 255, 255, 255])
    let style = RenderStyle(circle: circle, alpha: alpha, background: background)
    let relative = OutputPaths.render(
      spec.pathTemplate, job: job.name, sourcePath: source.path, subdirectory: subdirectory,
      size: geometry.outputSize, scale: outputScale, format: format)
    return .success(
      PlannedOutput(
        job: job.name, sourceIndex: sourceIndex, entry: entry, sizeIndex: sizeIndex, path: relative,
        absolutePath: (root as NSString).appendingPathComponent(relative), guide: job.guide, place: place,
        outputScale: outputScale, geometry: geometry, smartFocus: smart, encode: spec.encode, metadata: spec.metadata,
        style: style, stage: stage))
  }

  struct PlanProblem: Error { var message: String }

  /// Output scales (multiples of the guide) of an output entry.
  static func scales(_ sizes: OutputSizes, guide: Guide) -> [Double] {
    switch sizes {
    case .scales(let s): return s
    case .widths(let w): return w.map { Double($0) / Double(guide.size.width) }
    }
  }

  static func sameSource(_ overridePath: String, _ source: PlannedSource, base: String) -> Bool {
    SourceExpansion.absolute(overridePath, base: base) == source.absolutePath
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

  /// Reads every header concurrently and checks the input limits.
  private func readHeaders(_ sources: inout [PlannedSource]) {
    let limits = self.limits
    // libvips starts here, before the threads: its start-up sets and clears VIPSHOME
    // (cj_init, Sources/CVipsShim/cj_start.c), which must not race another thread's getenv.
    Vips.start()
    let results = ConcurrentMap.map(sources) { source -> (SourceHeader?, String?) in
      let attributes = try? FileManager.default.attributesOfItem(atPath: source.absolutePath)
      guard let attributes else { return (nil, "cannot read the file (missing or permission denied)") }
      if let size = attributes[.size] as? Int, size > limits.maxFileBytes {
        return (nil, "the file is \(size) bytes; the limit is \(limits.maxFileBytes) (limits.max_file_bytes)")
      }
      guard FileManager.default.isReadableFile(atPath: source.absolutePath) else {
        return (nil, "permission denied")
      }
      do {
        let header = try SourceHeader.read(path: source.absolutePath)
        if header.width * header.height > limits.maxPixels {
          return (
            nil,
            "\(header.width)x\(header.height) is \(header.width * header.height) pixels; the limit is \(limits.maxPixels) (limits.max_pixels)"
          )
        }
        if header.pages > limits.maxPages {
          return (nil, "\(header.pages) pages; the limit is \(limits.maxPages) (limits.max_pages)")
        }
        return (header, nil)
      } catch {
        return (nil, (error as? ImagingError)?.summary ?? "\(error)")
      }
    }
    for i in sources.indices {
      sources[i].header = results[i].0
      sources[i].error = results[i].1
    }
  }
}
