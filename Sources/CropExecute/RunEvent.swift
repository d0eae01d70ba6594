/// What the executor reports while it runs; reporters render these.
public enum RunEvent: Sendable {
  case started(total: Int, upToDate: Int)
  case decoded(source: String)
  case wrote(path: String, bytes: Int, quality: Int, encodes: Int)
  case skipped(path: String)
  case failed(path: String, source: String, reason: String)
  case pruned(path: String)
  case stale(path: String)
  case finished(RunSummary)
}

/// Counts of a run, and every failure with its reason.
public struct RunSummary: Sendable, Codable, Equatable {
  public var planned = 0
  public var written = 0
  public var upToDate = 0
  public var failed = 0
  public var decodes = 0
  public var encodes = 0
  public var pruned = 0
  public var stale = 0
  public var interrupted = false
  public var failures: [Failure] = []

  public struct Failure: Sendable, Codable, Equatable {
    public var output: String
    public var source: String
    public var reason: String

    public init(output: String, source: String, reason: String) {
      self.output = output
      self.source = source
      self.reason = reason
    }
  }

  public init() {}
}

/// Receives events from any thread, one at a time.
public protocol RunReporter: Sendable {
  func report(_ event: RunEvent)
}
