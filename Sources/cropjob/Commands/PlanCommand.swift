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
    guard let state = planning.state(file, shard: shards.selected) else { return ExitCode.invalidJob }
    return Self.printPlan(
      file, planning: planning, format: format, shard: shards.selected, state: state, overwrite: overwrite)
  }

  /// Plans `file` and prints the plan, and each file cropjob did not write that an output
  /// would replace (with the text format on stdout after the plan, else on stderr). One first
  /// pass (`FirstPass`, exact) gives every format its verdicts: what is up to date and what
  /// is in the way. JSON and text are written from the plan's windows (`PlanStream`): memory
  /// does not grow with the batch; the DOT graph is made from the whole plan (one window per
  /// job, as `Planner.plan` makes it).
  static func printPlan(
    _ file: JobFile, planning: PlanningOptions, format: PlanFormat, shard: Shard?, state: StateReader,
    overwrite: Bool
  ) -> Int32 {
    let firstPass = FirstPass(state: state, jobs: file.jobs, exact: true)
    let stream = planning.stream(
      file, state: state, shard: shard, whole: format == .dot, inspect: firstPass.inspect)
    if let failure = state.failure { return stateFailure(failure) }
    switch format {
    case .dot:
      let plan = stream.plan!
      var upToDate = Set<String>()
      stream.forEachWindow { upToDate.formUnion(firstPass.upToDatePaths(of: $0)) }
      Console.out(
        PlanRenderer.render(plan, format: format, selected: plan.selectedOutputs(shard: shard), upToDate: upToDate))
    case .json:
      // Streamed: a plan of a million outputs is never held as one string.
      PlanRenderer.writeJSON(stream, facts: firstPass.facts(of:)) {
        FileHandle.standardOutput.write(Data($0))
      }
    case .text:
      Console.out(PlanRenderer.text(stream, upToDateCounts: firstPass.upToDateCounts))
    }
    let conflicts = firstPass.conflicts.map(\.output)
    printConflicts(conflicts, format: format, overwrite: overwrite)
    let indexConflicts = DeliveryIndex.conflicts(IndexFile.planned(stream).files, root: stream.outputRoot)
    for path in indexConflicts {
      let line =
        "\(overwrite ? "warning" : "error"): would overwrite a file cropjob did not write: "
        + PathText.appending(stream.outputRoot, path) + " (an index file)"
      if format == .text { Console.out(line) } else { Console.err(line) }
    }
    let clear = (conflicts.isEmpty && indexConflicts.isEmpty) || overwrite
    return stream.isRunnable && clear ? ExitCode.success : ExitCode.invalidJob
  }

  /// A state database that could not be read while planning (damaged past its first pages):
  /// said as `PlanningOptions.state` says it.
  static func stateFailure(_ error: StateError) -> Int32 {
    Console.err("cropjob: \(error)")
    return ExitCode.invalidJob
  }

  static func printConflicts(_ conflicts: [PlannedOutput], format: PlanFormat, overwrite: Bool) {
    for output in conflicts {
      let line = "\(overwrite ? "warning" : "error"): \(OverwriteGuard.message(output))"
      if format == .text { Console.out(line) } else { Console.err(line) }
    }
  }
}
