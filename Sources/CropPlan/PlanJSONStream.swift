import Foundation

extension PlanRenderer {
  /// `plan --format json`, written as it goes: the document's bytes (and a final newline) are
  /// passed to `write` in order, one output at a time, so that memory does not grow with the
  /// number of outputs. Byte for byte the pretty-printed, key-sorted encoding of the whole
  /// `PlanJSON` value: the document around the outputs is that encoding with no outputs, and
  /// each output is encoded alone and indented to sit in the array.
  public static func writeJSON(
    _ plan: Plan, selected: [Int]? = nil, upToDate: Set<String> = [], write: ([UInt8]) -> Void
  ) {
    let indices = selected ?? Array(plan.outputs.indices)
    let frame = PlanJSON(
      jobFile: plan.jobFile.path, outputRoot: plan.outputRoot, runnable: plan.isRunnable, sources: plan.sources.count,
      decodes: decodeCount(plan, indices), outputs: [], issues: plan.issues)
    writeJSON(frame: frame, hasOutputs: !indices.isEmpty, write: write) { emit in
      for i in indices { emit(outputJSON(plan, i, upToDate)) }
    }
  }

  /// `plan --format json` of a `PlanStream`, written window by window (the second pass):
  /// the same bytes as `writeJSON` of the whole plan. `upToDate` gives the outputs of a
  /// window (among its selected ones) that an earlier run left up to date.
  public static func writeJSON(
    _ stream: PlanStream, upToDate: (PlanWindow) -> Set<String> = { _ in [] }, write: ([UInt8]) -> Void
  ) {
    let frame = PlanJSON(
      jobFile: stream.jobFile.path, outputRoot: stream.outputRoot, runnable: stream.isRunnable,
      sources: stream.sourceCount, decodes: stream.decodeCount, outputs: [], issues: stream.issues)
    writeJSON(frame: frame, hasOutputs: stream.selectedCount > 0, write: write) { emit in
      stream.forEachWindow { window in
        guard !window.selected.isEmpty else { return }
        let done = upToDate(window)
        for i in window.selected { emit(outputJSON(window.plan, i, done)) }
      }
    }
  }

  /// The document `frame` with the outputs `outputs` passes to its argument, one at a time,
  /// in its `outputs` array.
  static func writeJSON(
    frame: PlanJSON, hasOutputs: Bool, write: ([UInt8]) -> Void, outputs: ((OutputJSON) -> Void) -> Void
  ) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let skeleton = Array((try? encoder.encode(frame)) ?? Data())
    // `"outputs" : [` at the top level (a newline and two spaces before it: no JSON string
    // holds a raw newline), and the `]` that closes the empty array.
    let marker = Array("\n  \"outputs\" : [".utf8)
    guard hasOutputs, let open = skeleton.firstRange(of: marker)?.upperBound,
      let close = skeleton[open...].firstIndex(of: UInt8(ascii: "]"))
    else { return write(skeleton + [0x0a]) }
    withoutActuallyEscaping(write) { write in
      write(Array(skeleton[..<open]) + [0x0a])
      var chunk: [UInt8] = []
      var first = true
      outputs { output in
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
      write(chunk + Array("\n  ".utf8) + Array(skeleton[close...]) + [0x0a])
    }
  }
}
