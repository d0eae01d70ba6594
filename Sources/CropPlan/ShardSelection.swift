import Foundation

/// Where `--shard I/N` comes from: the command line, or a batch engine's environment.
package enum ShardSelection {
  package struct Problem: Error, CustomStringConvertible, Sendable {
    package var description: String
  }

  /// Parses `I/N` with 0 ≤ I < N.
  package static func parse(_ text: String) throws(Problem) -> Shard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else {
      throw Problem(description: "--shard expects I/N with 0 ≤ I < N (e.g. 0/4), got \"\(text)\"")
    }
    return Shard(index: i, count: n)
  }

  /// A batch engine that numbers its workers through the environment: the variable with the
  /// worker's index (0-based), and the one with the number of workers where the engine sets one.
  package struct Engine: Sendable {
    package var name: String
    package var index: String
    package var count: String?
  }

  /// The engines other than Slurm (whose array ranges `fromEnvironment` reads apart), in the
  /// order the docs list them. Kubernetes gives no count: `--shard-count` gives it.
  package static let engines = [
    Engine(name: "Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX", count: nil),
    Engine(name: "AWS Batch array job", index: "AWS_BATCH_JOB_ARRAY_INDEX", count: "AWS_BATCH_JOB_ARRAY_SIZE"),
    Engine(name: "Cloud Run job", index: "CLOUD_RUN_TASK_INDEX", count: "CLOUD_RUN_TASK_COUNT"),
    Engine(name: "Google Cloud Batch job", index: "BATCH_TASK_INDEX", count: "BATCH_TASK_COUNT"),
  ]

  /// The shard a batch engine assigns through the environment, if any:
  /// Slurm job arrays ((SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP
  /// of SLURM_ARRAY_TASK_COUNT, so `--array=10-13` and `--array=0-6:2` both give 0..<4),
  /// then the `engines`: Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX of `count`), AWS Batch
  /// array jobs (AWS_BATCH_JOB_ARRAY_INDEX of AWS_BATCH_JOB_ARRAY_SIZE), Cloud Run jobs
  /// (CLOUD_RUN_TASK_INDEX of CLOUD_RUN_TASK_COUNT), Google Cloud Batch (BATCH_TASK_INDEX of
  /// BATCH_TASK_COUNT). `count` comes from `--shard-count`. Refused, rather than guessed: a
  /// variable that is not an integer, an index without a count, an engine's count without its
  /// index, a `count` that differs from the engine's, two engines' variables at once, and a
  /// `count` with none of these variables set (it would run the whole batch on every worker).
  package static func fromEnvironment(_ env: [String: String], count: Int?) throws(Problem) -> Shard? {
    func int(_ key: String) throws(Problem) -> Int? {
      guard let text = env[key] else { return nil }
      guard let value = Int(text) else { throw Problem(description: "\(key)=\(text) is not an integer") }
      return value
    }
    // The engine's own count wins only when --shard-count agrees with it.
    func agreed(_ engineCount: Int?, _ key: String?) throws(Problem) -> Int? {
      if let engineCount, let key, let count, count != engineCount {
        throw Problem(description: "--shard-count \(count) disagrees with \(key)=\(engineCount): drop --shard-count")
      }
      return engineCount ?? count
    }
    var present = env["SLURM_ARRAY_TASK_ID"] != nil ? ["SLURM_ARRAY_TASK_ID"] : []
    for engine in engines {
      if env[engine.index] != nil {
        present.append(engine.index)
      } else if let key = engine.count, env[key] != nil {
        throw Problem(description: "\(key) is set but \(engine.index) is not: pass --shard I/N")
      }
    }
    if present.count > 1 {
      throw Problem(
        description:
          "\(present.joined(separator: " and ")) are set at once: two batch engines give a shard; pass --shard I/N"
      )
    }
    if let id = try int("SLURM_ARRAY_TASK_ID") {
      let min = try int("SLURM_ARRAY_TASK_MIN") ?? 0
      guard let n = try agreed(try int("SLURM_ARRAY_TASK_COUNT"), "SLURM_ARRAY_TASK_COUNT") else {
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
    for engine in engines {
      guard let index = try int(engine.index) else { continue }
      var engineCount: Int?
      if let key = engine.count { engineCount = try int(key) }
      guard let n = try agreed(engineCount, engine.count) else {
        throw Problem(
          description: engine.count.map { "\(engine.index) is set but \($0) is not (or pass --shard-count)" }
            ?? "\(engine.index) is set: pass --shard-count N (the number of workers)")
      }
      return try checked(index, n, engine.index)
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
  package static let indexVariables = ["SLURM_ARRAY_TASK_ID"] + engines.map(\.index)

  private static func checked(_ index: Int, _ count: Int, _ source: String) throws(Problem) -> Shard {
    guard count >= 1, index >= 0, index < count else {
      throw Problem(description: "\(source) gives shard \(index) of \(count), outside 0..<\(count)")
    }
    return Shard(index: index, count: count)
  }
}
