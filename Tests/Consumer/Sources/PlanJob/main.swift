// Loads a job file, plans it with CropKit's public API and prints one line per output:
// what a program that embeds cropjob's planner would do.
import CropKit
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
  FileHandle.standardError.write(Data("usage: plan-job <job.yaml>\n".utf8))
  exit(64)
}
let loaded = JobFileLoader.load(path: path, formats: .libvips)
for diagnostic in loaded.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
guard let file = loaded.jobFile else { exit(1) }
let plan = Planner().plan(file)
for output in plan.outputs {
  let size = output.geometry.outputSize
  print("\(output.job) \(plan.sources[output.sourceIndex].path) -> \(output.path) \(size.width)x\(size.height)")
}
print("\(plan.outputs.count) outputs from \(plan.sources.count) sources; runnable: \(plan.isRunnable)")
exit(plan.isRunnable ? 0 : 1)
