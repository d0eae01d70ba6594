import Foundation

/// How the S3 store retries: up to `maxAttempts` tries in all, waiting before try n+1 a time
/// drawn uniformly from 0 to min(`maxDelay`, `baseDelay` × 2ⁿ⁻¹) ("full jitter", as the AWS
/// SDKs do), on the answers worth another try: 500, 502, 503, 504, `SlowDown`,
/// `RequestTimeout`, `InternalError`, and connections reset, dropped or timed out.
public struct RetryPolicy: Sendable {
  public var maxAttempts: Int
  /// Seconds.
  public var baseDelay: Double
  /// Seconds.
  public var maxDelay: Double
  /// Seeds the jitter (tests); nil draws from the system's generator.
  public var seed: UInt64?

  public init(maxAttempts: Int = 6, baseDelay: Double = 0.1, maxDelay: Double = 20, seed: UInt64? = nil) {
    precondition(maxAttempts >= 1, "at least one attempt")
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.seed = seed
  }

  /// The longest wait after failed attempt `attempt` (1-based).
  public func ceiling(after attempt: Int) -> Double {
    min(maxDelay, baseDelay * pow(2, Double(min(attempt, 60) - 1)))
  }

  /// Whether an S3 error answer is worth another try.
  static func retryable(status: Int, code: String?) -> Bool {
    if [500, 502, 503, 504].contains(status) { return true }
    return ["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "Throttling", "ThrottlingException"]
      .contains(code ?? "")
  }
}

/// The jitter's random numbers: SplitMix64, seeded or from the system, behind a lock so that
/// workers share one sequence.
final class JitterSource: @unchecked Sendable {
  private let lock = NSLock()
  private var state: UInt64

  init(seed: UInt64?) { state = seed ?? UInt64.random(in: 0...UInt64.max) }

  /// A number in 0 ... `upper`.
  func draw(upTo upper: Double) -> Double {
    lock.lock()
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    lock.unlock()
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return upper * Double(z >> 11) / Double(1 << 53)
  }
}

/// Something the S3 store reports while it works: today, a retry (cropjob shows each as a
/// warning event). Holds no secret.
public struct StorageEvent: Sendable, Equatable, CustomStringConvertible {
  /// The request, e.g. `GET s3://bucket/key`.
  public var request: String
  /// The attempt that failed (1-based) and how many are allowed.
  public var attempt: Int
  public var maxAttempts: Int
  /// Why it failed: `503 SlowDown`, `connection reset (Recv failure: ...)`.
  public var reason: String
  /// Seconds waited before the next attempt.
  public var delay: Double

  public var description: String {
    "\(request): attempt \(attempt) of \(maxAttempts) failed (\(reason)), retrying in "
      + String(format: "%.3f", delay) + " s"
  }
}
