import CropGeometry
import CropSpec
import Foundation

/// One source's part of a job's delivery index (`index:`): the index file it goes into and
/// the paths of its planned outputs (those of the run's shard). Collected by the first pass
/// (`PlanStream.make`) for jobs with an index; the run lists those outputs the state records
/// when it ends (CropExecute's `IndexStep`).
package struct IndexSource: Sendable, Equatable {
  package var job: String
  /// The source's path as the plan and the manifest name it.
  package var source: String
  /// The index's HTML file, relative to the output root.
  package var indexPath: String
  /// The source's planned output paths, relative to the output root, in plan order.
  package var outputs: [String]

  package init(job: String, source: String, indexPath: String, outputs: [String]) {
    self.job = job
    self.source = source
    self.indexPath = indexPath
    self.outputs = outputs
  }
}

extension IndexSpec {
  /// The index file (relative to the output root) that `sourcePath`'s outputs go into.
  package func filePath(job: String, sourcePath: String) -> String {
    OutputPaths.render(
      path, job: job, sourcePath: sourcePath, subdirectory: "", size: PixelSize(width: 1, height: 1), scale: 1,
      format: .jpeg)
  }

  /// The JSON file beside an index's HTML file.
  package static func jsonPath(_ htmlPath: String) -> String { String(htmlPath.dropLast(5)) + ".json" }
}

extension PlanStream {
  /// Notes the selected sources of `window` for `job`'s index, if it has one.
  func collectIndexSources(_ window: PlanWindow, job: Job) {
    guard let index = job.index, !window.selected.isEmpty else { return }
    var order: [Int] = []
    var outputs: [Int: [String]] = [:]
    for k in window.selected {
      let output = window.plan.outputs[k]
      if outputs[output.sourceIndex] == nil { order.append(output.sourceIndex) }
      outputs[output.sourceIndex, default: []].append(output.path)
    }
    for s in order {
      let source = window.plan.sources[s].path
      indexSources.append(
        IndexSource(
          job: job.name, source: source, indexPath: index.filePath(job: job.name, sourcePath: source),
          outputs: outputs[s]!))
    }
  }
}

/// One delivery index file a run writes (its HTML; the JSON beside it): the job, its index
/// settings and the sources it lists. A batch index (no `{stem}` or `{name}`) is written by
/// unsharded runs only: a shard knows only its own sources (docs/sharding.md).
package struct IndexFile: Sendable {
  package var path: String
  package var job: String
  package var spec: IndexSpec
  package var sources: [IndexSource]
  /// Why it cannot be written (two sources or jobs share the path), if so.
  package var problem: String?

  /// The index files of `stream` (sorted by path), and whether a batch index was left out
  /// because the run is a shard.
  package static func planned(_ stream: PlanStream) -> (files: [IndexFile], skippedBatch: Bool) {
    planned(stream.indexSources, jobs: stream.jobFile.jobs, sharded: (stream.shard?.count ?? 1) > 1)
  }

  /// The index files of a whole plan's `selected` outputs (all shards' when sharded is false).
  package static func planned(_ plan: Plan, selected: [Int]) -> [IndexFile] {
    var sources: [IndexSource] = []
    var at: [String: Int] = [:]
    for i in selected {
      let output = plan.outputs[i]
      guard let spec = plan.jobFile.jobs.first(where: { $0.name == output.job })?.index else { continue }
      let source = plan.sources[output.sourceIndex].path
      let key = output.job + "\u{0}" + source
      if let k = at[key] {
        sources[k].outputs.append(output.path)
      } else {
        at[key] = sources.count
        sources.append(
          IndexSource(
            job: output.job, source: source, indexPath: spec.filePath(job: output.job, sourcePath: source),
            outputs: [output.path]))
      }
    }
    return planned(sources, jobs: plan.jobFile.jobs, sharded: false).files
  }

  static func planned(_ indexSources: [IndexSource], jobs: [Job], sharded: Bool) -> (
    files: [IndexFile], skippedBatch: Bool
  ) {
    let specs = Dictionary(jobs.compactMap { job in job.index.map { (job.name, $0) } }) { a, _ in a }
    var skipped = false
    var byPath: [String: [IndexSource]] = [:]
    for source in indexSources {
      guard let spec = specs[source.job] else { continue }
      if sharded && !spec.perSource {
        skipped = true
        continue
      }
      byPath[source.indexPath, default: []].append(source)
    }
    let files = byPath.keys.sorted().map { path -> IndexFile in
      let sources = byPath[path]!
      let jobs = Set(sources.map(\.job)).sorted()
      let spec = specs[sources[0].job]!
      var problem: String? = nil
      if jobs.count > 1 {
        problem = "the jobs \(jobs.joined(separator: ", ")) write the same index file: put {job} in index.path"
      } else if spec.perSource, sources.count > 1 {
        let names = sources.prefix(3).map(\.source).joined(separator: ", ")
        problem = "\(sources.count) sources (\(names)) give the same index file: make index.path tell them apart"
      }
      return IndexFile(path: path, job: sources[0].job, spec: spec, sources: sources, problem: problem)
    }
    return (files, skipped)
  }
}
