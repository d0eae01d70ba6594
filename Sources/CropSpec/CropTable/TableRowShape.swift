/// The general decoder of a crop table's rows: a row becomes the YAML node of the inline
/// override it stands for (`{source, job, crop: {x, y, width, height, angle}, zoom, focus:
/// [focus_x, focus_y], offset: [offset_x, offset_y], rotate}`, each value located at its
/// cell), read by `SpecDecoder.override`, the decoder of inline overrides: one set of rules
/// and one wording of every problem. The fast decoder (`TableRowFastDecoder`) takes the rows
/// it proves valid; this one reads every other row, which is how a table's problems are
/// found and worded, and every row when asked to (`CropTableDecoding.general`, what tests
/// compare the fast decoder with).
struct TableRowShape {
  let layout = TableLayout.shared

  /// What decoding a row gives: its override when it has no problem; the source and job it
  /// is for (also with problems elsewhere in the row) and the source cell's place, for "one
  /// override per source and job", which the caller checks.
  struct Decoded {
    var override: Override?
    var key: OverrideKey?
    var sourceMark: SourceMark
  }

  /// Decodes `row`, which starts on `line`, with `decoder`, whose reader collects its problems.
  func decode(_ row: TableRowCells, line: Int, with decoder: inout SpecDecoder) -> Decoded {
    let cells = row.cells
    let columns = layout.names
    var pairs: [YAMLPair] = []
    pairs.reserveCapacity(8)
    func add(_ key: String, _ value: YAMLNode) {
      pairs.append(YAMLPair(key: YAMLNode(value: .scalar(key, .plain), mark: value.mark), value: value))
    }
    func node(_ cell: TableCell, text: Bool = false) -> YAMLNode { Self.node(cell, of: row, text: text) }
    if let cell = cells[layout.source] { add("source", node(cell, text: true)) }
    if let cell = cells[layout.job] { add("job", node(cell, text: true)) }
    let cropCells = layout.crop.compactMap { entry in cells[entry.column].map { (entry.key, $0) } }
    if let first = cropCells.first {
      let entries = cropCells.map {
        YAMLPair(key: YAMLNode(value: .scalar($0.0, .plain), mark: $0.1.mark), value: node($0.1))
      }
      add("crop", YAMLNode(value: .mapping(entries), mark: first.1.mark))
    }
    for (column, field) in layout.singles { if let cell = cells[column] { add(field, node(cell)) } }
    var ok = true
    for (x, y, place) in layout.pairs {
      switch (cells[x], cells[y]) {
      case (let cx?, let cy?):
        // A point's cells are numbers: a name there (`faces`, `centre`) is the number error
        // the schema gives, not the list of strategies `[faces, attention]` is in YAML.
        var items = [node(cx), node(cy)]
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
        let items = cells[x] == nil ? [zero, node(given)] : [node(given), zero]
        add(place, YAMLNode(value: .sequence(items), mark: given.mark))
      case (nil, nil): break
      }
    }
    let mark = SourceMark(line: line, column: 1)
    let node = YAMLNode(value: .mapping(pairs), mark: mark)
    var key = KeyRecorder()
    let decoded = decoder.override(node, "", index: line, seen: &key)
    return Decoded(override: ok ? decoded : nil, key: key.key, sourceMark: cells[layout.source]?.mark ?? mark)
  }

  /// The YAML node a cell stands for. A CSV cell is a plain scalar, read as the number, the
  /// boolean or the string it looks like, except in a column of names and paths (`text`),
  /// where it is always a string. A JSON string is a quoted scalar (a string, never a
  /// number), a JSON number, `true`, `false` or `null` a plain one.
  static func node(_ cell: TableCell, of row: TableRowCells, text: Bool = false) -> YAMLNode {
    switch cell.kind {
    case .csv: return YAMLNode(value: .scalar(row.text(cell), text ? .quoted : .plain), mark: cell.mark)
    case .jsonString: return YAMLNode(value: .scalar(row.text(cell), .quoted), mark: cell.mark)
    case .jsonNumber, .jsonLiteral: return YAMLNode(value: .scalar(row.text(cell), .plain), mark: cell.mark)
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
