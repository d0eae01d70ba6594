/// Exit codes. 2 is one verdict for `validate`, `plan`, `run --dry-run` and `run`: the job
/// file is invalid or the job cannot run or produce anything, and nothing was done.
enum ExitCode {
  static let success: Int32 = 0
  /// `run`: some outputs failed; `preview`, `manifest`, `state`: what their tables say.
  static let failure: Int32 = 1
  /// The job file is invalid, a job cannot produce anything, or the plan cannot run.
  static let invalidJob: Int32 = 2
  static let usage: Int32 = 64
  static let interrupted: Int32 = 130
}

/// One row of a command's EXIT CODES table.
struct ExitCodeMeaning: Sendable {
  var code: Int32
  var meaning: String

  init(_ code: Int32, _ meaning: String) {
    self.code = code
    self.meaning = meaning
  }

  static let usage = ExitCodeMeaning(ExitCode.usage, "usage error")
  /// What `validate`, `plan`, `run --dry-run` and `run` share.
  static let cannotRun = """
    the job file is invalid, a job cannot produce anything (its sources match no file \
    and it does not say allow_empty: true), or the plan cannot run (path collisions, \
    outputs outside the root, files cropjob did not write in the way without --overwrite, \
    a state database that cannot be used)
    """

  /// What the codes mean across the commands (`cropjob --help`, the manual page).
  static let summary = """
    0 success; 1 some outputs failed (run; preview, manifest, state: see their help); \
    2 invalid job file, a job that cannot produce anything, or a plan that cannot run \
    (validate, plan, run --dry-run, run; nothing was done); 64 usage error; \
    130 interrupted by SIGINT or SIGTERM.
    """

  /// `summary` wrapped at 96 columns, indented by two, for `cropjob --help`.
  static var summaryLines: String { wrapped(summary, indent: 2, first: "  ") }

  /// `text` word-wrapped at 96 columns: the first line starts with `first`, the next ones
  /// with `indent` spaces.
  static func wrapped(_ text: String, indent: Int, first: String) -> String {
    var lines: [String] = []
    var line = first
    for word in text.split(separator: " ") {
      if line.count + 1 + word.count > 96 && line.count > indent {
        lines.append(line)
        line = String(repeating: " ", count: indent)
      } else if line.count > indent {
        line += " "
      }
      line += word
    }
    return (lines + [line]).joined(separator: "\n")
  }

  /// `EXIT CODES:` and one row a code, the meaning wrapped at 96 columns.
  static func section(_ rows: [ExitCodeMeaning]) -> String {
    let rows = rows.map { row in
      wrapped(row.meaning, indent: 7, first: "  " + String(row.code).padding(toLength: 5, withPad: " ", startingAt: 0))
    }
    return (["EXIT CODES:"] + rows).joined(separator: "\n")
  }
}
