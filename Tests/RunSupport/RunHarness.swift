import CropKit
import Foundation
import TestSupport
import XCTest

/// A harness's job loaded, planned and run in-process through the library's composition;
/// what the executor reported is collected.
extension RunHarness {
  public func load() throws -> JobFile {
    let result = JobFileLoader.load(path: jobPath)
    return try XCTUnwrap(
      result.jobFile, "job file invalid: \(result.diagnostics.map(\.description).joined(separator: "\n"))")
  }

  package func plan(outputRoot: String? = nil) throws -> Plan {
    Planner(outputRoot: outputRoot).plan(try load())
  }

  /// Plans and runs through the library's composition (`JobRun`: `JobPlan`, then the
  /// executor), as `cropjob run` does; `configure` adjusts the options. A run refused for
  /// files in the way comes back as a run that did not start (`RunRefusal.report`: each
  /// file a failure, nothing written); any other refusal fails the test.
  /// `window`: sources per planning window (`cropjob`'s `CROPJOB_PLAN_WINDOW`; nil: the
  /// default); `verifySources` and `rebuildState` as `--verify-sources`, `--rebuild-state`.
  @discardableResult
  public func run(
    outputRoot: String? = nil, reporter: CollectingReporter = CollectingReporter(), window: Int? = nil,
    verifySources: Bool = false, rebuildState: Bool = false, _ configure: (inout RunOptions) -> Void = { _ in }
  ) throws -> (RunSummary, CollectingReporter) {
    var options = RunOptions()
    options.jobs = 2
    configure(&options)
    var job = JobRun(try load(), options: options)
    job.outputRoot = outputRoot
    if let window { job.window = window }
    job.verifySources = verifySources
    job.rebuildState = rebuildState
    switch JobPlan.make(job) {
    case .success(let plan):
      if case .notRunnable(let text, _) = plan.refusal { XCTFail(text) }
      return (job.execute(plan, reporter: reporter), reporter)
    case .failure(let refusal):
      XCTFail("\(refusal)")
      return (refusal.report(planned: 0, to: reporter), reporter)
    }
  }

  /// The plan's text as `cropjob plan` prints it (the up-to-date counts from the output
  /// root's state included), planned in windows of `window` sources (nil: the default).
  public func planText(outputRoot: String? = nil, window: Int? = nil) throws -> String {
    var job = JobRun(try load())
    job.outputRoot = outputRoot
    if let window { job.window = window }
    let plan = try JobPlan.make(job, for: .print).get()
    return PlanRenderer.text(plan.stream, upToDateCounts: plan.verdicts.upToDateCounts)
  }
}

/// Keeps every event; optionally acts on one (e.g. cancels after the n-th write).
public final class CollectingReporter: RunReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [RunEvent] = []
  private let onEvent: (@Sendable (RunEvent, Int) -> Void)?

  public init(onEvent: (@Sendable (RunEvent, Int) -> Void)? = nil) { self.onEvent = onEvent }

  public func report(_ event: RunEvent) {
    lock.lock()
    stored.append(event)
    let count = stored.count
    lock.unlock()
    onEvent?(event, count)
  }

  public var events: [RunEvent] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  public var written: [String] {
    events.compactMap { if case .wrote(let path, _, _, _) = $0 { return path } else { return nil } }
  }
  public var skipped: [String] {
    events.compactMap { if case .skipped(let path) = $0 { return path } else { return nil } }
  }
  public var decoded: [String] {
    events.compactMap { if case .decoded(let source) = $0 { return source } else { return nil } }
  }
  public var stale: [String] { events.compactMap { if case .stale(let path) = $0 { return path } else { return nil } } }
  public var pruned: [String] {
    events.compactMap { if case .pruned(let path) = $0 { return path } else { return nil } }
  }
}

/// Runs job files in-process: JobFileLoader → Planner → Executor.
public enum JobRunner {
  /// A reporter that drops every event.
  public struct Silent: RunReporter {
    public init() {}
    public func report(_ event: RunEvent) {}
  }

  /// Loads, plans and runs `path` as `cropjob run` does (`JobRun`), into `outputRoot` (nil:
  /// the job file's, as `--output`); fails the test on diagnostics, a refusal or failures.
  /// Returns the job file's plan.
  @discardableResult
  package static func run(
    _ path: String, outputRoot: String? = nil, file: StaticString = #filePath, line: UInt = #line
  ) -> Plan? {
    let loaded = JobFileLoader.load(path: path)
    guard let jobFile = loaded.jobFile else {
      XCTFail("\(path): \(loaded.diagnostics.map { "\($0)" }.joined(separator: "\n"))", file: file, line: line)
      return nil
    }
    var job = JobRun(jobFile)
    job.outputRoot = outputRoot
    switch job.run(reporter: Silent()) {
    case .success(let summary):
      XCTAssertEqual(summary.failed, 0, "\(path): \(summary.failures)", file: file, line: line)
    case .failure(let refusal):
      XCTFail("\(path): \(refusal)", file: file, line: line)
    }
    return Planner(outputRoot: outputRoot).plan(jobFile)
  }
}
