import CropKit
import Foundation

/// Loads and validates a job file, printing its diagnostics to stderr.
enum JobLoading {
  static func load(_ path: String, format: DiagnosticFormat = .text) -> JobFile? {
    let result = JobFileLoader.load(path: path, formats: .libvips)
    if !result.diagnostics.isEmpty { Console.err(format.render(result.diagnostics)) }
    return result.jobFile
  }
}
