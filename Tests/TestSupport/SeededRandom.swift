import Foundation

/// A small seeded generator (SplitMix64): random property tests and damaged copies that
/// are the same on every run.
public struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension SeededRandom {
  /// The seed of a random test: `CROPJOB_TEST_SEED` when set (to replay a failure), else
  /// `fallback`. Tests put it in their failure messages (`"seed \(seed)"`), so that a failure
  /// can be replayed with `CROPJOB_TEST_SEED=<seed> swift test --filter …`.
  public static func testSeed(_ fallback: UInt64) -> UInt64 {
    ProcessInfo.processInfo.environment["CROPJOB_TEST_SEED"].flatMap { UInt64($0) } ?? fallback
  }
}
