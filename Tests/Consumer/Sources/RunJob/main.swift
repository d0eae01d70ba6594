// Loads a job file and runs it with CropKit's public API (`JobRun`), as `cropjob run` does,
// into the output root given: what a program that embeds cropjob would do. Prints each
// failure and a summary line; exit 0 when every output is done or up to date, 1 when some
// failed, 2 when the run was refused (nothing written), 64 on a usage error.
// .ci/consumer-check compares its outputs, byte for byte, with `cropjob run`'s.
import CropKit
import Foundation

/// Counts the events and prints the failures as they come.
final class Reporter: RunReporter, @unchecked Sendable {
  private let lock = NSLock()
  private(set) var decoded = 0

  func report(_ event: RunEvent) {
    switch event {
    case .failed(let path, let source, let reason):
      FileHandle.standardError.write(Data("failed: \(path) (from \(source)): \(reason)\n".utf8))
    case .decoded:
      lock.lock()
      decoded += 1
      lock.unlock()
    default: break
    }
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: run-job <job.yaml> <output-root>\n".utf8))
  exit(64)
}
let loaded = JobFileLoader.load(path: arguments[0], formats: .libvips)
for diagnostic in loaded.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
guard let file = loaded.jobFile else { exit(2) }
var job = JobRun(file)
job.outputRoot = arguments[1]
let reporter = Reporter()
switch job.run(reporter: reporter) {
case .success(let summary):
  // Each failure as a value: the stage that found it and what it names (`CropError`).
  for failure in summary.failures {
    switch failure.error {
    case .source(let path, _): FileHandle.standardError.write(Data("source failed: \(path)\n".utf8))
    case .output(let path, _, _): FileHandle.standardError.write(Data("output failed: \(path)\n".utf8))
    default: FileHandle.standardError.write(Data("\(failure.error)\n".utf8))
    }
  }
  print(
    "written \(summary.written), up to date \(summary.upToDate), failed \(summary.failed), decodes \(reporter.decoded)")
  exit(summary.failed > 0 ? 1 : 0)
case .failure(let refusal):
  for error in refusal.errors { FileHandle.standardError.write(Data("refused: \(error)\n".utf8)) }
  exit(2)
}
