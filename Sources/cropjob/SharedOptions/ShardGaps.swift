import CropKit

/// What `state merge` and `manifest` say of shards that are missing or did not finish.
enum ShardGaps {
  /// Lists the missing and incomplete shards of `root` on stderr; false (refuse) when there
  /// are any and `allowPartial` is off.
  static func report(root: String, allowPartial: Bool, doing: String) -> Bool {
    let gaps = ShardCompleteness.gaps(root: root)
    guard !gaps.isEmpty else { return true }
    let severity = allowPartial ? "warning" : "error"
    for gap in gaps { Console.err("cropjob: \(severity): \(gap)") }
    if allowPartial {
      Console.err(
        "cropjob: \(doing) without the outputs of \(gaps.count) shard\(gaps.count == 1 ? "" : "s") (--allow-partial)")
    } else {
      Console.err(
        "cropjob: nothing \(doing): run the shards listed again (`cropjob run JOB --shard I/N`), or pass --allow-partial"
      )
    }
    return allowPartial
  }
}
