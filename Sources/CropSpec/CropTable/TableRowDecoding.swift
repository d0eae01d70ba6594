import CropSupport
import Foundation

/// A crop table's row as a reader hands it over: its cells by column and its line.
struct PendingTableRow {
  var cells: [TableCell?]
  var line: Int
}

/// What decoding one row gives, before the checks that depend on the rows before it.
struct DecodedTableRow {
  var line: Int
  /// The row's problems, in the order found.
  var diagnostics: [Diagnostic]
  /// The override, when the row has no problem.
  var override: Override?
  /// The source and job the row is for (even with problems elsewhere in the row), and the
  /// source cell's place, for "one override per source and job".
  var key: OverrideKey?
  var sourceMark: SourceMark
}

/// Decodes batches of crop-table rows on all cores. Each row is read as the inline override
/// it stands for, by `SpecDecoder.override` (one set of rules, one wording of every problem);
/// each thread has its own decoder copy and keeps each row's problems apart, so the caller
/// can take them in the table's order.
enum TableRowDecoding {
  /// Rows per thread below which one thread decodes the batch.
  static let minimumShare = 1024

  static func decode(_ rows: [PendingTableRow], shape: TableRowShape, decoder: SpecDecoder) -> [DecodedTableRow] {
    let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, rows.count / minimumShare))
    let input = UncheckedBox((rows, shape, decoder))
    let shares = (0..<threads).map { t in (t * rows.count / threads)..<((t + 1) * rows.count / threads) }
    let decoded = ConcurrentMap.map(shares) { range -> UncheckedBox<[DecodedTableRow]> in
      let (rows, shape, template) = input.value
      var decoder = template
      decoder.reader = NodeReader(file: template.reader.file)
      return UncheckedBox(rows[range].map { shape.decode($0, with: &decoder) })
    }
    return decoded.flatMap(\.value)
  }
}

/// Where each column is in a row, and how a row becomes the override node it stands for.
struct TableRowShape {
  let columns = TableColumns.names
  let sourceColumn: Int
  let jobColumn: Int
  let cropColumns: [Int]
  let singleColumns: [(String, Int)]
  let pairColumns: [(Int, Int, String)]

  init() {
    let columns = TableColumns.names
    sourceColumn = columns.firstIndex(of: "source")!
    jobColumn = columns.firstIndex(of: "job")!
    cropColumns = JobSchema.cropTableCropColumns.map { columns.firstIndex(of: $0)! }
    singleColumns = ["zoom", "rotate"].map { ($0, columns.firstIndex(of: $0)!) }
    pairColumns = JobSchema.cropTablePairs.map { (columns.firstIndex(of: $0.0)!, columns.firstIndex(of: $0.1)!, $0.2) }
  }

  /// Decodes `row` with `decoder`, whose reader collects only this row's problems.
  func decode(_ row: PendingTableRow, with decoder: inout SpecDecoder) -> DecodedTableRow {
    let before = decoder.reader.diagnostics.count
    let cells = row.cells
    var pairs: [YAMLPair] = []
    pairs.reserveCapacity(8)
    func add(_ key: String, _ value: YAMLNode) {
      pairs.append(YAMLPair(key: YAMLNode(value: .scalar(key, .plain), mark: value.mark), value: value))
    }
    if let cell = cells[sourceColumn] { add("source", Self.node(cell, text: true)) }
    if let cell = cells[jobColumn] { add("job", Self.node(cell, text: true)) }
    let cropCells = cropColumns.compactMap { index in cells[index].map { (columns[index], $0) } }
    if let first = cropCells.first {
      let entries = cropCells.map {
        YAMLPair(key: YAMLNode(value: .scalar($0.0, .plain), mark: $0.1.mark), value: Self.node($0.1))
      }
      add("crop", YAMLNode(value: .mapping(entries), mark: first.1.mark))
    }
    for (name, index) in singleColumns { if let cell = cells[index] { add(name, Self.node(cell)) } }
    var ok = true
    for (x, y, place) in pairColumns {
      switch (cells[x], cells[y]) {
      case (let cx?, let cy?):
        // A point's cells are numbers: a name there (`faces`, `centre`) is the number error
        // the schema gives, not the list of strategies `[faces, attention]` is in YAML.
        var items = [Self.node(cx), Self.node(cy)]
        for (i, column) in [x, y].enumerated() where items[i].scalar.map(JobSchema.focusNames.contains) == true {
          _ = decoder.reader.double(items[i], columns[column], JobSchema.cropTable[columns[column]].type)
          ok = false
          items[i] = YAMLNode(value: .scalar("0", .plain), mark: items[i].mark)
        }
        add(place, YAMLNode(value: .sequence(items), mark: cx.mark))
      case (let given?, nil), (nil, let given?):
        let (have, lack) = cells[x] == nil ? (columns[y], columns[x]) : (columns[x], columns[y])
        decoder.reader.error(
          given.mark, lack,
          Diagnostic.expected("\(lack) with \(have) (the \(place) is a point [x, y])", received: "\(have) alone"))
        ok = false
        // The given cell is still checked; 0, valid in both pairs, stands in for the other.
        let zero = YAMLNode(value: .scalar("0", .plain), mark: given.mark)
        let items = cells[x] == nil ? [zero, Self.node(given)] : [Self.node(given), zero]
        add(place, YAMLNode(value: .sequence(items), mark: given.mark))
      case (nil, nil): break
      }
    }
    let node = YAMLNode(value: .mapping(pairs), mark: SourceMark(line: row.line, column: 1))
    var key = KeyRecorder()
    let decoded = decoder.override(node, "", index: row.line, seen: &key)
    let found = Array(decoder.reader.diagnostics[before...])
    return DecodedTableRow(
      line: row.line, diagnostics: found, override: ok ? decoded : nil, key: key.key,
      sourceMark: cells[sourceColumn]?.mark ?? node.mark)
  }

  /// The YAML node a cell stands for. A CSV cell is a plain scalar, read as the number, the
  /// boolean or the string it looks like, except in a column of names and paths (`text`),
  /// where it is always a string. A JSON string is a quoted scalar (a string, never a
  /// number), a JSON number, `true`, `false` or `null` a plain one.
  static func node(_ cell: TableCell, text: Bool = false) -> YAMLNode {
    switch cell.kind {
    case .csv: return YAMLNode(value: .scalar(cell.text, text ? .quoted : .plain), mark: cell.mark)
    case .jsonString: return YAMLNode(value: .scalar(cell.text, .quoted), mark: cell.mark)
    case .jsonNumber, .jsonLiteral: return YAMLNode(value: .scalar(cell.text, .plain), mark: cell.mark)
    case .jsonArray:
      return YAMLNode(value: .sequence([YAMLNode(value: .scalar("", .plain), mark: cell.mark)]), mark: cell.mark)
    case .jsonObject:
      let item = YAMLNode(value: .scalar("", .plain), mark: cell.mark)
      return YAMLNode(value: .mapping([YAMLPair(key: item, value: item)]), mark: cell.mark)
    }
  }
}

/// Notes the source and job a row is for; the check against earlier rows is the caller's.
private struct KeyRecorder: OverrideRegistry {
  var key: OverrideKey?
  mutating func earlier(_ key: OverrideKey, index: Int) -> Int? {
    self.key = key
    return nil
  }
}

/// Hands values that are only read, or owned by one thread at a time, across threads.
private struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
