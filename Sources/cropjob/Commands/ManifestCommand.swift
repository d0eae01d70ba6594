import CropKit
import Foundation

/// `cropjob manifest`: every output the state database records, exported for people and other
/// systems, streamed (sorted by path; memory does not grow with the outputs).
struct ManifestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "manifest",
    abstract: "Export the outputs recorded in the state database as JSON, JSON Lines or CSV.",
    epilogue: """
      FORMATS:
        json   what cropjob-manifest.json holds, byte for byte (all shards merged)
        jsonl  one output per line, sorted by path
        csv    a header row, then one output per row (geometry flattened, notes joined by "; ")
      """,
    exitCodes: [
      ExitCodeMeaning(ExitCode.success, "exported"),
      ExitCodeMeaning(
        ExitCode.failure,
        "invalid job file, a state database that cannot be read, or shards missing or incomplete (listed; "
          + "nothing exported) without --allow-partial"),
      .usage,
    ])

  var jobFile = ""
  var format = ManifestStream.Format.json
  var outputRoot: String?
  var allowPartial = false

  static var arguments: [Argument<Self>] {
    [
      .positional(\.jobFile, "job.yaml", noun: "job file", help: "The job file (its output root holds the state)."),
      .option(
        \.format, "--format", value: "format", .choice, inUsage: true, help: "json, jsonl or csv (default json)."),
      .option(\.outputRoot, "--output", value: "dir", .text, help: "Output root instead of the job file's `output`."),
      .flag(
        \.allowPartial, "--allow-partial",
        help: "Export even when shards are missing or did not finish (they are listed)."),
    ]
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(jobFile) else { return ExitCode.failure }
    let root = Planner(outputRoot: outputRoot).outputRoot(of: file)
    guard ShardGaps.report(root: root, allowPartial: allowPartial, doing: "exported") else { return ExitCode.failure }
    let output = FileHandle.standardOutput
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 16)
    var stream = ManifestStream(format: format, engineVersion: Vips.version) { bytes in
      buffer += bytes
      if buffer.count >= 1 << 16 {
        output.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
      }
    }
    do throws(StateError) {
      try StateExport.export(root: root, into: &stream)
    } catch {
      output.write(Data(buffer))
      Console.err("cropjob: \(error)")
      return ExitCode.failure
    }
    output.write(Data(buffer))
    return ExitCode.success
  }
}
