import CropKit
import Foundation

struct PlanCommand: Command {
  static let name = "plan"
  static let abstract = "Print what a job file would do, reading image headers only; write nothing."
  static let usage = "cropjob plan <job.yaml> [--format text|json|dot] [--shard <i/n>]"
  static let details = """
    ARGUMENTS:
      <job.yaml>              The job file.

    OPTIONS:
      --format <format>       text (summary and issues), json (every output with its crop
                              rectangle in source pixels) or dot (Graphviz). Default text.
      --shard <i/n>           Only shard i of n (see `cropjob help run`).
      --shard-count <n>       Number of shards when the environment gives only an index.
      --output <dir>          Output root instead of the job file's `output`.
    \(JobLoading.limitHelp)
      -h, --help              Show help.

    EXIT CODES:
      0 runnable, 1 not runnable (errors listed), 64 usage error.
    """

  let args: Arguments

  init(arguments: [String]) throws {
    args = try Arguments(
      arguments, flags: [],
      options: Set(["--format", "--shard", "--shard-count", "--output"]).union(JobLoading.limitOptions))
    guard args.positionals.count == 1 else {
      throw UsageError(
        message: args.positionals.isEmpty
          ? "missing <job.yaml>" : "expected one job file, got \(args.positionals.count)")
    }
    _ = try args.choice("--format", PlanFormat.self)
    _ = try JobLoading.shard(args)
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(args.positionals[0]) else { return ExitCode.failure }
    do {
      let plan = Planner(limits: try JobLoading.limits(file, args), outputRoot: args.option("--output")).plan(file)
      return Self.printPlan(
        plan, format: try args.choice("--format", PlanFormat.self) ?? .text, shard: try JobLoading.shard(args))
    } catch {
      Console.err("Error: \((error as? UsageError)?.message ?? "\(error)")")
      return ExitCode.usage
    }
  }

  static func printPlan(_ plan: Plan, format: PlanFormat, shard: Shard?) -> Int32 {
    let selected = plan.selectedOutputs(shard: shard)
    let check = UpToDateCheck(plan: plan, previous: Manifest.loadAll(root: plan.outputRoot))
    Console.out(PlanRenderer.render(plan, format: format, selected: selected, upToDate: check.upToDatePaths(selected)))
    return plan.isRunnable ? ExitCode.success : ExitCode.failure
  }
}
