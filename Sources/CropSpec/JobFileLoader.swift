import CropStorage
import Foundation

/// Reads, parses and validates a job file: the only entry point from a path to a `JobFile`.
public enum JobFileLoader {
  /// The result of loading: the job file when it has no errors, and every diagnostic.
  public struct Result: Sendable {
    public var jobFile: JobFile?
    public var diagnostics: [Diagnostic]
  }

  /// Loads the job file at `path`, and its crop table if it names one. Output formats are
  /// checked against `formats`: the default accepts every format (a pure check); `cropjob`
  /// passes what libvips can write. A crop table at an `s3://` location is read through
  /// `objects` (plan, run); without it (validate) only its location's syntax is checked and
  /// nothing is sent over the network.
  public static func load(
    path: String, limits: YAMLLimits = YAMLLimits(), formats: FormatAvailability = .unchecked,
    tableLimits: CropTableLimits = CropTableLimits(), objects: ObjectReading? = nil
  ) -> Result {
    load(path: path, limits: limits, formats: formats, tableLimits: tableLimits, tableDecoding: .fast, objects: objects)
  }

  /// `load(path:…)` with the crop table's rows read by `tableDecoding` (tests compare the two).
  package static func load(
    path: String, limits: YAMLLimits = YAMLLimits(), formats: FormatAvailability = .unchecked,
    tableLimits: CropTableLimits = CropTableLimits(), tableDecoding: CropTableDecoding, objects: ObjectReading? = nil
  ) -> Result {
    let origin = SourceMark(line: 0, column: 0)
    func failure(_ message: String) -> Result {
      Result(jobFile: nil, diagnostics: [Diagnostic(.error, file: path, mark: origin, field: "", message: message)])
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return failure("no such job file")
    }
    if isDirectory.boolValue { return failure("is a folder; expected a YAML job file") }
    switch readBounded(path: path, limit: limits.maxBytes) {
    case .success(let bytes):
      return load(
        bytes: bytes, path: path, limits: limits, formats: formats, tableLimits: tableLimits,
        tableDecoding: tableDecoding, objects: objects)
    case .failure(let problem): return failure(problem.message)
    }
  }

  struct ReadProblem: Error { var message: String }

  /// Reads at most `limit` bytes of a regular file: a FIFO, a device (/dev/zero) or a file
  /// growing past the limit is refused instead of read forever (docs/reliability.md).
  static func readBounded(path: String, limit: Int) -> Swift.Result<[UInt8], ReadProblem> {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else {
      return .failure(ReadProblem(message: "cannot read the job file: \(String(cString: strerror(errno)))"))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return .failure(ReadProblem(message: "is not a regular file; expected a YAML job file"))
    }
    if Int(info.st_size) > limit {
      return .failure(ReadProblem(message: "the job file is \(info.st_size) bytes; the limit is \(limit) bytes"))
    }
    var bytes = [UInt8](repeating: 0, count: limit + 1)
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        return .failure(ReadProblem(message: "cannot read the job file: \(String(cString: strerror(errno)))"))
      }
      if n == 0 { break }
      count += n
    }
    if count > limit {
      return .failure(ReadProblem(message: "the job file is larger than the limit of \(limit) bytes"))
    }
    return .success(Array(bytes.prefix(count)))
  }

  /// Validates job-file text already in memory; `path` names it in diagnostics, and a crop
  /// table it names is read relative to its folder.
  public static func load(
    bytes: [UInt8], path: String, limits: YAMLLimits = YAMLLimits(), formats: FormatAvailability = .unchecked,
    tableLimits: CropTableLimits = CropTableLimits(), objects: ObjectReading? = nil
  ) -> Result {
    load(
      bytes: bytes, path: path, limits: limits, formats: formats, tableLimits: tableLimits, tableDecoding: .fast,
      objects: objects)
  }

  package static func load(
    bytes: [UInt8], path: String, limits: YAMLLimits = YAMLLimits(), formats: FormatAvailability = .unchecked,
    tableLimits: CropTableLimits = CropTableLimits(), tableDecoding: CropTableDecoding, objects: ObjectReading? = nil
  ) -> Result {
    if let kind = imageKind(bytes) {
      // `cropjob run photo.jpg`: a clear word rather than the YAML reader's on its bytes.
      return Result(
        jobFile: nil,
        diagnostics: [
          Diagnostic(
            .error, file: path, mark: SourceMark(line: 0, column: 0), field: "",
            message: "this is an image (\(kind)), not a job file: give the YAML job file that lists it in `sources`")
        ])
    }
    let root: YAMLNode?
    do {
      root = try YAMLParser.parse(bytes, limits: limits)
    } catch {
      return Result(
        jobFile: nil, diagnostics: [Diagnostic(.error, file: path, mark: error.mark, field: "", message: error.message)]
      )
    }
    var decoder = SpecDecoder(file: path, formats: formats, tableLimits: tableLimits)
    decoder.tableDecoding = tableDecoding
    decoder.objects = objects
    let file = decoder.decode(root: root, path: path)
    let diagnostics = decoder.reader.diagnostics.sortedByPosition()
    return Result(jobFile: diagnostics.hasErrors ? nil : file, diagnostics: diagnostics)
  }

  /// The image format `bytes` start like (JPEG, PNG, GIF, WebP, TIFF, HEIF/AVIF, JPEG XL,
  /// BMP), or nil: no YAML text starts so.
  static func imageKind(_ bytes: [UInt8]) -> String? {
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
    }
    if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "GIF" }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "WebP" }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
    if starts(Array("ftyp".utf8), at: 4) { return "HEIF/AVIF" }
    if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "JPEG XL" }
    if starts(Array("BM".utf8)) && bytes.count > 14 && bytes.prefix(64).contains(0) { return "BMP" }
    return nil
  }
}
