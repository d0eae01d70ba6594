import CropKit
import Foundation

/// `cropjob validate`: checks job files without reading any photo.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Check job files without reading any photo: every problem at once, with file:line:column.",
    discussion: """
      Besides the file itself, validate lists the folders and globs each job reads (it opens
      no photo): a job whose sources match no file is an error unless it says allow_empty: true.
      """,
    exitCodes: [
      ExitCodeMeaning(
        ExitCode.success,
        "every file is valid (warnings allowed unless --strict; a job allowed to be empty is named)"),
      ExitCodeMeaning(
        ExitCode.invalidJob,
        "a file is missing or invalid, or a job in it cannot produce anything (its sources match no file "
          + "and it does not say allow_empty: true)"),
      .usage,
    ])

  var files: [String] = []
  var format = DiagnosticFormat.text
  var strict = false

  static var arguments: [Argument<Self>] {
    [
      .positionals(\.files, "job.yaml", help: "One or more job files."),
      .option(
        \.format, "--format", value: "format", .choice, inUsage: true,
        help: """
          text (file:line:column: error: field: message, then one verdict
          line per file), json (per file: file, valid, errors, warnings,
          diagnostics), or github (::error file=…,line=…,col=…::message
          annotations for GitHub Actions). Default text.
          """),
      .flag(\.strict, "--strict", inUsage: true, help: "Treat warnings as errors."),
    ]
  }

  /// One file's verdict, as `--format json` prints it.
  struct FileReport: Encodable {
    var file: String
    var valid: Bool
    var errors: Int
    var warnings: Int
    var diagnostics: [Diagnostic]
    /// Jobs whose sources match no file, which `allow_empty: true` allows.
    var emptyJobs: [String]
  }

  func run() -> Int32 {
    var reports: [FileReport] = []
    for file in files {
      let loaded = JobFileLoader.load(path: file, formats: .libvips)
      var diagnostics = loaded.diagnostics
      var allowedEmpty: [String] = []
      // The folders and globs are listed (no photo is opened): a job that cannot produce
      // anything is the error `plan` and `run` find too.
      for empty in loaded.jobFile.map(EmptyJobs.find) ?? [] {
        guard !empty.allowed else {
          allowedEmpty.append(empty.job)
          continue
        }
        let job = loaded.jobFile?.jobs.first { $0.name == empty.job }
        diagnostics.append(
          Diagnostic(
            .error, file: file, mark: job?.sourcesMark ?? job?.mark ?? SourceMark(line: 0, column: 0),
            field: "jobs.\(empty.job).sources", message: empty.message))
      }
      let errors = diagnostics.filter { $0.severity == .error }.count
      let warnings = diagnostics.count - errors
      reports.append(
        FileReport(
          file: file, valid: errors == 0 && (!strict || warnings == 0), errors: errors, warnings: warnings,
          diagnostics: diagnostics, emptyJobs: allowedEmpty))
    }
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = (try? encoder.encode(reports)) ?? Data("[]".utf8)
      Console.out(String(decoding: data, as: UTF8.self))
    case .github:
      let all = reports.flatMap(\.diagnostics)
      if !all.isEmpty { Console.out(format.render(all)) }
    case .text:
      for report in reports where !report.diagnostics.isEmpty { Console.out(format.render(report.diagnostics)) }
      for report in reports { Console.out(Self.summary(report, strict: strict)) }
    }
    return reports.allSatisfy(\.valid) ? ExitCode.success : ExitCode.invalidJob
  }

  /// `jobs/a.yaml: valid`, `jobs/b.yaml: invalid (2 errors, 1 warning)`,
  /// `jobs/c.yaml: valid (empty, allowed by allow_empty: job nightly)`.
  static func summary(_ report: FileReport, strict: Bool) -> String {
    func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    var counts: [String] = []
    if report.errors > 0 { counts.append(count(report.errors, "error")) }
    if report.warnings > 0 { counts.append(count(report.warnings, "warning")) }
    if strict && report.errors == 0 && report.warnings > 0 { counts.append("--strict") }
    if !report.emptyJobs.isEmpty {
      counts.append("empty, allowed by allow_empty: " + report.emptyJobs.map { "job \($0)" }.joined(separator: ", "))
    }
    let detail = counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))"
    return "\(report.file): \(report.valid ? "valid" : "invalid")\(detail)"
  }
}
