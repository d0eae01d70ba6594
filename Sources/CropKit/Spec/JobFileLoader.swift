import Foundation

/// Reads, parses and validates a job file: the only entry point from a path to a `JobFile`.
public enum JobFileLoader {
  /// The result of loading: the job file when it has no errors, and every diagnostic.
  public struct Result: Sendable {
    public var jobFile: JobFile?
    public var diagnostics: [Diagnostic]
  }

  public static func load(path: String, limits: YAMLLimits = YAMLLimits()) -> Result {
    let origin = SourceMark(line: 0, column: 0)
    func failure(_ message: String) -> Result {
      Result(jobFile: nil, diagnostics: [Diagnostic(.error, file: path, mark: origin, field: "", message: message)])
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return failure("no such job file")
    }
    if isDirectory.boolValue { return failure("is a folder; expected a YAML job file") }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limits.maxBytes {
      return failure("the job file is \(size) bytes; the limit is \(limits.maxBytes) bytes")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      return failure("cannot read the job file (permission denied?)")
    }
    return load(bytes: [UInt8](data), path: path, limits: limits)
  }

  /// Validates job-file text already in memory; `path` names it in diagnostics.
  public static func load(bytes: [UInt8], path: String, limits: YAMLLimits = YAMLLimits()) -> Result {
    let root: YAMLNode?
    do {
      root = try YAMLParser.parse(bytes, limits: limits)
    } catch {
      return Result(
        jobFile: nil, diagnostics: [Diagnostic(.error, file: path, mark: error.mark, field: "", message: error.message)])
    }
    var decoder = SpecDecoder(file: path, availableFormats: OutputFormat.available)
    let file = decoder.decode(root: root, path: path)
    let diagnostics = decoder.reader.diagnostics.sortedByPosition()
    return Result(jobFile: diagnostics.hasErrors ? nil : file, diagnostics: diagnostics)
  }
}
