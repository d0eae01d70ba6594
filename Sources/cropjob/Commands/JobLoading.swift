import CropKit
import Foundation

/// Loads and validates a job file, printing its diagnostics to stderr.
enum JobLoading {
  /// A crop table at an `s3://` location is read (one GET): `plan`, `run` and the others
  /// that act on the job; `validate` loads without it.
  static func load(_ path: String, format: DiagnosticFormat = .text) -> JobFile? {
    let result = JobFileLoader.load(path: path, formats: .libvips, objects: ObjectReading())
    if !result.diagnostics.isEmpty { Console.err(format.render(result.diagnostics)) }
    return result.jobFile
  }
}
