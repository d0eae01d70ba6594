// Loads a job file, plans it with CropKit's public API (`JobPlan`, as `cropjob plan` does) and
// prints the plan's text and a count line: what a program that embeds cropjob's planner
// would do. Exit 0 when the plan can run, 1 when not, 2 when planning was refused.
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
switch JobPlan.make(JobRun(file), for: .printWhole) {
case .success(let plan):
  print(plan.text)
  print("\(plan.outputCount) outputs from \(plan.sourceCount) sources; runnable: \(plan.isRunnable)")
  exit(plan.isRunnable ? 0 : 1)
case .failure(let refusal):
  FileHandle.standardError.write(Data("refused: \(refusal)\n".utf8))
  exit(2)
}
