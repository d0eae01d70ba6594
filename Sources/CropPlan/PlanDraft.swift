import CropGeometry
import CropSpec
import Foundation

/// The plan while it is being built: what each of the planner's phases reads and adds to.
struct PlanDraft {
  let file: JobFile
  /// Absolute output root.
  let root: String
  var sources: [PlannedSource] = []
  /// Absolute path → index in `sources`.
  var sourceIndex: [String: Int] = [:]
  /// For each job, its sources and the subfolder each was found in (for `{dir}`).
  var jobSources: [String: [(index: Int, subdirectory: String)]] = [:]
  var outputs: [PlannedOutput] = []
  var issues: [PlanIssue] = []
  let overrides: OverrideIndex

  init(file: JobFile, root: String) {
    self.file = file
    self.root = root
    overrides = OverrideIndex(file.overrides, base: file.baseDirectory)
  }

  /// Records a problem; errors that stop the whole plan are raised by `checkOutputPaths`.
  mutating func issue(
    _ severity: Diagnostic.Severity, job: String?, source: String? = nil, output: String? = nil, _ message: String,
    blocksRun: Bool = false
  ) {
    issues.append(
      PlanIssue(
        severity: severity, job: job, source: source, output: output, message: message, blocksRun: blocksRun))
  }

  /// Phase 1: the files each job that reads files names, each file once however many jobs
  /// name it; patterns that match nothing are warned about.
  mutating func expandSources() {
    var paths = StandardPaths()
    for job in file.jobs {
      guard case .sources(let include, let exclude) = job.input else { continue }
      let (matches, unmatched) = SourceExpansion.expand(include: include, exclude: exclude, base: file.baseDirectory)
      for pattern in unmatched { issue(.warning, job: job.name, source: pattern, "matches no file") }
      if matches.isEmpty && unmatched.count == include.count { issue(.error, job: job.name, "the job has no sources") }
      for match in matches {
        let absolute = SourceExpansion.absolute(match.path, base: file.baseDirectory, paths: &paths)
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
  }

  /// Phase 3a, for a `from:` job: the upstream job's first output entry, at its largest size,
  /// is this job's source; its header is what that output will be.
  mutating func addProducedSources(of upstream: String, for job: Job, stage: Int) {
    let produced = outputs.filter { $0.job == upstream && $0.entry == 0 }
    let largest = Dictionary(grouping: produced, by: \.sourceIndex).values.compactMap {
      $0.max { $0.outputScale < $1.outputScale }
    }
    for output in largest.sorted(by: { $0.path < $1.path }) {
      let index = sources.count
      sourceIndex[output.absolutePath] = index
      let format = output.encode.options.format
      let header = SourceHeader(
        format: InputFormat(rawValue: format == .jpeg ? "jpeg" : format.rawValue) ?? .png,
        storedWidth: output.geometry.outputSize.width, storedHeight: output.geometry.outputSize.height,
        orientation: 1, bands: output.style.alpha ? 4 : 3, hasAlpha: output.style.alpha, pages: 1)
      sources.append(
        PlannedSource(
          path: output.path, absolutePath: output.absolutePath, header: header, error: nil, producedBy: upstream,
          stage: stage, loadShrink: 1))
      jobSources[job.name, default: []].append((index, ""))
    }
  }

  /// Phase 4: shrink-on-load from each source's largest output. One pass over the outputs:
  /// a batch has millions of them.
  mutating func chooseLoadShrink() {
    var maxScales = [Double?](repeating: nil, count: sources.count)
    for output in outputs {
      maxScales[output.sourceIndex] = max(maxScales[output.sourceIndex] ?? 0, output.geometry.scale)
    }
    for i in sources.indices {
      if let header = sources[i].header {
        sources[i].loadShrink = header.loadShrink(maxOutputScale: maxScales[i] ?? 1)
      }
    }
  }

  /// Phase 5: collisions (with a source, with the manifest's name, between outputs) and
  /// outputs leaving the output root. Each stops the whole plan.
  mutating func checkOutputPaths() {
    let sourceFiles = Dictionary(
      sources.filter { $0.producedBy == nil }.map { ($0.absolutePath, $0.path) }, uniquingKeysWith: { a, _ in a })
    var byPath: [String: Int] = [:]  // absolute path → index of the first output writing it
    var escapes = EscapeCheck(root: root)
    for (index, output) in outputs.enumerated() {
      let source = sources[output.sourceIndex].path
      func stop(_ message: String) {
        issue(.error, job: output.job, source: source, output: output.path, message, blocksRun: true)
      }
      if let overwritten = sourceFiles[output.absolutePath] {
        stop("path collision: would overwrite the source \(overwritten)")
      } else if !output.path.contains("/"), output.path.hasPrefix("cropjob-manifest"), output.path.hasSuffix(".json") {
        stop("path collision: cropjob's manifest uses this name")
      }
      if let firstIndex = byPath[output.absolutePath] {
        let first = outputs[firstIndex]
        stop("path collision: also written by job \(first.job) from \(sources[first.sourceIndex].path)")
      } else {
        byPath[output.absolutePath] = index
      }
      if let problem = escapes.problem(output.absolutePath) { stop(problem) }
    }
  }
}
