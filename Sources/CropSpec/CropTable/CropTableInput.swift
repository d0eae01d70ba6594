import CropStorage
import Foundation

/// Limits on a crop table (`overrides_from`): a table is the way to give millions of
/// overrides, so they are generous, but a hostile or broken file (a device, an unclosed
/// quote, a table of errors) still stops at a bound instead of exhausting memory or time.
public struct CropTableLimits: Sendable {
  /// Largest table, in bytes (4 GiB: about 40 million rows of 100 bytes).
  public var maxBytes = 4 << 30
  /// Longest row in bytes, line breaks inside quotes included (a path is at most 4 KiB).
  public var maxRowBytes = 64 << 10
  /// Most rows, not counting a CSV header (each row is kept in memory: about 90 bytes for
  /// a crop with a 25-byte path, and 16 in the duplicate check while the table is read).
  public var maxRows = 10_000_000
  /// Most diagnostics reported for one table; reading stops after them.
  public var maxDiagnostics = 1000

  /// The default limits.
  public init() {}
}

/// One cell of a crop table row: where its bytes are in the row, how it was written, and
/// where it starts in the table.
struct TableCell {
  /// How a cell was written, which decides how the decoder reads its text.
  enum Kind {
    /// CSV: text whose column decides whether it is a number or a string.
    case csv
    /// JSON: a string, a number, `true` or `false` (the text is the literal), or an array or
    /// an object (the text is empty).
    case jsonString, jsonNumber, jsonLiteral, jsonArray, jsonObject
  }

  /// The cell's text is `bytes[start..<end]` of its row: CSV quotes and JSON escapes
  /// resolved, valid UTF-8.
  var start: Int
  var end: Int
  var kind: Kind
  var mark: SourceMark
}

/// A row as a reader hands it over: its cells by column over one buffer of bytes that the
/// reader reuses from row to row, so that reading a row makes no string.
struct TableRowCells {
  /// The cells' bytes, one after another.
  var bytes: [UInt8] = []
  /// The cells by column (the index in `TableColumns.names`); nil: not set.
  var cells: [TableCell?] = Array(repeating: nil, count: TableColumns.names.count)

  init() { bytes.reserveCapacity(1024) }

  /// The text of `cell`.
  func text(_ cell: TableCell) -> String {
    withBytes(cell) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the bytes of `cell`.
  @inline(__always) func withBytes<R>(_ cell: TableCell, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[cell.start..<cell.end])) }
  }

  /// Empties the row for the next one, keeping the room.
  mutating func clear() {
    bytes.removeAll(keepingCapacity: true)
    for i in cells.indices { cells[i] = nil }
  }
}

/// Where a reader sends what it finds: rows, with the line each starts on, and problems.
protocol TableSink {
  /// A row (valid only during the call), the line it starts on, and how many bytes of the
  /// table are read with it; false stops reading.
  mutating func row(_ row: TableRowCells, line: Int, offset: Int) -> Bool
  /// A problem at `mark` in column `field` ("" for the row or the file); false stops reading.
  mutating func problem(_ mark: SourceMark, _ field: String, _ message: String) -> Bool
}

/// The crop table's file, read in chunks: never all in memory, never beyond the limit, and
/// only a regular file (a FIFO or a device is refused, as for job files).
enum TableFile {
  struct Problem: Error { var message: String }

  /// `read(path:maxBytes:chunk:)` for a table at `location`: a local one at `path`, one in
  /// object storage read whole through `objects` (one GET) and given to `chunk` at once.
  static func read(
    _ location: StorageLocation, path: String, objects: ObjectReading?, maxBytes: Int,
    chunk: (UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Problem? {
    guard !location.isLocal, let objects else { return read(path: path, maxBytes: maxBytes, chunk: chunk) }
    let bytes: [UInt8]
    do {
      bytes = try objects.read(location, maxBytes: maxBytes)
    } catch {
      return Problem(message: "cannot read the crop table: \(error.message)")
    }
    if bytes.count > maxBytes {
      return Problem(message: "the crop table is larger than the limit of \(maxBytes) bytes")
    }
    let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    _ = bytes.withUnsafeBufferPointer { chunk(UnsafeBufferPointer(rebasing: $0[bom...])) }
    return nil
  }

  /// Calls `chunk` with the file's bytes in order, a UTF-8 byte order mark left out;
  /// `chunk` returns false to stop.
  static func read(
    path: String, maxBytes: Int, chunk: (UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Problem? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else { return Problem(message: "cannot read the crop table: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return Problem(message: "is not a regular file; expected a crop table (.csv or .jsonl)")
    }
    if Int(info.st_size) > maxBytes {
      return Problem(message: "the crop table is \(info.st_size) bytes; the limit is \(maxBytes) bytes")
    }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var total = 0
    var first = true
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return Problem(message: "cannot read the crop table: \(String(cString: strerror(errno)))") }
      if n == 0 { return nil }
      total += n
      if total > maxBytes {
        return Problem(message: "the crop table is larger than the limit of \(maxBytes) bytes")
      }
      let more = buffer.withUnsafeBufferPointer { all -> Bool in
        var bytes = UnsafeBufferPointer(rebasing: all[0..<n])
        if first, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
          bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        first = false
        return chunk(bytes)
      }
      if !more { return nil }
    }
  }
}

/// Column names and positions, shared by the CSV and the JSON Lines reader.
enum TableColumns {
  /// The known columns, in the table's order; a column's index is its place here.
  static let names = JobSchema.cropTable.keys
  /// The names' UTF-8 bytes, to match header cells and keys without making strings.
  static let nameBytes = names.map { Array($0.utf8) }

  /// The index of the column whose name is `bytes`, if it is known.
  static func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    nameBytes.firstIndex { $0.elementsEqual(bytes) }
  }

  /// `expected one of the columns … but received the unknown column "widht"; did you mean "width"?`.
  static func unknown(_ name: String) -> String {
    Diagnostic.expected(
      "one of the columns " + names.joined(separator: ", "), received: "the unknown column \"\(name)\"")
      + Suggestion.didYouMean(name, in: names)
  }

  /// True when `bytes` are valid UTF-8 (ASCII, the usual case, without the general check).
  static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in bytes where b >= 0x80 { return String(validating: bytes, as: UTF8.self) != nil }
    return true
  }

  /// Advances a 1-based column past `byte`: continuation bytes of UTF-8 do not count, so
  /// columns count Unicode scalars, as in job files.
  @inline(__always) static func advance(_ column: inout Int, _ byte: UInt8) {
    if byte & 0xC0 != 0x80 { column += 1 }
  }
}
