import CropSupport
import Foundation

/// One problem found in a job file, located at line:column, with the field it concerns.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

  public var severity: Severity
  /// The job file (as given on the command line).
  public var file: String
  /// 1-based line and column; 0:0 when the problem concerns the whole file.
  public var line: Int
  public var column: Int
  /// Dotted field path, e.g. `jobs.avatar.outputs[0].encode.quality`.
  public var field: String
  public var message: String

  package init(
    _ severity: Severity, file: String, mark: SourceMark, field: String, message: String
  ) {
    self.severity = severity
    self.file = file
    self.line = mark.line
    self.column = mark.column
    self.field = field
    self.message = message
  }

  /// `file:line:column: error: field: message`.
  public var description: String {
    let subject = field.isEmpty ? "" : "\(field): "
    return "\(file):\(line):\(column): \(severity.rawValue): \(subject)\(message)"
  }

  /// The diagnostic as a value to switch on (`CropError.jobFile`).
  public var error: CropError {
    .jobFile(file: file, line: line, column: column, field: field, message: message)
  }

  /// The one helper that words every type or range mismatch the same way.
  package static func expected(_ what: String, received: String) -> String {
    "expected \(what) but received \(received)"
  }

  /// A required key that is absent, worded by the same helper: `expected a guide (…) but
  /// received no "guide"`.
  package static func missing(_ key: String, _ what: String) -> String {
    expected(what, received: "no \"\(key)\"")
  }
}

extension [Diagnostic] {
  /// Errors first by position, as a reader goes through the file.
  package func sortedByPosition() -> [Diagnostic] {
    sorted { ($0.file, $0.line, $0.column, $0.field) < ($1.file, $1.line, $1.column, $1.field) }
  }

  package var hasErrors: Bool { contains { $0.severity == .error } }
}

/// Renders diagnostics for people, programs or CI annotations.
package enum DiagnosticFormat: String, Sendable, CaseIterable {
  case text, json, github

  package func render(_ diagnostics: [Diagnostic]) -> String {
    switch self {
    case .text:
      return diagnostics.map(\.description).joined(separator: "\n")
    case .github:
      // Workflow commands: the message escapes %, CR and LF; properties also , and :.
      // A diagnostic about the whole file (0:0) names no line.
      func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
          .replacingOccurrences(of: "\n", with: "%0A")
      }
      func property(_ text: String) -> String {
        escape(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
      }
      return diagnostics.map { d in
        let subject = d.field.isEmpty ? "" : "\(d.field): "
        let position = d.line > 0 ? ",line=\(d.line),col=\(d.column)" : ""
        return "::\(d.severity.rawValue) file=\(property(d.file))\(position)::\(escape(subject + d.message))"
      }.joined(separator: "\n")
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      let data = (try? encoder.encode(diagnostics)) ?? Data("[]".utf8)
      return String(decoding: data, as: UTF8.self)
    }
  }
}
