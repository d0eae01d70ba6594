import CropKit

/// `cropjob schema`: the JSON Schema of job files.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "schema",
    abstract: "Print the JSON Schema (draft 2020-12) of job files, for editors and CI.",
    discussion: """
      Editors that read JSON Schema (e.g. VS Code's YAML extension) complete and check job files with it:
        cropjob schema > job-file.schema.json
      and put `# yaml-language-server: $schema=job-file.schema.json` at the top of a job file.
      The schema comes from the same table as the job-file decoder; `cropjob validate` checks
      what a schema cannot (cycles among jobs, missing from: jobs, formats this build can write).
      """,
    exitCodes: [ExitCodeMeaning(ExitCode.success, "the schema printed"), .usage])

  static var arguments: [Argument<Self>] { [] }

  func run() -> Int32 {
    Console.out(JobSchema.text)
    return ExitCode.success
  }
}
