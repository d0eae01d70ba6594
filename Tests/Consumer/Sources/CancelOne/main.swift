// Runs one job file twice at once with CropKit's public API (two `JobRun`s, two output roots,
// each with the cancellation token of its own options) and cancels the first run after its
// first output: the first stops (`interrupted`), the second finishes with every output.
// Exit 0 when that holds, 1 when not, 2 when a run was refused, 64 on a usage error.
// Run by .ci/consumer-check:  cancel-one <job.yaml> <scratch-folder>
import CropKit
import Dispatch
import Foundation

/// Cancels `token` at the first output written.
final class CancelAtFirstWrite: RunReporter, @unchecked Sendable {
  let token: CancellationToken
  init(_ token: CancellationToken) { self.token = token }
  func report(_ event: RunEvent) { if case .wrote = event { token.cancel() } }
}

/// Drops every event.
struct Quiet: RunReporter {
  func report(_ event: RunEvent) {}
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: cancel-one <job.yaml> <scratch-folder>\n".utf8))
  exit(64)
}
let loaded = JobFileLoader.load(path: arguments[0], formats: .libvips)
guard let file = loaded.jobFile else { exit(2) }
var first = JobRun(file)
first.outputRoot = arguments[1] + "/cancelled"
first.options.jobs = 1
var second = JobRun(file)
second.outputRoot = arguments[1] + "/finished"
second.options.jobs = 1

/// The two runs' results, each set by its own thread.
final class Outcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Int: Result<RunSummary, JobRun.Refusal>] = [:]
  func set(_ i: Int, _ result: Result<RunSummary, JobRun.Refusal>) { lock.withLock { results[i] = result } }
  subscript(i: Int) -> Result<RunSummary, JobRun.Refusal>? { lock.withLock { results[i] } }
}

/// Runs each of `runs` on a thread of its own, at once.
func runAtOnce(_ runs: [JobRun], reporters: [RunReporter]) -> Outcomes {
  let outcomes = Outcomes()
  DispatchQueue.concurrentPerform(iterations: runs.count) { i in outcomes.set(i, runs[i].run(reporter: reporters[i])) }
  return outcomes
}

let outcomes = runAtOnce([first, second], reporters: [CancelAtFirstWrite(first.options.cancellation), Quiet()])
guard case .success(let stopped) = outcomes[0], case .success(let done) = outcomes[1] else {
  FileHandle.standardError.write(
    Data("refused: \(String(describing: outcomes[0])) \(String(describing: outcomes[1]))\n".utf8))
  exit(2)
}
print("cancelled run: written \(stopped.written) of \(stopped.planned), interrupted \(stopped.interrupted)")
print("other run: written \(done.written) of \(done.planned), failed \(done.failed), interrupted \(done.interrupted)")
let holds =
  stopped.interrupted && stopped.written < stopped.planned && !done.interrupted && done.failed == 0
  && done.written == done.planned
exit(holds ? 0 : 1)
