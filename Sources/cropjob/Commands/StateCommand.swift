import CropKit
import Foundation

/// `cropjob state merge <job.yaml>`: folds the shard state files of the job's output root into
/// `.cropjob/state.sqlite3` and removes them, as an unsharded run does before it starts (after a
/// sharded batch, on one machine, without running the job again).
struct StateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "state",
    abstract: "Merge the shard state files of an output root into one (`state merge <job.yaml>`).",
    epilogue: """
      ACTIONS:
        merge <job.yaml>   fold .cropjob/state.shard-I-of-N.sqlite3 into .cropjob/state.sqlite3
                           (newest row per output wins) and remove the shard files
      """,
    exitCodes: [
      ExitCodeMeaning(ExitCode.success, "merged"),
      ExitCodeMeaning(
        ExitCode.failure,
        "invalid job file, a state file that cannot be used (named, with the way out), or shards missing or "
          + "incomplete (listed; nothing merged) without --allow-partial"),
      .usage,
    ])

  var words: [String] = []
  var outputRoot: String?
  var allowPartial = false

  static var arguments: [Argument<Self>] {
    [
      .positionals(\.words, "action", help: "`merge` and the job file (its output root holds the state)."),
      .option(\.outputRoot, "--output", value: "dir", .text, help: "Output root instead of the job file's `output`."),
      .flag(
        \.allowPartial, "--allow-partial",
        help: "Merge even when shards are missing or did not finish (they are listed)."),
    ]
  }

  mutating func validate() throws {
    guard words.first == "merge" else {
      throw UsageError(message: "unknown action \"\(words.first ?? "")\"; the action is merge")
    }
    guard words.count == 2 else { throw UsageError(message: "state merge takes one job file, got \(words.count - 1)") }
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(words[1]) else { return ExitCode.failure }
    // An `s3://` output: the shard states in its prefix are fetched into a folder of this
    // machine, folded there, and the result put back (the shard objects deleted).
    var job = JobRun(file)
    job.outputRoot = outputRoot
    let outputs: OutputStore
    switch job.openOutputs() {
    case .success(let opened): outputs = opened
    case .failure(let refusal):
      Console.err("cropjob: \(refusal)")
      return ExitCode.invalidJob
    }
    let root = outputs.root
    let shards = StateFiles.shardFileCount(root: root)
    guard ShardGaps.report(root: root, allowPartial: allowPartial, doing: "merged") else { return ExitCode.failure }
    let sync = outputs.isListed ? StateSync(outputs: outputs, shard: nil) : nil
    do throws(StateError) {
      let writer = try StateWriter.open(root: root, shard: nil)
      do throws(StorageError) {
        try sync?.push(writer)
        try sync?.removeFoldedShards()
      } catch {
        _ = writer.finish()
        Console.err("cropjob: \(error)")
        return ExitCode.failure
      }
      if let error = writer.finish() { throw error }
    } catch {
      Console.err("cropjob: \(error)")
      return ExitCode.failure
    }
    let into =
      sync.map { _ in outputs.displayName(StateSync.relativePath(shard: nil) + StateSync.suffix) }
      ?? StateFiles.path(root: root, shard: nil)
    Console.out("merged \(shards) shard state file\(shards == 1 ? "" : "s") into \(into)")
    return ExitCode.success
  }
}
