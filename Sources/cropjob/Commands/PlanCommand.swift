import CropKit
import Foundation

/// `cropjob plan`: what a job file would do, from image headers only.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "plan",
    abstract: "Print what a job file would do, reading image headers only; write nothing.",
    epilogue: """
      EXIT CODES:
        0 runnable, 1 not runnable (errors listed), 64 usage error.
      """)

  var jobFile = ""
  var format = PlanFormat.text
  var shards = ShardOptions()
  var planning = PlanningOptions()

  static var arguments: [Argument<Self>] {
    [
      .positional(\.jobFile, "job.yaml", noun: "job file", help: "The job file."),
      .option(
        \.format, "--format", value: "format", .choice, inUsage: true,
        help: """
          text (summary and issues), json (every output with its crop
          rectangle in source pixels) or dot (Graphviz). Default text.
          """),
      .group(\.shards, ShardOptions.arguments),
      .group(\.planning, PlanningOptions.arguments),
    ]
  }

  mutating func validate() throws {
    try shards.resolve()
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(jobFile) else { return ExitCode.failure }
    return Self.printPlan(planning.plan(file), format: format, shard: shards.selected)
  }

  static func printPlan(_ plan: Plan, format: PlanFormat, shard: Shard?) -> Int32 {
    let selected = plan.selectedOutputs(shard: shard)
    let check = UpToDateCheck(plan: plan, previous: Manifest.loadAll(root: plan.outputRoot))
    Console.out(PlanRenderer.render(plan, format: format, selected: selected, upToDate: check.upToDatePaths(selected)))
    return plan.isRunnable ? ExitCode.success : ExitCode.failure
  }
}
