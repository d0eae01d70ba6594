import CropKit
import Foundation

struct RunCommand: Command {
  static let name = "run"
  static let abstract = "Run a job file: decode each photo once, write every output atomically, and a manifest."
  static let usage =
    "cropjob run <job.yaml> [--jobs <n>] [--dry-run] [--force] [--prune] [--fail-fast] [--shard <i/n>] [--quiet | --json] [--stats]"
  static let details = """
    ARGUMENTS:
      <job.yaml>              The job file.

    OPTIONS:
      -j, --jobs <n>          Photos processed at once (default: the number of cores).
      -n, --dry-run           Print the plan (as `cropjob plan`) and write nothing.
      --format <format>       With --dry-run: text, json or dot (default text).
      -f, --force             Rebuild outputs even when they are up to date.
      --prune                 Delete outputs of earlier runs that the job no longer produces.
      --fail-fast             Stop at the first failed output.
      --shard <i/n>           Do shard i of n (0-based); also read from SLURM_ARRAY_TASK_ID,
                              JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX.
      --shard-count <n>       Number of shards when the environment gives only an index.
      --output <dir>          Output root instead of the job file's `output`.
      -q, --quiet             Print only failures and the summary.
      --json                  Print NDJSON events (one JSON object per line) on stdout.
      --stats                 Print counts (decodes, encodes, outputs) at the end.
    \(JobLoading.limitHelp)
      -h, --help              Show help.

    EXIT CODES:
      0 all outputs done or up to date, 1 some outputs failed (or, with --dry-run, the plan
      cannot run), 2 invalid job file or a plan that cannot run (path collisions, outputs
      outside the root; nothing was written), 64 usage error, 130 interrupted
      (SIGINT/SIGTERM; the next run resumes).
    """

  let args: Arguments
  let jobPath: String

  init(arguments: [String]) throws {
    args = try Arguments(
      arguments,
      flags: ["--dry-run", "--force", "--prune", "--fail-fast", "--quiet", "--json", "--stats"],
      options: Set(["--jobs", "--format", "--shard", "--shard-count", "--output"]).union(JobLoading.limitOptions),
      aliases: ["-j": "--jobs", "-n": "--dry-run", "-f": "--force", "-q": "--quiet"])
    guard args.positionals.count == 1 else {
      throw UsageError(
        message: args.positionals.isEmpty
          ? "missing <job.yaml>" : "expected one job file, got \(args.positionals.count)")
    }
    jobPath = args.positionals[0]
    _ = try args.int("--jobs", in: 1...1024)
    _ = try args.choice("--format", PlanFormat.self)
    _ = try JobLoading.shard(args)
    if args.flag("--quiet") && args.flag("--json") { throw UsageError(message: "use --quiet or --json, not both") }
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(jobPath) else { return ExitCode.invalidJob }
    let plan: Plan
    let shard: Shard?
    do {
      plan = Planner(limits: try JobLoading.limits(file, args), outputRoot: args.option("--output")).plan(file)
      shard = try JobLoading.shard(args)
    } catch {
      Console.err("Error: \((error as? UsageError)?.message ?? "\(error)")")
      return ExitCode.usage
    }
    var options = RunOptions()
    options.jobs = (try? args.int("--jobs", in: 1...1024)) ?? nil ?? options.jobs
    options.force = args.flag("--force")
    options.prune = args.flag("--prune")
    options.failFast = args.flag("--fail-fast")
    options.shard = shard
    if args.flag("--dry-run") {
      return PlanCommand.printPlan(
        plan, format: (try? args.choice("--format", PlanFormat.self)) ?? nil ?? .text, shard: shard)
    }
    if !plan.isRunnable {
      // Path collisions and outputs outside the root are job-file mistakes: nothing is done.
      Console.err(PlanRenderer.render(plan, format: .text))
      return ExitCode.invalidJob
    }
    let mode: ConsoleReporter.Mode =
      args.flag("--json") ? .json : args.flag("--quiet") ? .quiet : Console.stderrIsTerminal ? .bar : .lines
    let reporter = ConsoleReporter(mode: mode)
    for issue in plan.issues where issue.severity == .warning && mode != .json && mode != .quiet {
      Console.err("\(issue)")
    }
    SignalHandling.install()
    let summary = Executor(plan: plan, options: options, reporter: reporter).run()
    if args.flag("--stats") && mode != .json {
      Console.err(
        "stats: planned \(summary.planned), written \(summary.written), up to date \(summary.upToDate), failed \(summary.failed), decodes \(summary.decodes), encodes \(summary.encodes)"
      )
    }
    if summary.interrupted { return ExitCode.interrupted }
    return summary.failed > 0 ? ExitCode.failure : ExitCode.success
  }
}
