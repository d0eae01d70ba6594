import CropGeometry
import CropSpec
import Foundation

/// Prints a plan: a summary for people, JSON for programs, DOT for Graphviz.
package enum PlanFormat: String, Sendable, CaseIterable {
  case text, json, dot
}

/// The outputs that hold every frame of an animated source, counted for the plan's summary.
package struct AnimationCount: Sendable {
  package var outputs = 0
  package var frames = 0

  mutating func add(frames count: Int) {
    outputs += 1
    frames += count
  }
}

package enum PlanRenderer {
  package static func render(_ plan: Plan, format: PlanFormat, selected: [Int]? = nil, upToDate: Set<String> = [])
    -> String
  {
    let indices = selected ?? Array(plan.outputs.indices)
    switch format {
    case .text: return text(plan, indices, upToDate)
    case .json: return json(plan, indices, OutputFacts(upToDate: upToDate))
    case .dot: return dot(plan, indices)
    }
  }

  /// Decodes the run makes: one per `DecodeKey`.
  static func decodeCount(_ plan: Plan, _ indices: [Int]) -> Int {
    Set(indices.map { plan.outputs[$0].decodeKey }).count
  }

  static func text(_ plan: Plan, _ indices: [Int], _ upToDate: Set<String>) -> String {
    let jobs = plan.jobFile.jobs.map { job -> JobSummary in
      let outputs = indices.filter { plan.outputs[$0].job == job.name }
      let planned = Set(outputs.map { plan.sources[plan.outputs[$0].sourceIndex].path })
      let failed = Set(
        plan.issues.compactMap { $0.job == job.name && $0.severity == .error && !$0.blocksRun ? $0.source : nil })
      let done = outputs.filter { upToDate.contains(plan.outputs[$0].path) }.count
      return JobSummary(
        sources: planned.union(failed).count, outputs: outputs.count, upToDate: done, failed: failed.count)
    }
    var animations = AnimationCount()
    for i in indices where plan.outputs[i].encode.frames == .all {
      animations.add(frames: plan.sources[plan.outputs[i].sourceIndex].header?.pages ?? 1)
    }
    return text(
      jobFile: plan.jobFile, outputRoot: plan.outputRoot, jobs: jobs, outputs: indices.count,
      decodes: decodeCount(plan, indices), animations: animations, issues: plan.issues, runnable: plan.isRunnable)
  }

  /// What the text summary says of one job (of the selected outputs).
  package struct JobSummary: Sendable {
    /// The sources its patterns matched (those that failed included).
    package var sources: Int
    package var outputs: Int
    package var upToDate: Int
    /// Of `sources`, those an error names (no output, or not every output, planned).
    package var failed = 0
  }

  /// The text summary of a `PlanStream`: `upToDate` counts, per job, the outputs an earlier
  /// run left up to date (nil: none, without a second pass; an empty state has none).
  package static func text(_ stream: PlanStream, upToDate: ((PlanWindow) -> Set<String>)?) -> String {
    var done: [String: Int] = [:]
    if let upToDate {
      stream.forEachWindow { window in
        guard !window.selected.isEmpty else { return }
        done[window.job, default: 0] += upToDate(window).count
      }
    }
    return text(stream, upToDateCounts: done)
  }

  /// The text summary of a `PlanStream` given, per job, how many of its outputs are up to
  /// date (counted in the first pass: no second pass).
  package static func text(_ stream: PlanStream, upToDateCounts done: [String: Int]) -> String {
    let jobs = stream.jobFile.jobs.map { job in
      let counts = stream.jobCounts[job.name] ?? (0, 0, 0)
      return JobSummary(
        sources: counts.sources, outputs: counts.outputs, upToDate: done[job.name] ?? 0, failed: counts.failed)
    }
    return text(
      jobFile: stream.jobFile, outputRoot: stream.outputRoot, jobs: jobs, outputs: stream.selectedCount,
      decodes: stream.decodeCount, animations: stream.animations, issues: Array(stream.issues),
      runnable: stream.isRunnable,
      indexLines: indexLines(stream))
  }

  /// `  index of job hero: 2 files (pages/kite.html, pages/ladybird.html) and their .json`,
  /// per job with an index; a sharded plan says that it leaves a batch index out.
  static func indexLines(_ stream: PlanStream) -> [String] {
    let planned = IndexFile.planned(stream)
    var lines: [String] = []
    for job in stream.jobFile.jobs where job.index != nil {
      let files = planned.files.filter { $0.job == job.name }
      guard !files.isEmpty else {
        if planned.skippedBatch, job.index?.perSource == false {
          lines.append("  index of job \(job.name): none in a shard (an unsharded run writes the batch index)")
        }
        continue
      }
      let names = files.prefix(3).map(\.path).joined(separator: ", ") + (files.count > 3 ? ", …" : "")
      lines.append(
        "  index of job \(job.name): \(files.count) file\(files.count == 1 ? "" : "s") (\(names)) and \(files.count == 1 ? "its" : "their") .json"
      )
    }
    return lines
  }

  static func text(
    jobFile: JobFile, outputRoot: String, jobs: [JobSummary], outputs: Int, decodes: Int, animations: AnimationCount,
    issues: [PlanIssue], runnable: Bool, indexLines: [String] = []
  ) -> String {
    var lines = ["Plan for \(jobFile.path) → \(outputRoot)"]
    for (job, summary) in zip(jobFile.jobs, jobs) {
      let guide = "\(job.guide.shape.rawValue) \(job.guide.size.width)x\(job.guide.size.height)"
      lines.append(
        "  job \(job.name): \(summary.sources) sources\(summary.failed > 0 ? " (\(summary.failed) failed)" : ""), "
          + "\(summary.outputs) outputs (\(summary.upToDate) up to date), guide \(guide)"
      )
    }
    lines += indexLines
    lines.append("Total: \(outputs) outputs from \(decodes) decodes")
    if animations.outputs > 0 {
      lines.append(
        "Animations: \(animations.outputs) output\(animations.outputs == 1 ? "" : "s") with every frame "
          + "(frames: all), \(animations.frames) frames in all")
    }
    let errors = issues.filter { $0.severity == .error }
    let warnings = issues.filter { $0.severity == .warning }
    if !issues.isEmpty {
      func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
      lines.append("Issues: \(count(errors.count, "error")), \(count(warnings.count, "warning"))")
      for issue in errors + warnings { lines.append("  \(issue)") }
    }
    lines.append(runnable ? "Runnable." : "Not runnable: fix the errors above.")
    return lines.joined(separator: "\n")
  }

  struct OutputJSON: Encodable {
    var job: String
    var source: String
    var path: String
    /// Identity of the recipe (cropjob and libvips versions and everything that decides
    /// the output's bytes, apart from the source's content); the manifest's key adds the
    /// source's content hash.
    var key: String
    var width: Int
    var height: Int
    var format: String
    var quality: Int
    var maxBytes: Int?
    /// `shrink` when the output may be written smaller to meet `maxBytes` (absent: fails).
    var overBudget: String?
    /// The perceptual quality target (`encode.target`), absent without one: the quality
    /// written is then found at run time, from `minQuality` up to `quality`.
    var target: QualityTarget?
    /// `keep` when the pixels stay in the source's colour space (absent: sRGB).
    var colour: String?
    /// The frames the output holds when it keeps every frame of an animated source
    /// (`frames: all`; the source's header's frame count); absent for a still output.
    var frames: Int?
    /// The bounding box of the source region sampled, clipped to the photo (the manifest's
    /// `geometry.crop`); absent when it is found at run time.
    var crop: Rect?
    /// The exact crop the job file or crop table asked for (absent without one): it may
    /// reach past the photo, where `crop` does not.
    var cropRequested: CropRect?
    var scale: Double
    var angle: Double
    /// `horizontal`, `vertical` or `horizontal+vertical` (`place.flip`), as the manifest
    /// records it; absent without a flip.
    var flip: String?
    var centre: Point?
    var focus: String
    /// `true` when `focus` finds the crop from the pixels at run time (attention, entropy,
    /// faces...): `crop` and `centre` are then absent, not a centred guess; absent otherwise.
    var cropFoundAtRunTime: Bool?
    /// The stored regions `focus: regions` uses (empty: none); absent when it does not.
    var regions: [FocusBoxRecord]?
    var loadShrink: Int
    var stage: Int
    var upToDate: Bool
    /// The key the manifest will hold (`OutputKey.key`: `key` and the source's content
    /// hash); absent where the source's hash is not known before the run (see `OutputFacts`).
    var manifestKey: String?
    var notes: [String]
    /// The placeholders asked for, each `"will be computed"` (they come from the pixels at
    /// run time); absent when none is asked for.
    var placeholders: [String: String]?
  }

  struct PlanJSON: Encodable {
    var jobFile: String
    var outputRoot: String
    var runnable: Bool
    /// The sources the jobs' patterns matched (and the outputs they read), failed or not.
    var sources: Int
    /// Of `sources`, those an error of `issues` names (unreadable, an invalid placement...);
    /// absent when none failed.
    var failedSources: Int? = nil
    var decodes: Int
    var outputs: [OutputJSON]
    var issues: [PlanIssue]
    /// The delivery index files the run will write (absent when no job has an index).
    var indexes: [IndexJSON]? = nil
  }

  /// One index file of `plan --format json`: its HTML and JSON paths, job and sources.
  struct IndexJSON: Encodable {
    var path: String
    var json: String
    var job: String
    var sources: Int
  }

  static func json(_ plan: Plan, _ indices: [Int], _ facts: OutputFacts) -> String {
    var bytes: [UInt8] = []
    writeJSON(plan, selected: indices, facts: facts) { bytes += $0 }
    if bytes.last == 0x0a { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The JSON of one output (`OutputJSON`).
  static func outputJSON(_ plan: Plan, _ i: Int, _ facts: OutputFacts) -> OutputJSON {
    let o = plan.outputs[i]
    let s = plan.sources[o.sourceIndex]
    let focus = o.place.focus.name
    let atRunTime = o.isCropFoundAtRunTime
    return OutputJSON(
      job: o.job, source: s.path, path: o.path, key: OutputKey.recipeKey(o.recipe, engine: plan.engineVersion),
      width: o.geometry.outputSize.width, height: o.geometry.outputSize.height,
      format: o.encode.options.format.rawValue, quality: o.encode.options.quality, maxBytes: o.encode.maxBytes,
      overBudget: o.encode.maxBytes != nil && o.encode.overBudget != .fail ? o.encode.overBudget.rawValue : nil,
      target: o.encode.target, colour: o.encode.colour == .srgb ? nil : o.encode.colour.rawValue,
      frames: o.encode.frames == .all ? s.header?.pages : nil,
      crop: atRunTime ? nil : o.geometry.sourceRegion.roundedForReport(), cropRequested: o.place.crop,
      scale: o.geometry.scale.roundedForReport(places: 9), angle: o.geometry.angle.roundedForReport(places: 9),
      flip: flipName(o.place), centre: atRunTime ? nil : o.geometry.centre.roundedForReport(), focus: focus,
      cropFoundAtRunTime: atRunTime ? true : nil, regions: regionRecords(o, source: s), loadShrink: s.loadShrink,
      stage: o.stage,
      upToDate: facts.upToDate.contains(o.path), manifestKey: facts.manifestKeys[o.path],
      notes: o.geometry.notes.map(\.description),
      placeholders: o.placeholders.map { spec in
        Dictionary(uniqueKeysWithValues: spec.kinds.map { ($0.rawValue, "will be computed") })
      })
  }

  /// The flip of `place` as the manifest names it, or nil.
  static func flipName(_ place: PlaceSpec) -> String? {
    let flip = [place.flipHorizontal ? "horizontal" : nil, place.flipVertical ? "vertical" : nil].compactMap { $0 }
    return flip.isEmpty ? nil : flip.joined(separator: "+")
  }

  /// The stored regions an output's focus uses, as the manifest records boxes.
  static func regionRecords(_ o: PlannedOutput, source: PlannedSource) -> [FocusBoxRecord]? {
    guard let boxes = o.regionBoxes, let header = source.header else { return nil }
    let photo = Rect(x: 0, y: 0, width: Double(header.width), height: Double(header.height))
    let placed = o.regionsPlaced
    return boxes.enumerated().map { i, box in
      FocusBoxRecord(
        box, padded: placed.map { $0.padded[i] } ?? box.padded(o.place.effectiveFacePadding, within: photo),
        kept: placed.map { $0.kept.contains(i) }, dropped: placed?.dropped[i])
    }
  }

  /// Graphviz: one cluster per job, a box per decode, a note per output; `from:` chains
  /// as dashed edges from the upstream output to the decode that reads it.
  static func dot(_ plan: Plan, _ indices: [Int]) -> String {
    func quote(_ s: String) -> String {
      "\""
        + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
    var lines = ["digraph cropjob {", "  rankdir=LR;", "  node [fontname=\"Helvetica\", fontsize=10];"]
    var edges: [String] = []
    var decodes = Set<Int>()
    for job in plan.jobFile.jobs {
      let outputs = indices.filter { plan.outputs[$0].job == job.name }
      guard !outputs.isEmpty else { continue }
      lines.append("  subgraph \(quote("cluster_" + job.name)) {")
      lines.append("    label=\(quote("job " + job.name));")
      for i in outputs {
        let o = plan.outputs[i]
        let s = plan.sources[o.sourceIndex]
        if decodes.insert(o.sourceIndex).inserted {
          lines.append("    \(quote("decode:" + s.path)) [shape=box, label=\(quote("decode " + s.path))];")
          if s.producedBy != nil {
            edges.append("  \(quote("out:" + s.path)) -> \(quote("decode:" + s.path)) [style=dashed];")
          }
        }
        let size = "\(o.geometry.outputSize.width)x\(o.geometry.outputSize.height)"
        lines.append("    \(quote("out:" + o.path)) [shape=note, label=\(quote(o.path + "\n" + size))];")
        edges.append("  \(quote("decode:" + s.path)) -> \(quote("out:" + o.path));")
      }
      lines.append("  }")
    }
    lines += edges
    lines.append("}")
    return lines.joined(separator: "\n")
  }
}
