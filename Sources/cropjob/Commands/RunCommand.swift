import CropKit
import Foundation

/// `cropjob run`: plans the job file and executes the plan, reporting progress on stderr
/// (or NDJSON on stdout).
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "run",
    abstract: "Run a job file: decode each photo once, write every output atomically, and a manifest.",
    exitCodes: [
      ExitCodeMeaning(
        ExitCode.success,
        "all outputs done or up to date (a job allowed to be empty is named in a warning); with --dry-run, runnable"),
      ExitCodeMeaning(
        ExitCode.failure,
        "some outputs failed, each listed with its reason (a source the planner could not read counts)"),
      ExitCodeMeaning(
        ExitCode.invalidJob, ExitCodeMeaning.cannotRun + "; nothing was written (with --dry-run: as plan)"),
      ExitCodeMeaning(ExitCode.usage, "usage error (a bad shard, --shard-count without a shard index)"),
      ExitCodeMeaning(
        ExitCode.interrupted, "interrupted by SIGINT/SIGTERM: in-flight outputs finish, the next run resumes"),
    ])

  var jobFile = ""
  /// Jobs, force, prune, fail-fast; the shard is added from `shards` after validation.
  var execution = EnvironmentSettings.current.runOptions
  var dryRun = false
  var planFormat = PlanFormat.text
  var quiet = false
  var json = false
  var stats = false
  var rebuildState = false
  var verifySources = false
  var shards = ShardOptions()
  var planning = PlanningOptions()

  static var arguments: [Argument<Self>] {
    [
      .positional(\.jobFile, "job.yaml", noun: "job file", help: "The job file."),
      .option(
        \.execution.jobs, "--jobs", short: "-j", value: "n", .integer(in: 1...1024), inUsage: true,
        help: "Photos processed at once (default: the number of cores)."),
      .flag(
        \.dryRun, "--dry-run", short: "-n", inUsage: true, help: "Print the plan (as `cropjob plan`) and write nothing."
      ),
      .option(
        \.planFormat, "--format", value: "format", .choice, help: "With --dry-run: text, json or dot (default text)."),
      .flag(
        \.execution.force, "--force", short: "-f", inUsage: true, help: "Rebuild outputs even when they are up to date."
      ),
      .flag(
        \.execution.prune, "--prune", inUsage: true,
        help: "Delete outputs of earlier runs that the job no longer produces."),
      .flag(\.execution.failFast, "--fail-fast", inUsage: true, help: "Stop at the first failed output."),
      .flag(
        \.execution.overwrite, "--overwrite",
        help: "Replace files in the output root that cropjob did not write (else the run is refused)."),
      .flag(
        \.rebuildState, "--rebuild-state",
        help: """
          Delete the state database (.cropjob/) and rebuild it from
          cropjob-manifest.json: the way out of a damaged one.
          """),
      .flag(
        \.verifySources, "--verify-sources",
        help: """
          Read and hash every source again, whatever the state records of it;
          rebuild only the outputs of sources whose content changed.
          """),
      .group(\.shards, ShardOptions.arguments),
      .exclusive([
        .flag(\.quiet, "--quiet", short: "-q", inUsage: true, help: "Print only failures and the summary."),
        .flag(\.json, "--json", inUsage: true, help: "Print NDJSON events (one JSON object per line) on stdout."),
      ]),
      .flag(\.stats, "--stats", inUsage: true, help: "Print counts (decodes, encodes, outputs) at the end."),
      .option(
        \.execution.jpegDecoder, "--jpeg-decoder", value: "name", .choice,
        help: """
          JPEG sources: auto (libjpeg-turbo where it gives libvips' pixels, the
          default) or libvips (every JPEG, the reference path).
          """),
      .option(
        \.execution.jpegEncoder, "--jpeg-encoder", value: "name", .choice,
        help: """
          Stripped JPEG and PNG outputs: auto (libjpeg/libpng directly, the
          default) or libvips (its savers, the reference path).
          """),
      .group(\.planning, PlanningOptions.arguments),
    ]
  }

  mutating func validate() throws {
    try shards.resolve()
    execution.shard = shards.selected
    planning.jpegDecoder = execution.jpegDecoder
  }

  func run() -> Int32 {
    guard let file = JobLoading.load(jobFile) else { return ExitCode.invalidJob }
    // The library's job (`JobRun`): the state batch, codecs from `EnvironmentSettings`.
    var job = planning.job(file, options: execution)
    job.options.cancellation = SignalHandling.runToken
    job.verifySources = verifySources
    if dryRun { return PlanCommand.printPlan(job, format: planFormat) }
    job.rebuildState = rebuildState
    let mode: ConsoleReporter.Mode = json ? .json : quiet ? .quiet : Console.stderrIsTerminal ? .bar : .lines
    let reporter = ConsoleReporter(mode: mode)
    // Each retried request to object storage is a warning (what failed, the attempt, the wait).
    job.storage = StorageSet(
      options: S3Storage.Options(onEvent: { event in
        reporter.report(
          .warning(
            RunWarning(
              kind: "storage-retry", path: nil, job: nil, source: nil, message: event.description,
              text: "warning: \(event)")))
      }))
    // The first pass plans and judges every output, and finds the files in the way of outputs
    // and index files, before any is written (`JobPlan`).
    let plan: JobPlan
    switch job.plan() {
    case .success(let planned): plan = planned
    case .failure(let refusal): return Self.refused(refusal, shard: execution.shard)
    }
    SignalHandling.install()
    let summary = job.execute(plan, reporter: reporter)
    if stats && mode != .json {
      Console.err(
        "stats: planned \(summary.planned), written \(summary.written), up to date \(summary.upToDate), failed \(summary.failed), decodes \(summary.decodes), encodes \(summary.encodes)"
      )
    }
    if summary.interrupted { return ExitCode.interrupted }
    if summary.storageRefused { return ExitCode.invalidJob }
    return summary.failed > 0 ? ExitCode.failure : ExitCode.success
  }

  /// Says why the run did not start (nothing was written).
  static func refused(_ refusal: JobRun.Refusal, shard: Shard?) -> Int32 {
    switch refusal {
    case .state(let error):
      Console.err("cropjob: \(error)")
    case .storage:
      Console.err("cropjob: \(refusal)")
    case .notRunnable(let plan, _):
      // Path collisions and outputs outside the root are job-file mistakes: nothing is done.
      Console.err(plan)
    case .filesInTheWay:
      // The refusal's own lines (each file in the way, then what --overwrite does).
      for line in refusal.description.split(separator: "\n") { Console.err("cropjob: \(line)") }
      if let shard, shard.count > 1 {
        // Shard membership changed in 0.2.0: outputs recorded by the other shards of this
        // count, which a worker does not read, may now be this shard's (docs/sharding.md).
        Console.err(
          "cropjob: if shards of an earlier cropjob wrote this root, run `cropjob state merge` on the job file once first"
        )
      }
    }
    return ExitCode.invalidJob
  }
}
