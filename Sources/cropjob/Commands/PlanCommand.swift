import CropKit
import Foundation

/// `cropjob plan`: what a job file would do, from image headers only.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "plan",
    abstract: "Print what a job file would do, reading image headers only; write nothing.",
    exitCodes: [
      ExitCodeMeaning(ExitCode.success, "runnable (a job allowed to be empty is named in a warning)"),
      ExitCodeMeaning(ExitCode.invalidJob, "not runnable, the errors listed: " + ExitCodeMeaning.cannotRun),
      ExitCodeMeaning.usage,
    ])

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
    guard let file = JobLoading.load(jobFile) else { return ExitCode.invalidJob }
    var options = RunOptions()
    options.shard = shards.selected
    options.overwrite = overwrite
    options.jpegDecoder = planning.jpegDecoder
    return Self.printPlan(planning.job(file, options: options), format: format)
  }

  /// Plans `job`'s file for printing (`JobPlan`) and prints the plan, then each file cropjob
  /// did not write that an output or an index file would replace (with the text format on
  /// stdout after the plan, else on stderr). The plan's verdicts say what is up to date
  /// (every format); its refusal gives the exit code. JSON and text are written from the
  /// plan's windows (`PlanStream`): memory does not grow with the batch; the DOT graph is made
  /// from the whole plan (one window per job, as `Planner.plan` makes it).
  static func printPlan(_ job: JobRun, format: PlanFormat) -> Int32 {
    let plan: JobPlan
    switch JobPlan.make(job, for: format == .dot ? .printWhole : .print) {
    case .success(let made): plan = made
    case .failure(let refusal):
      Console.err("cropjob: \(refusal)")
      return ExitCode.invalidJob
    }
    let stream = plan.stream
    let verdicts = plan.verdicts
    switch format {
    case .dot:
      let whole = stream.plan!
      var upToDate = Set<String>()
      stream.forEachWindow { upToDate.formUnion(verdicts.upToDatePaths(of: $0)) }
      Console.out(
        PlanRenderer.render(
          whole, format: format, selected: whole.selectedOutputs(shard: job.options.shard), upToDate: upToDate))
    case .json:
      // Streamed: a plan of a million outputs is never held as one string.
      PlanRenderer.writeJSON(stream, facts: verdicts.facts(of:)) {
        FileHandle.standardOutput.write(Data($0))
      }
    case .text:
      Console.out(PlanRenderer.text(stream, upToDateCounts: verdicts.upToDateCounts))
    }
    for conflict in plan.filesInTheWay {
      let line = "\(job.options.overwrite ? "warning" : "error"): \(conflict.message)"
      if format == .text { Console.out(line) } else { Console.err(line) }
    }
    return plan.refusal == nil ? ExitCode.success : ExitCode.invalidJob
  }
}
