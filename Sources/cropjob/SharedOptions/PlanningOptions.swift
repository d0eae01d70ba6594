import CropKit
import Foundation

/// What `run`, `plan` and `preview` share about planning a job file: the output root and
/// the input limits, each overriding the job file's value.
struct PlanningOptions {
  /// `--output`: the output root instead of the job file's `output`.
  var outputRoot: String?
  var limits = InputLimitOverrides()
  /// Which decoder reads JPEG headers (`run --jpeg-decoder` sets it with the run's).
  var jpegDecoder = EnvironmentSettings.current.jpegDecoder ?? .auto
  /// Sources per planning window (`PlanStream.make`'s `window`).
  var window = EnvironmentSettings.current.planWindow ?? PlanStream.defaultWindow

  static var arguments: [Argument<Self>] {
    [
      .option(\.outputRoot, "--output", value: "dir", .text, help: "Output root instead of the job file's `output`."),
      .group(\.limits, InputLimitOverrides.arguments),
    ]
  }

  /// The job file's plan, with the command line's output root and limits.
  func plan(_ file: JobFile) -> Plan {
    Planner(limits: limits.applied(to: file.limits), outputRoot: outputRoot, jpegDecoder: jpegDecoder).plan(file)
  }

  /// The library's job (`JobRun`: what `JobPlan` plans) of `file` with `options`, the
  /// command line's output root and limits, and the planning window.
  func job(_ file: JobFile, options: RunOptions) -> JobRun {
    var job = JobRun(file, options: options)
    job.outputRoot = outputRoot
    job.limits = limits.applied(to: file.limits)
    job.window = window
    return job
  }

  /// The absolute output root the plan of `file` writes into.
  func root(_ file: JobFile) -> String { Planner(outputRoot: outputRoot).outputRoot(of: file) }
}

/// `--max-pixels`, `--max-file-bytes`, `--max-pages`: one option per key of the job file's
/// `limits` mapping, named after the key, with the range and default `JobSchema.limits`
/// declares for it (the decoder checks the job file against the same table).
struct InputLimitOverrides {
  /// The limits given on the command line.
  private(set) var values: [WritableKeyPath<InputLimits, Int>: Int] = [:]

  static var arguments: [Argument<Self>] {
    [
      option("max_pixels", \.maxPixels, help: "Refuse sources with more pixels"),
      option("max_file_bytes", \.maxFileBytes, help: "Refuse larger source files"),
      option("max_pages", \.maxPages, help: "Refuse sources with more pages or frames"),
    ]
  }

  /// `limits` with the command line's values in place of the job file's.
  func applied(to limits: InputLimits) -> InputLimits {
    var limits = limits
    for (limit, value) in values { limits[keyPath: limit] = value }
    return limits
  }

  /// `--max-pixels <n>` for the schema key `max_pixels`: `help` is completed with the
  /// schema's default.
  private static func option(_ key: String, _ limit: WritableKeyPath<InputLimits, Int>, help: String)
    -> Argument<Self>
  {
    guard let field = JobSchema.limits.field(key), case .integer(let range) = field.type,
      case .int(let defaultValue) = field.defaultValue
    else { preconditionFailure("JobSchema.limits declares no integer \(key) with a default") }
    return .option(
      \.values[limit], "--" + key.replacing("_", with: "-"), value: "n", .integer(in: range),
      help: "\(help) (default \(defaultValue)).")
  }
}
