import CropSupport
import Foundation

/// The checks over all output paths, output by output in the plan's order: an output that
/// would overwrite a source or take the manifest's name, two outputs with one path, an
/// output leaving the output root. Each stops the whole plan.
///
/// The stream keeps no output path: the first pass (`exact: false`) keeps the 64-bit hash
/// of each (8 bytes an output, in an array: a hash set took 16 to 24) and, once the hashes
/// are sorted (`finish`), notes those met twice (`suspects`); only if there are any are the checks
/// made again (`exact: true`) with the paths of those outputs alone, so that the message
/// names the first writer as the whole plan's check does (and hashes that merely collide
/// are no error).
struct PathChecks {
  var issues: [PlanIssue] = []
  /// Hashes of every output path so far, in the plan's order until `finish` sorts them.
  var outputs: [UInt64] = []
  /// Hashes met more than once (found by `finish`).
  var suspects = HashSet64()
  var suspected: Bool { suspects.count > 0 }
  private let exact: Bool
  private var escapes: EscapeCheck
  /// In the exact pass: the first writer (job, source) of each suspect path.
  private var firstWriters: [String: (job: String, source: String)] = [:]

  init(root: String, exact: Bool, suspects: HashSet64 = HashSet64()) {
    self.exact = exact
    self.suspects = suspects
    escapes = EscapeCheck(root: root)
  }

  mutating func check(_ output: PlannedOutput, source: String, stream: PlanStream, paths: inout StandardPaths) {
    var file: SourceFileStatus?? = nil
    check(output, source: source, stream: stream, paths: &paths, file: &file)
  }

  /// `check`, with the output file's status where the escape check learnt it
  /// (`EscapeCheck.problem(_:file:)`).
  mutating func check(
    _ output: PlannedOutput, source: String, stream: PlanStream, paths: inout StandardPaths,
    file: inout SourceFileStatus??
  ) {
    func stop(_ message: String) {
      issues.append(
        PlanIssue(
          severity: .error, job: output.job, source: source, output: output.path, message: message, blocksRun: true,
          kind: .output))
    }
    let hash = HashSet64.hash(output.absolutePath)
    if let overwritten = stream.fileSource(output.absolutePath, hash: hash, paths: &paths) {
      stop("path collision: would overwrite the source \(stream.table.paths[overwritten])")
    } else if output.path.hasPrefix("cropjob-manifest"), output.path.hasSuffix(".json"),
      !output.path.utf8.contains(UInt8(ascii: "/"))
    {
      stop("path collision: cropjob's manifest uses this name")
    }
    if exact {
      if suspects.contains(hash) {
        if let first = firstWriters[output.absolutePath] {
          stop("path collision: also written by job \(first.job) from \(first.source)")
        } else {
          firstWriters[output.absolutePath] = (output.job, source)
        }
      }
    } else {
      outputs.append(hash)
    }
    if let problem = escapes.problem(output.absolutePath, file: &file) { stop(problem) }
  }

  /// After the first pass's last output: the hashes sorted (for `Array.containsSorted`), and
  /// those met more than once noted as `suspects`.
  mutating func finish() {
    outputs.sort()
    for i in outputs.indices.dropFirst() where outputs[i] == outputs[i - 1] { suspects.insert(outputs[i]) }
  }
}
