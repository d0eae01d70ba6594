import CropKit
import Foundation

/// Loads and validates a job file, printing its diagnostics to stderr.
enum JobLoading {
  static func load(_ path: String, format: DiagnosticFormat = .text) -> JobFile? {
    let result = JobFileLoader.load(path: path, formats: .libvips)
    if !result.diagnostics.isEmpty { Console.err(format.render(result.diagnostics)) }
    return result.jobFile
  }

  /// Limits from the job file, overridden by the command line.
  static func limits(_ file: JobFile, _ args: Arguments) throws -> InputLimits {
    var limits = file.limits
    if let v = try args.int("--max-pixels", in: 1...(1 << 40)) { limits.maxPixels = v }
    if let v = try args.int("--max-file-bytes", in: 1...(1 << 40)) { limits.maxFileBytes = v }
    if let v = try args.int("--max-pages", in: 1...100_000) { limits.maxPages = v }
    return limits
  }

  static let limitOptions: Set<String> = ["--max-pixels", "--max-file-bytes", "--max-pages"]
  static let limitHelp = """
      --max-pixels <n>        Refuse sources with more pixels (default 268402689 = 0x3FFF²).
      --max-file-bytes <n>    Refuse larger source files (default 268435456).
      --max-pages <n>         Refuse sources with more pages or frames (default 1000).
    """

  /// `--shard I/N`, else the batch engine's environment.
  static func shard(_ args: Arguments) throws -> Shard? {
    let count = try args.int("--shard-count", in: 1...1_000_000)
    do {
      if let text = args.option("--shard") { return try ShardSelection.parse(text) }
      return try ShardSelection.fromEnvironment(ProcessInfo.processInfo.environment, count: count)
    } catch {
      throw UsageError(message: error.description)
    }
  }
}
