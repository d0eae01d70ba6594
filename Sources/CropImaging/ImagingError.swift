import Foundation

/// A libvips failure, with the operation and the file it concerned.
package struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The libvips operation or cropjob step that failed (e.g. "load", "jpegsave").
  package var operation: String
  /// The file the operation worked on, when there is one.
  package var path: String?
  /// libvips' own message, copied from its error buffer at the failing call.
  package var message: String

  package init(operation: String, path: String?, message: String) {
    self.operation = operation
    self.path = path
    self.message = message
  }

  /// The message on one line, without the path.
  package var summary: String {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: "; ")
    return trimmed.isEmpty ? "\(operation) failed" : trimmed
  }

  package var description: String {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: "; ")
    let subject = path.map { "\($0): " } ?? ""
    return "\(subject)\(operation) failed: \(trimmed.isEmpty ? "unknown libvips error" : trimmed)"
  }
}
