import CropKit
import Foundation

/// `cropjob plan`: what a job file would do, from image headers only.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "plan",
    abstract: "Print what a job file would do, reading image headers only; write nothing.",
    epilogue: """
      EXIT CODES:
        0 runnable, 1 not runnable (errors listed, or files cropjob did not write in the way
        without --overwrite), 64 usage error.
      """)

  var jobFile = ""
  var format = PlanFormat.text
  var overwrite = false
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
      .flag(
        \.overwrite, "--overwrite",
        help: "Plan to replace files in the output root that cropjob did not write."),
      .group(\.shards, ShardOptions.arguments),
      .group(\.planning, PlanningOptions.arguments),
    ]
  }

  mutating func validate() throws {
    try shards.resolve()
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(jobFile) else { return ExitCode.failure }
    guard let state = planning.state(file, shard: shards.selected) else { return ExitCode.failure }
    return Self.printPlan(
      planning.plan(file, state: state), format: format, shard: shards.selected, state: state, overwrite: overwrite)
  }

  /// Prints the plan, and each file cropjob did not write that an output would replace
  /// (with the text format on stdout after the plan, else on stderr).
  static func printPlan(_ plan: Plan, format: PlanFormat, shard: Shard?, state: StateSnapshot, overwrite: Bool)
    -> Int32
  {
    let selected = plan.selectedOutputs(shard: shard)
    let check = UpToDateCheck(plan: plan, state: state)
    let upToDate = check.upToDatePaths(selected)
    if format == .json {
      // Streamed: a plan of a million outputs is never held as one string.
      PlanRenderer.writeJSON(plan, selected: selected, upToDate: upToDate) {
        FileHandle.standardOutput.write(Data($0))
      }
    } else {
      Console.out(PlanRenderer.render(plan, format: format, selected: selected, upToDate: upToDate))
    }
    let conflicts = OverwriteGuard.conflicts(plan: plan, selected: selected, state: state)
    for output in conflicts {
      let line = "\(overwrite ? "warning" : "error"): \(OverwriteGuard.message(output))"
      if format == .text { Console.out(line) } else { Console.err(line) }
    }
    return plan.isRunnable && (conflicts.isEmpty || overwrite) ? ExitCode.success : ExitCode.failure
  }
}
