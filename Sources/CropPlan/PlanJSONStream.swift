import CropSpec
import Foundation

extension PlanRenderer {
  /// `plan --format json`, written as it goes: the document's bytes (and a final newline) are
  /// passed to `write` in order, one output at a time, so that memory does not grow with the
  /// number of outputs. Byte for byte the pretty-printed, key-sorted encoding of the whole
  /// `PlanJSON` value: the document around the outputs is that encoding with no outputs, and
  /// each output is encoded alone and indented to sit in the array.
  package static func writeJSON(
    _ plan: Plan, selected: [Int]? = nil, facts: OutputFacts = OutputFacts(), write: ([UInt8]) -> Void
  ) {
    let indices = selected ?? Array(plan.outputs.indices)
    var frame = PlanJSON(
      jobFile: plan.jobFile.path, outputRoot: plan.outputRoot, runnable: plan.isRunnable, sources: plan.sources.count,
      decodes: decodeCount(plan, indices), outputs: [], issues: plan.issues,
      indexes: indexJSON(IndexFile.planned(plan, selected: indices)))
    frame.failedSources = failedSources(plan.issues)
    var document = OutputsDocument(frame: frame, hasOutputs: !indices.isEmpty)
    write(document.head)
    for i in indices { document.append(outputJSON(plan, i, facts), write: write) }
    write(document.tail())
  }

  /// The sources an error names that does not stop the run (nil: none), for `failedSources`.
  static func failedSources<Issues: Sequence<PlanIssue>>(_ issues: Issues) -> Int? {
    var paths = Set<String>()
    for issue in issues where issue.severity == .error && !issue.blocksRun {
      if let source = issue.source { paths.insert(source) }
    }
    return paths.isEmpty ? nil : paths.count
  }

  /// `plan --format json` of a `PlanStream`, written window by window (the second pass):
  /// the same bytes as `writeJSON` of the whole plan. `facts` gives what the first pass knows
  /// of a window's selected outputs (up to date, the manifest's keys).
  package static func writeJSON(
    _ stream: PlanStream, facts: (PlanWindow) -> OutputFacts = { _ in OutputFacts() }, write: ([UInt8]) -> Void
  ) {
    var frame = PlanJSON(
      jobFile: stream.jobFile.path, outputRoot: stream.outputRoot, runnable: stream.isRunnable,
      sources: stream.sourceCount, decodes: stream.decodeCount, outputs: [], issues: Array(stream.issues),
      indexes: indexJSON(IndexFile.planned(stream).files))
    frame.failedSources = failedSources(stream.issues)
    var document = OutputsDocument(frame: frame, hasOutputs: stream.selectedCount > 0)
    write(document.head)
    stream.forEachWindow { window in
      guard !window.selected.isEmpty else { return }
      let known = facts(window)
      for i in window.selected { document.append(outputJSON(window.plan, i, known), write: write) }
    }
    write(document.tail())
  }

  /// The document `frame` with outputs appended one at a time to its `outputs` array: `head`
  /// (written first), each output's bytes as `append` passes them on (64 KiB at a time), then
  /// `tail()`.
  struct OutputsDocument {
    let encoder = JSONEncoder()
    /// The document up to the outputs (all of it, with its final newline, when there are none).
    private(set) var head: [UInt8] = []
    private var rest: [UInt8] = []
    private var chunk: [UInt8] = []
    private var first = true
    private let hasOutputs: Bool

    init(frame: PlanJSON, hasOutputs: Bool) {
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let skeleton = Array((try? encoder.encode(frame)) ?? Data())
      // `"outputs" : [` at the top level (a newline and two spaces before it: no JSON string
      // holds a raw newline), and the `]` that closes the empty array.
      let marker = Array("\n  \"outputs\" : [".utf8)
      guard hasOutputs, let open = skeleton.firstRange(of: marker)?.upperBound,
        let close = skeleton[open...].firstIndex(of: UInt8(ascii: "]"))
      else {
        head = skeleton + [0x0a]
        self.hasOutputs = false
        return
      }
      self.hasOutputs = true
      head = Array(skeleton[..<open]) + [0x0a]
      rest = Array("\n  ".utf8) + Array(skeleton[close...]) + [0x0a]
    }

    /// Adds one output; a full chunk is passed to `write`.
    mutating func append(_ output: OutputJSON, write: ([UInt8]) -> Void) {
      guard hasOutputs else { return }
      if !first { chunk += [0x2c, 0x0a] }
      first = false
      let encoded = (try? encoder.encode(output)) ?? Data()
      var lineStart = true
      for byte in encoded {
        if lineStart && byte != 0x0a { chunk += [0x20, 0x20, 0x20, 0x20] }
        chunk.append(byte)
        lineStart = byte == 0x0a
      }
      if chunk.count >= 1 << 16 {
        write(chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }

    /// What is left to write: the last outputs and the end of the document (nothing more
    /// when there are no outputs).
    func tail() -> [UInt8] { hasOutputs ? chunk + rest : [] }
  }

  /// The plan JSON's `indexes` (nil, so absent, when no job has an index).
  static func indexJSON(_ files: [IndexFile]) -> [IndexJSON]? {
    files.isEmpty
      ? nil
      : files.map {
        IndexJSON(path: $0.path, json: IndexSpec.jsonPath($0.path), job: $0.job, sources: $0.sources.count)
      }
  }
}
