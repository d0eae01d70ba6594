/// A streaming reader of CSV crop tables (RFC 4180): fed chunk by chunk, it keeps only the
/// row being read.
///
/// Cells are separated by commas and rows by line breaks (LF or CRLF; a CR outside quotes is
/// ignored). A cell that contains a comma, a quote or a line break is quoted, with its quotes
/// doubled (`"a ""b"", c"`). The first row is the header: it names the columns, in any order;
/// a column it does not name is not set in any row, and an empty cell is not set in its row.
/// Empty lines are skipped. Every cell is located at the line and column (in Unicode scalars)
/// where it starts, its opening quote for a quoted one.
struct CSVTableReader {
  let limits: CropTableLimits

  /// `afterQuote`: spaces after a quoted cell's closing quote.
  private enum State { case cellStart, unquoted, quoted, quoteSeen, afterQuote }
  private static let space: UInt8 = 0x20
  private static let tab: UInt8 = 0x09
  // One constant each: a tuple of them is initialised lazily, a check on every byte.
  private static let comma: UInt8 = 0x2C
  private static let quote: UInt8 = 0x22
  private static let lf: UInt8 = 0x0A
  private static let cr: UInt8 = 0x0D

  /// One cell of the row being read: its bytes in `row.bytes` and where it starts.
  private struct RawCell {
    var start: Int
    var end: Int
    var mark: SourceMark
  }

  private var state = State.cellStart
  private var line = 1
  private var column = 1
  /// The row being read: its cells' bytes (quotes and doubled quotes resolved) in
  /// `row.bytes`, and the cells in header order; `row` is handed to the sink, reused.
  private var row = TableRowCells()
  private var cells: [RawCell] = []
  private var cellMark = SourceMark(line: 1, column: 1)
  private var cellStart = 0
  /// Whether the cell being read is quoted (its spaces are its own).
  private var quotedCell = false
  private var rowBytes = 0
  /// For each cell position of the header, its column (nil until the header is read).
  private var header: [Int]? = nil
  private var rows = 0
  /// Bytes read so far.
  private var consumed = 0

  init(limits: CropTableLimits) {
    self.limits = limits
  }

  /// Reads `chunk`; false when reading stops (the sink asked, or a problem ends the table).
  mutating func feed<Sink: TableSink>(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> Bool {
    var i = 0
    while i < chunk.count {
      // Inside a cell, the bytes up to the next one that means something are taken at once.
      if state == .unquoted || state == .quoted {
        let quoted = state == .quoted
        var end = i
        while end < chunk.count {
          let b = chunk[end]
          if b == Self.quote || b == Self.lf || (!quoted && (b == Self.comma || b == Self.cr)) { break }
          end += 1
        }
        if end > i {
          let run = UnsafeBufferPointer(rebasing: chunk[i..<end])
          row.bytes.append(contentsOf: run)
          for b in run { TableColumns.advance(&column, b) }
          consumed += run.count
          rowBytes += run.count
          i = end
          guard rowBytes <= limits.maxRowBytes else { return tooLong(into: &sink) }
          continue
        }
      }
      let b = chunk[i]
      i += 1
      consumed += 1
      rowBytes += 1
      guard rowBytes <= limits.maxRowBytes else { return tooLong(into: &sink) }
      switch state {
      case .cellStart:
        // Spaces and tabs before a cell are not its own: the cell starts after them.
        cellMark = SourceMark(line: line, column: column)
        cellStart = row.bytes.count
        switch b {
        case Self.space, Self.tab: break
        case Self.quote:
          state = .quoted
          quotedCell = true
        case Self.comma: endCell()
        case Self.lf:
          endCell()
          guard endRow(into: &sink) else { return false }
        case Self.cr: break
        default:
          row.bytes.append(b)
          state = .unquoted
        }
      case .unquoted:
        switch b {
        case Self.comma:
          endCell()
          state = .cellStart
        case Self.lf:
          endCell()
          state = .cellStart
          guard endRow(into: &sink) else { return false }
        case Self.cr: break
        case Self.quote:
          let mark = SourceMark(line: line, column: column)
          guard sink.problem(mark, "", "a quote inside an unquoted cell; quote the whole cell and double its quotes")
          else { return false }
          row.bytes.append(b)
        default: row.bytes.append(b)
        }
      case .quoted:
        if b == Self.quote { state = .quoteSeen } else { row.bytes.append(b) }
      case .quoteSeen:
        switch b {
        case Self.quote:
          row.bytes.append(b)
          state = .quoted
        case Self.comma:
          endCell()
          state = .cellStart
        case Self.lf:
          endCell()
          state = .cellStart
          guard endRow(into: &sink) else { return false }
        case Self.cr: break
        case Self.space, Self.tab: state = .afterQuote
        default:
          guard closingQuoteProblem(b, into: &sink) else { return false }
        }
      case .afterQuote:
        switch b {
        case Self.comma:
          endCell()
          state = .cellStart
        case Self.lf:
          endCell()
          state = .cellStart
          guard endRow(into: &sink) else { return false }
        case Self.cr, Self.space, Self.tab: break
        default:
          guard closingQuoteProblem(b, into: &sink) else { return false }
        }
      }
      if b == Self.lf {
        line += 1
        column = 1
      } else {
        TableColumns.advance(&column, b)
      }
    }
    return true
  }

  /// Reports `b` after a quoted cell's closing quote (and spaces); the cell goes on unquoted.
  private mutating func closingQuoteProblem<Sink: TableSink>(_ b: UInt8, into sink: inout Sink) -> Bool {
    let mark = SourceMark(line: line, column: column)
    guard sink.problem(mark, "", "expected a comma or the end of the row after a closing quote") else {
      return false
    }
    row.bytes.append(b)
    state = .unquoted
    quotedCell = false
    return true
  }

  /// Reports a row over the limit; reading stops.
  private func tooLong<Sink: TableSink>(into sink: inout Sink) -> Bool {
    let start = cells.first?.mark ?? cellMark
    _ = sink.problem(start, "", "the row is longer than \(limits.maxRowBytes) bytes (the limit); reading stops")
    return false
  }

  /// Ends the table: the last row needs no line break, a quoted cell must be closed.
  mutating func finish<Sink: TableSink>(into sink: inout Sink) {
    if state == .quoted {
      _ = sink.problem(cellMark, "", "a quoted cell is not closed (a quote is missing)")
      return
    }
    if state != .cellStart || !cells.isEmpty {
      endCell()
      _ = endRow(into: &sink)
    }
    if header == nil {
      _ = sink.problem(SourceMark(line: 1, column: 1), "", "expected a header row naming the columns but received none")
    }
  }

  /// Ends the cell; an unquoted one without its trailing spaces and tabs.
  private mutating func endCell() {
    if !quotedCell {
      while row.bytes.count > cellStart, row.bytes.last == Self.space || row.bytes.last == Self.tab {
        row.bytes.removeLast()
      }
    }
    cells.append(RawCell(start: cellStart, end: row.bytes.count, mark: cellMark))
    cellStart = row.bytes.count
    quotedCell = false
  }

  /// Hands a complete row to the sink (the first one is the header).
  private mutating func endRow<Sink: TableSink>(into sink: inout Sink) -> Bool {
    defer {
      row.clear()
      cells.removeAll(keepingCapacity: true)
      rowBytes = 0
      state = .cellStart
    }
    if cells.count == 1 && cells[0].start == cells[0].end { return true }  // an empty line
    guard let header else { return readHeader(into: &sink) }
    let mark = cells[0].mark
    guard cells.count == header.count else {
      return sink.problem(
        mark, "",
        Diagnostic.expected("\(header.count) cells (the header's columns)", received: "\(cells.count)"))
    }
    rows += 1
    if rows > limits.maxRows {
      _ = sink.problem(mark, "", "the crop table has more than \(limits.maxRows) rows (the limit); reading stops")
      return false
    }
    var ok = true
    for (position, cell) in cells.enumerated() where cell.end > cell.start {
      let column = header[position]
      let utf8 = row.bytes.withUnsafeBufferPointer {
        TableColumns.isUTF8(UnsafeBufferPointer(rebasing: $0[cell.start..<cell.end]))
      }
      guard utf8 else {
        ok = sink.problem(cell.mark, TableColumns.names[column], "expected UTF-8 text but received invalid bytes")
        continue
      }
      row.cells[column] = TableCell(start: cell.start, end: cell.end, kind: .csv, mark: cell.mark)
    }
    return ok && sink.row(row, line: mark.line, offset: consumed)
  }

  /// Reads the header: each known column once, `source` among them, and some column that
  /// places the photo. A header with a problem ends the table (its rows could not be read).
  private mutating func readHeader<Sink: TableSink>(into sink: inout Sink) -> Bool {
    var columns: [Int] = []
    var ok = true
    row.bytes.withUnsafeBufferPointer { all in
      for cell in cells {
        let name = UnsafeBufferPointer(rebasing: all[cell.start..<cell.end])
        guard let index = TableColumns.index(of: name) else {
          _ = sink.problem(cell.mark, "", TableColumns.unknown(String(decoding: name, as: UTF8.self)))
          ok = false
          continue
        }
        if columns.contains(index) {
          _ = sink.problem(
            cell.mark, "",
            Diagnostic.expected("each column once", received: "\"\(TableColumns.names[index])\" again"))
          ok = false
        }
        columns.append(index)
      }
    }
    let mark = cells[0].mark
    let names = columns.map { TableColumns.names[$0] }
    if ok && !names.contains("source") {
      _ = sink.problem(mark, "source", Diagnostic.missing("source", "a source column (the photo of each row)"))
      ok = false
    }
    if ok && names.allSatisfy(JobSchema.cropTableTextColumns.contains) {
      _ = sink.problem(
        mark, "",
        Diagnostic.expected(
          "a column of the crop or of a place field (\(TableColumns.names.dropFirst(2).joined(separator: ", ")))",
          received: "only " + names.joined(separator: ", ")))
      ok = false
    }
    header = columns
    return ok
  }
}
