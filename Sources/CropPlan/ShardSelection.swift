import Foundation

/// Where `--shard I/N` comes from: the command line, or a batch engine's environment.
public enum ShardSelection {
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Parses `I/N` with 0 ≤ I < N.
  public static func parse(_ text: String) throws(Problem) -> Shard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else {
      throw Problem(description: "--shard expects I/N with 0 ≤ I < N (e.g. 0/4), got \"\(text)\"")
    }
    return Shard(index: i, count: n)
  }

  /// The shard a batch engine assigns through the environment, if any:
  /// Slurm job arrays ((SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP
  /// of SLURM_ARRAY_TASK_COUNT, so `--array=10-13` and `--array=0-6:2` both give 0..<4),
  /// Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX of `count`), AWS Batch array jobs
  /// (AWS_BATCH_JOB_ARRAY_INDEX of `count`). `count` comes from `--shard-count`; a count
  /// with none of these variables set is a problem, not a whole unsharded run.
  public static func fromEnvironment(_ env: [String: String], count: Int?) throws(Problem) -> Shard? {
    func int(_ key: String) throws(Problem) -> Int? {
      guard let text = env[key] else { return nil }
      guard let value = Int(text) else { throw Problem(description: "\(key)=\(text) is not an integer") }
      return value
    }
    if let id = try int("SLURM_ARRAY_TASK_ID") {
      let min = try int("SLURM_ARRAY_TASK_MIN") ?? 0
      guard let n = try int("SLURM_ARRAY_TASK_COUNT") ?? count else {
        throw Problem(
          description: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (or pass --shard-count)")
      }
      let step = try int("SLURM_ARRAY_TASK_STEP") ?? 1
      // An irregular list (--array=1,2,7) has no step that describes it: every task refuses,
      // rather than some of them running a wrong partition.
      let max = try int("SLURM_ARRAY_TASK_MAX")
      guard step >= 1, (id - min) % step == 0, max.map({ $0 == min + step * (n - 1) }) ?? true else {
        throw Problem(
          description:
            "the Slurm array (task \(id), min \(min), max \(max.map(String.init) ?? "?"), step \(step), count \(n)) is not a regular range: pass --shard I/N"
        )
      }
      return try checked((id - min) / step, n, "SLURM_ARRAY_TASK_ID")
    }
    for key in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
      if let index = try int(key) {
        guard let count else {
          throw Problem(description: "\(key) is set: pass --shard-count N (the number of workers)")
        }
        return try checked(index, count, key)
      }
    }
    // A count with no index would run the whole batch on every worker, each exiting 0.
    if let count {
      throw Problem(
        description:
          "--shard-count \(count) needs a shard index, but none of \(indexVariables.joined(separator: ", ")) is set: pass --shard I/\(count), or run under the batch engine that sets one"
      )
    }
    return nil
  }

  /// The environment variables that give a shard index, in the order they are read.
  public static let indexVariables = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]

  private static func checked(_ index: Int, _ count: Int, _ source: String) throws(Problem) -> Shard {
    guard count >= 1, index >= 0, index < count else {
      throw Problem(description: "\(source) gives shard \(index) of \(count), outside 0..<\(count)")
    }
    return Shard(index: index, count: count)
  }
}
