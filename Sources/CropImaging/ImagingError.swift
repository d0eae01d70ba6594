import Foundation

/// A libvips failure, with the operation and the file it concerned.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The libvips operation or cropjob step that failed (e.g. "load", "jpegsave").
  public var operation: String
  /// The file the operation worked on, when there is one.
  public var path: String?
  /// libvips' own message, copied from its error buffer at the failing call.
  public var message: String

  public init(operation: String, path: String?, message: String) {
    self.operation = operation
    self.path = path
    self.message = message
  }

  /// The message on one line, without the path.
  public var summary: String {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: "; ")
    return trimmed.isEmpty ? "\(operation) failed" : trimmed
  }

  public var description: String {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: "; ")
    let subject = path.map { "\($0): " } ?? ""
    return "\(subject)\(operation) failed: \(trimmed.isEmpty ? "unknown libvips error" : trimmed)"
  }
}
