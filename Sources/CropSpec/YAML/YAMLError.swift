/// A YAML problem, with the 1-based position where it was found.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, naming what was expected.
  public var message: String
  /// Where it is wrong (1-based line and column).
  public var mark: SourceMark

  /// Creates an error.
  public init(message: String, mark: SourceMark) {
    self.message = message
    self.mark = mark
  }

  /// `line:column: message`.
  public var description: String { "\(mark): \(message)" }
}
