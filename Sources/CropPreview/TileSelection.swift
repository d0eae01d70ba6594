import CropPlan
import Foundation

/// Which tiles a proof sheet shows: one per job and source, in job file order, optionally
/// one job only and an evenly spaced sample per job.
package enum TileSelection {
  package struct UnknownJob: Error, CustomStringConvertible, Sendable {
    package var name: String
    package var known: [String]
    package var description: String { "no job named \"\(name)\"; the jobs are: \(known.joined(separator: ", "))" }
  }

  /// Tiles of `plan`: for each job (file order) each of its sources (plan order), including
  /// sources the planner could not use (their tile shows why). `limit`: at most that many
  /// tiles per job, evenly spaced over its sources, first and last included. A tile shows the
  /// job's issues about its source and the issues about the source itself, in no job (a
  /// damaged XMP packet: every tile of that photo).
  package static func tiles(of plan: Plan, job: String? = nil, limit: Int? = nil) throws(UnknownJob) -> [ProofTile] {
    let jobs = plan.jobFile.jobs.map(\.name)
    if let job, !jobs.contains(job) { throw UnknownJob(name: job, known: jobs) }
    var indexByPath: [String: Int] = [:]
    for (i, source) in plan.sources.enumerated() where indexByPath[source.path] == nil { indexByPath[source.path] = i }

    var result: [ProofTile] = []
    for name in jobs where job == nil || job == name {
      var outputsBySource: [Int: [Int]] = [:]
      for (i, output) in plan.outputs.enumerated() where output.job == name {
        outputsBySource[output.sourceIndex, default: []].append(i)
      }
      var sources = Set(outputsBySource.keys)
      let jobIssues = plan.issues.filter { $0.job == name }
      let sourceIssues = plan.issues.filter { $0.job == nil && $0.source != nil }
      for issue in jobIssues where issue.severity == .error {
        if let path = issue.source, let index = indexByPath[path] { sources.insert(index) }
      }
      let ordered = sample(sources.sorted(), limit: limit)
      for index in ordered {
        let path = plan.sources[index].path
        let outputs = outputsBySource[index] ?? []
        result.append(
          ProofTile(
            job: name, sourceIndex: index, sourcePath: path, outputs: outputs,
            issues: grouped((jobIssues + sourceIssues).filter { $0.source == path })))
      }
    }
    return result
  }

  /// `limit` items evenly spaced over `items` (first and last included; one: the middle).
  package static func sample<T>(_ items: [T], limit: Int?) -> [T] {
    guard let limit, limit < items.count else { return items }
    guard limit > 0 else { return [] }
    guard limit > 1 else { return [items[items.count / 2]] }
    let last = items.count - 1
    return (0..<limit).map { k in items[(k * last + (limit - 1) / 2) / (limit - 1)] }
  }

  /// One entry per distinct message, errors first, with the outputs it concerns.
  static func grouped(_ issues: [PlanIssue]) -> [TileIssue] {
    var result: [TileIssue] = []
    for issue in issues {
      if let i = result.firstIndex(where: { $0.message == issue.message && $0.severity == issue.severity }) {
        if let output = issue.output, !result[i].outputs.contains(output) { result[i].outputs.append(output) }
      } else {
        result.append(
          TileIssue(severity: issue.severity, message: issue.message, outputs: issue.output.map { [$0] } ?? []))
      }
    }
    return result.filter { $0.severity == .error } + result.filter { $0.severity == .warning }
  }
}
