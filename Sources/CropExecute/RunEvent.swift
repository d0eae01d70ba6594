import CropPlan
import CropSupport

/// What the executor reports while it runs; reporters render these.
public enum RunEvent: Sendable {
  case started(total: Int, upToDate: Int)
  case decoded(source: String)
  case wrote(path: String, bytes: Int, quality: Int, encodes: Int)
  case skipped(path: String)
  case failed(path: String, source: String, reason: String)
  case pruned(path: String)
  case stale(path: String)
  /// Something the user should know that fails nothing (an upscaled output, a pattern that
  /// matches no file...): every warning of a run, the plan's included, is one of these.
  case warning(RunWarning)
  /// An output whose source failed this run: its file from the last good run is kept
  /// (neither stale nor pruned) and listed in the manifest as such.
  case kept(path: String, source: String)
  /// A delivery index file (`index:`) written: its content changed (docs/job-file.md, "index").
  case indexed(path: String)
  case finished(RunSummary)
}

/// A warning of a run: what it is about (`kind`, a stable word), the output or source it
/// concerns (`path`, nil for the whole job or file) and what to say.
public struct RunWarning: Sendable, Hashable {
  public var kind: String
  public var path: String?
  public var job: String?
  public var source: String?
  public var message: String
  /// The text line: `warning: job t photos/a.jpg → a.jpg: upscaling: …`. A plan issue's is
  /// made when asked for (the console prints a few of each kind; a batch may warn of every
  /// output).
  public var text: String { given ?? issue?.description ?? "" }
  private var given: String?
  private var issue: PlanIssue?

  package init(kind: String, path: String?, job: String?, source: String?, message: String, text: String) {
    self.kind = kind
    self.path = path
    self.job = job
    self.source = source
    self.message = message
    given = text
  }

  /// The warning a plan issue makes.
  package init(_ issue: PlanIssue) {
    kind = issue.kind.rawValue
    path = issue.output ?? issue.source
    job = issue.job
    source = issue.source
    message = issue.message
    self.issue = issue
  }
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
  /// Outputs kept from the last good run because their source failed this run.
  public var kept = 0
  /// Delivery index files written (HTML and JSON each count).
  public var indexed = 0
  public var interrupted = false
  /// The store the outputs live in could not be used (`RunRefusal.storage`): the run did
  /// not start and nothing was written (`cropjob run` exits 2, as for a refused plan).
  public var storageRefused = false
  public var failures: [Failure] = []

  public struct Failure: Sendable, Codable, Equatable {
    public var output: String
    public var source: String
    public var reason: String
    /// The failure as a value to switch on: the stage that found it and what it names (not in
    /// the summary's JSON, whose fields are the three above).
    public var error: CropError

    /// A failure; `error` defaults to an output's (`CropError.output`).
    package init(output: String, source: String, reason: String, error: CropError? = nil) {
      self.output = output
      self.source = source
      self.reason = reason
      self.error = error ?? .output(path: output, source: source, message: reason)
    }

    enum CodingKeys: String, CodingKey { case output, source, reason }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        output: try c.decode(String.self, forKey: .output), source: try c.decode(String.self, forKey: .source),
        reason: try c.decode(String.self, forKey: .reason))
    }
  }

  public init() {}
}

/// Receives events from any thread, one at a time.
public protocol RunReporter: Sendable {
  func report(_ event: RunEvent)
}
