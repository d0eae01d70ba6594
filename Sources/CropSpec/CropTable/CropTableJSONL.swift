/// A streaming reader of JSON Lines crop tables: one JSON object per line, whose keys are
/// the columns (any order, each once) and whose values are strings, numbers or booleans;
/// a key left out is not set. Empty lines are skipped, a line may end in CRLF. Fed chunk by
/// chunk, it keeps only the line being read; every value, key and syntax error is located
/// at its line and column (in Unicode scalars).
struct JSONLinesTableReader {
  let limits: CropTableLimits
  private var line = 1
  private var bytes: [UInt8] = []
  private var rows = 0
  /// Bytes read up to the end of the current line.
  private var consumed = 0
  /// The row handed to the sink, reused.
  private var row = TableRowCells()
  /// Decoded string bytes, reused.
  private var scratch: [UInt8] = []

  init(limits: CropTableLimits) {
    self.limits = limits
    bytes.reserveCapacity(1024)
  }

  /// Reads `chunk`; false when reading stops (the sink asked, or a problem ends the table).
  mutating func feed<Sink: TableSink>(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> Bool {
    var start = 0
    while start < chunk.count {
      guard let end = chunk[start...].firstIndex(of: 0x0A) else {
        bytes.append(contentsOf: chunk[start...])
        return checkLength(into: &sink)
      }
      bytes.append(contentsOf: chunk[start..<end])
      guard checkLength(into: &sink), endLine(into: &sink) else { return false }
      start = end + 1
    }
    return true
  }

  /// Ends the table: the last line needs no line break.
  mutating func finish<Sink: TableSink>(into sink: inout Sink) {
    if !bytes.isEmpty { _ = endLine(into: &sink) }
  }

  private func checkLength<Sink: TableSink>(into sink: inout Sink) -> Bool {
    guard bytes.count > limits.maxRowBytes else { return true }
    let mark = SourceMark(line: line, column: 1)
    _ = sink.problem(mark, "", "the line is longer than \(limits.maxRowBytes) bytes (the limit); reading stops")
    return false
  }

  private mutating func endLine<Sink: TableSink>(into sink: inout Sink) -> Bool {
    consumed += bytes.count + 1
    defer {
      bytes.removeAll(keepingCapacity: true)
      line += 1
    }
    if bytes.last == 0x0D { bytes.removeLast() }
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return true }  // an empty line
    rows += 1
    if rows > limits.maxRows {
      let mark = SourceMark(line: line, column: 1)
      _ = sink.problem(mark, "", "the crop table has more than \(limits.maxRows) rows (the limit); reading stops")
      return false
    }
    row.clear()
    let line = self.line
    var parsed = false
    var keepGoing = true
    var scratch = self.scratch
    bytes.withUnsafeBufferPointer { text in
      var parser = JSONObjectParser(text: text, line: line, scratch: scratch)
      parsed = parser.parse(into: &row) { mark, field, message in
        keepGoing = sink.problem(mark, field, message)
        return keepGoing
      }
      scratch = parser.scratch
    }
    self.scratch = scratch
    guard keepGoing else { return false }
    return parsed ? sink.row(row, line: line, offset: consumed) : true
  }
}

/// Parses one line holding a flat JSON object into a row of cells.
private struct JSONObjectParser {
  let text: UnsafeBufferPointer<UInt8>
  let line: Int
  var scratch: [UInt8]
  private var position = 0
  private var column = 1

  init(text: UnsafeBufferPointer<UInt8>, line: Int, scratch: [UInt8]) {
    self.text = text
    self.line = line
    self.scratch = scratch
  }

  private var mark: SourceMark { SourceMark(line: line, column: column) }
  private var current: UInt8? { position < text.count ? text[position] : nil }

  private mutating func advance() {
    TableColumns.advance(&column, text[position])
    position += 1
  }

  private mutating func skipSpace() {
    while let b = current, b == 0x20 || b == 0x09 || b == 0x0D { advance() }
  }

  /// What is at the current position, for messages: `"x"`, `the end of the line`.
  private var found: String {
    guard let b = current else { return "the end of the line" }
    let scalar = String(decoding: text[position..<min(text.count, position + 4)], as: UTF8.self).first ?? "?"
    return b < 0x20 ? "a control character" : "\"\(scalar)\""
  }

  /// Fills `row`; false (after reporting where) when the line is not a JSON object. An
  /// unknown or repeated key is reported and left out, and the row is still read (every
  /// problem at once). `problem` returns false to stop reading.
  mutating func parse(
    into row: inout TableRowCells, problem: (SourceMark, String, String) -> Bool
  ) -> Bool {
    func fail(_ at: SourceMark, _ what: String, _ received: String) -> Bool {
      _ = problem(at, "", Diagnostic.expected(what, received: received))
      return false
    }
    skipSpace()
    guard current == 0x7B else { return fail(mark, "a JSON object ({\"source\": …})", found) }
    advance()
    skipSpace()
    if current == 0x7D {
      advance()
    } else {
      while true {
        let keyMark = mark
        guard current == 0x22 else { return fail(mark, "a key in double quotes", found) }
        guard string(problem) else { return false }
        let index = scratch.withUnsafeBufferPointer { TableColumns.index(of: $0) }
        let unknown = index == nil ? String(decoding: scratch, as: UTF8.self) : ""
        skipSpace()
        guard current == 0x3A else { return fail(mark, "a colon after the key", found) }
        advance()
        skipSpace()
        let valueMark = mark
        let start = row.bytes.count
        guard let kind = self.value(into: &row.bytes, problem) else { return false }
        if let index {
          if row.cells[index] != nil {
            _ = problem(
              keyMark, "", Diagnostic.expected("each key once", received: "\"\(TableColumns.names[index])\" again"))
          } else {
            row.cells[index] = TableCell(start: start, end: row.bytes.count, kind: kind, mark: valueMark)
          }
        } else {
          _ = problem(keyMark, "", TableColumns.unknown(unknown))
        }
        skipSpace()
        if current == 0x2C {
          advance()
          skipSpace()
          continue
        }
        guard current == 0x7D else { return fail(mark, "a comma or the end of the object", found) }
        advance()
        break
      }
    }
    skipSpace()
    guard current == nil else { return fail(mark, "the end of the line after the object", found) }
    return true
  }

  /// A value: its text appended to `bytes`, and its kind; nil after reporting a syntax error.
  private mutating func value(
    into bytes: inout [UInt8], _ problem: (SourceMark, String, String) -> Bool
  ) -> TableCell.Kind? {
    let (start, startColumn) = (position, column)
    switch current {
    case 0x22:
      guard string(problem) else { return nil }
      guard scratch.withUnsafeBufferPointer(TableColumns.isUTF8) else {
        _ = problem(mark, "", "expected UTF-8 text but received invalid bytes")
        return nil
      }
      bytes.append(contentsOf: scratch)
      return .jsonString
    case 0x7B, 0x5B:
      let kind: TableCell.Kind = current == 0x7B ? .jsonObject : .jsonArray
      var depth = 0
      var inString = false
      while let b = current {
        advance()
        if inString {
          if b == 0x5C, current != nil { advance() } else if b == 0x22 { inString = false }
        } else if b == 0x22 {
          inString = true
        } else if b == 0x7B || b == 0x5B {
          depth += 1
        } else if b == 0x7D || b == 0x5D {
          depth -= 1
          if depth == 0 { return kind }
        }
      }
      _ = problem(mark, "", Diagnostic.expected("the end of the nested value", received: "the end of the line"))
      return nil
    default:
      while let b = current, b != 0x2C, b != 0x7D, b != 0x20, b != 0x09, b != 0x0D { advance() }
      let literal = text[start..<position]
      if literal.elementsEqual("true".utf8) || literal.elementsEqual("false".utf8) || literal.elementsEqual("null".utf8)
      {
        bytes.append(contentsOf: literal)
        return .jsonLiteral
      }
      if Self.isNumber(literal) {
        bytes.append(contentsOf: literal)
        return .jsonNumber
      }
      (position, column) = (start, startColumn)
      _ = problem(mark, "", Diagnostic.expected("a JSON value (a string, a number, true or false)", received: found))
      return nil
    }
  }

  /// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
  static func isNumber(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var i = bytes.startIndex
    let end = bytes.endIndex
    func digits() -> Int {
      let from = i
      while i < end, (0x30...0x39).contains(bytes[i]) { i += 1 }
      return i - from
    }
    if i < end, bytes[i] == 0x2D { i += 1 }
    let first = i < end ? bytes[i] : 0
    let whole = digits()
    guard whole > 0, first != 0x30 || whole == 1 else { return false }
    if i < end, bytes[i] == 0x2E {
      i += 1
      guard digits() > 0 else { return false }
    }
    if i < end, bytes[i] == 0x65 || bytes[i] == 0x45 {
      i += 1
      if i < end, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
      guard digits() > 0 else { return false }
    }
    return i == end
  }

  /// A string at the opening quote, escapes resolved, as UTF-8 bytes in `scratch`; false
  /// after a problem.
  private mutating func string(_ problem: (SourceMark, String, String) -> Bool) -> Bool {
    let opening = mark
    advance()
    scratch.removeAll(keepingCapacity: true)
    while let b = current {
      if b == 0x22 {
        advance()
        return true
      }
      if b < 0x20 {
        _ = problem(mark, "", Diagnostic.expected("an escape (\\n, \\t, …) in a string", received: found))
        return false
      }
      guard b == 0x5C else {
        scratch.append(b)
        advance()
        continue
      }
      let escapeMark = mark
      advance()
      guard let e = current else { break }
      advance()
      switch e {
      case 0x22, 0x5C, 0x2F: scratch.append(e)
      case 0x62: scratch.append(0x08)
      case 0x66: scratch.append(0x0C)
      case 0x6E: scratch.append(0x0A)
      case 0x72: scratch.append(0x0D)
      case 0x74: scratch.append(0x09)
      case 0x75:
        guard var code = hex4() else {
          _ = problem(escapeMark, "", Diagnostic.expected("\\u and four hex digits", received: "something else"))
          return false
        }
        if (0xD800..<0xDC00).contains(code), current == 0x5C, position + 1 < text.count, text[position + 1] == 0x75 {
          let save = (position, column)
          advance()
          advance()
          if let low = hex4(), (0xDC00..<0xE000).contains(low) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else {
            (position, column) = save
          }
        }
        scratch.append(contentsOf: Array(String(Unicode.Scalar(code) ?? "\u{FFFD}").utf8))
      default:
        _ = problem(
          escapeMark, "",
          Diagnostic.expected("an escape of JSON (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)", received: "another"))
        return false
      }
    }
    _ = problem(opening, "", "a string is not closed (a quote is missing)")
    return false
  }

  /// Four hex digits as a number.
  private mutating func hex4() -> UInt32? {
    guard position + 4 <= text.count else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = Character(Unicode.Scalar(text[position])).hexDigitValue else { return nil }
      value = value * 16 + UInt32(digit)
      advance()
    }
    return value
  }
}
