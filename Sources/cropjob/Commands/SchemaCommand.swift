import CropKit

struct SchemaCommand: Command {
  static let name = "schema"
  static let abstract = "Print the JSON Schema (draft 2020-12) of job files, for editors and CI."
  static let usage = "cropjob schema"
  static let details = """
    Editors that read JSON Schema (e.g. VS Code's YAML extension) complete and check job files with it:
      cropjob schema > job-file.schema.json
    and put `# yaml-language-server: $schema=job-file.schema.json` at the top of a job file.
    The schema comes from the same table as the job-file decoder; `cropjob validate` checks
    what a schema cannot (cycles among jobs, missing from: jobs, formats this build can write).

    OPTIONS:
      -h, --help              Show help.
    """

  init(arguments: [String]) throws {
    let args = try Arguments(arguments, flags: [], options: [])
    if !args.positionals.isEmpty { throw UsageError(message: "schema takes no arguments") }
  }

  func run() -> Int32 {
    Console.out(JobSchema.text)
    return ExitCode.success
  }
}
