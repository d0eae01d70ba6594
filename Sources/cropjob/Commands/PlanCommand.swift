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
  /// would replace (with the text format on stdout after the plan, else on stderr). JSON and
  /// text are written from the plan's windows (`PlanStream`): memory does not grow with the
  /// batch; the DOT graph is made from the whole plan.
  static func printPlan(
    _ file: JobFile, planning: PlanningOptions, format: PlanFormat, shard: Shard?, state: StateReader,
    overwrite: Bool
  ) -> Int32 {
    if format == .dot {
      let plan = planning.plan(file, state: state)
      let selected = plan.selectedOutputs(shard: shard)
      let snapshot = state.readKeeping(.keys, StateQuery(plan: plan, selected: selected))
      if let failure = state.failure { return stateFailure(failure) }
      return printPlan(plan, format: format, shard: shard, state: snapshot, overwrite: overwrite)
    }
    // The text's counts of up-to-date outputs are made in the first pass, with the guard's
    // lookup: no second pass (the outputs' keys do not depend on the shrink-on-load it sets).
    let guarded = OverwriteGuard.Collector(state: state, countingUpToDate: format == .text && state.recordsOutputs)
    let stream = planning.stream(file, state: state, shard: shard, inspect: guarded.inspect)
    if let failure = state.failure { return stateFailure(failure) }
    let upToDate = { (window: PlanWindow) in
      UpToDateCheck(
        plan: window.plan, state: state.readKeeping(.keys, StateQuery(plan: window.plan, selected: window.selected))
      )
      .upToDatePaths(window.selected)
    }
    if format == .json {
      // Streamed: a plan of a million outputs is never held as one string.
      PlanRenderer.writeJSON(stream, upToDate: upToDate) { FileHandle.standardOutput.write(Data($0)) }
    } else {
      Console.out(PlanRenderer.text(stream, upToDateCounts: guarded.upToDate))
    }
    if let failure = state.failure { return stateFailure(failure) }
    let conflicts = guarded.conflicts.map(\.output)
    printConflicts(conflicts, format: format, overwrite: overwrite)
    return stream.isRunnable && (conflicts.isEmpty || overwrite) ? ExitCode.success : ExitCode.invalidJob
  }

  /// A state database that could not be read while planning (damaged past its first pages):
  /// said as `PlanningOptions.state` says it.
  static func stateFailure(_ error: StateError) -> Int32 {
    Console.err("cropjob: \(error)")
    return ExitCode.invalidJob
  }

  /// Prints the plan, and each file cropjob did not write that an output would replace
  /// (with the text format on stdout after the plan, else on stderr).
  static func printPlan(
    _ plan: Plan, format: PlanFormat, shard: Shard?, state: StateView<RecordedOutput>, overwrite: Bool
  )
    -> Int32
  {
    let selected = plan.selectedOutputs(shard: shard)
    let check = UpToDateCheck(plan: plan, state: state)
    let upToDate = check.upToDatePaths(selected)
    Console.out(PlanRenderer.render(plan, format: format, selected: selected, upToDate: upToDate))
    let conflicts = OverwriteGuard.conflicts(plan: plan, selected: selected, state: state)
    printConflicts(conflicts, format: format, overwrite: overwrite)
    return plan.isRunnable && (conflicts.isEmpty || overwrite) ? ExitCode.success : ExitCode.invalidJob
  }

  static func printConflicts(_ conflicts: [PlannedOutput], format: PlanFormat, overwrite: Bool) {
    for output in conflicts {
      let line = "\(overwrite ? "warning" : "error"): \(OverwriteGuard.message(output))"
      if format == .text { Console.out(line) } else { Console.err(line) }
    }
  }
}
