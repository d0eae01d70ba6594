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
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let frame = PlanJSON(
      jobFile: plan.jobFile.path, outputRoot: plan.outputRoot, runnable: plan.isRunnable, sources: plan.sources.count,
      decodes: decodeCount(plan, indices), outputs: [], issues: plan.issues)
    let skeleton = Array((try? encoder.encode(frame)) ?? Data())
    // `"outputs" : [` at the top level (a newline and two spaces before it: no JSON string
    // holds a raw newline), and the `]` that closes the empty array.
    let marker = Array("\n  \"outputs\" : [".utf8)
    guard !indices.isEmpty, let open = skeleton.firstRange(of: marker)?.upperBound,
      let close = skeleton[open...].firstIndex(of: UInt8(ascii: "]"))
    else { return write(skeleton + [0x0a]) }
    write(Array(skeleton[..<open]) + [0x0a])
    var chunk: [UInt8] = []
    for (n, i) in indices.enumerated() {
      if n > 0 { chunk += [0x2c, 0x0a] }
      let encoded = (try? encoder.encode(outputJSON(plan, i, upToDate))) ?? Data()
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
