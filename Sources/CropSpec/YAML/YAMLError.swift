/// A YAML problem, with the 1-based position where it was found.
package struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, naming what was expected.
  package var message: String
  /// Where it is wrong (1-based line and column).
  package var mark: SourceMark

  /// Creates an error.
  package init(message: String, mark: SourceMark) {
    self.message = message
    self.mark = mark
  }

  /// `line:column: message`.
  package var description: String { "\(mark): \(message)" }
}
