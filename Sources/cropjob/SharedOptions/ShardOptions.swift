import CropKit
import Foundation

/// `--shard I/N` and `--shard-count N`, shared by `run` and `plan`. Without `--shard`, the
/// shard comes from a batch engine's environment (Slurm, Kubernetes, AWS Batch, Cloud Run, Google Cloud Batch).
struct ShardOptions {
  /// `--shard`, as given.
  var given: Shard?
  /// `--shard-count`: the number of shards when the environment gives only an index.
  var count: Int?
  /// The shard to do, once `resolve` has run: `--shard`, else the environment, else nil.
  private(set) var selected: Shard?

  static var arguments: [Argument<Self>] {
    [
      .option(
        \.given, "--shard", value: "i/n", .shard, inUsage: true,
        help: """
          Only shard i of n (0-based); also read from SLURM_ARRAY_TASK_*,
          JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_*, CLOUD_RUN_TASK_* or
          BATCH_TASK_*.
          """),
      .option(
        \.count, "--shard-count", value: "n", .integer(in: 1...1_000_000),
        help: "Number of shards when the environment gives only an index (Kubernetes)."),
    ]
  }

  /// Sets `selected`; a batch-engine variable without the count it needs is a usage error.
  mutating func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    if let given {
      selected = given
      return
    }
    do throws(ShardSelection.Problem) {
      selected = try ShardSelection.fromEnvironment(environment, count: count)
    } catch {
      throw UsageError(message: error.description)
    }
  }
}

extension ValueParser where Value == Shard {
  /// `I/N` with 0 ≤ I < N.
  static var shard: Self {
    ValueParser(choices: nil, examples: ["0/2", "1/2"]) { text, _ in
      do throws(ShardSelection.Problem) {
        return try ShardSelection.parse(text)
      } catch {
        throw UsageError(message: error.description)
      }
    }
  }
}
