import CropGeometry

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
    let settings = decoder.tableSettings ?? CropTableSettings()
    let framed = settings.frame != .upright
    var ok = true
    if let cell = cells[layout.source] { add("source", node(cell, text: true)) }
    if let cell = cells[layout.job] { add("job", node(cell, text: true)) }
    ok = frameColumns(row, framed: framed, frame: settings.frame, with: &decoder) && ok
    // In a cropper's frame `rotate` is the crop's own turn: its `angle`.
    var cropCells = layout.crop.compactMap { entry in cells[entry.column].map { (entry.key, $0) } }
    if framed {
      cropCells = cropCells.filter { $0.0 != "angle" } + (cells[layout.column("rotate")].map { [("angle", $0)] } ?? [])
      if cropCells.isEmpty {
        decoder.reader.error(
          SourceMark(line: line, column: 1), "x",
          Diagnostic.expected(
            "a crop (x, y, width, height) in frame \(settings.frame.rawValue)", received: "a row without one"))
        ok = false
      }
    }
    if let first = cropCells.first {
      let entries = cropCells.map {
        YAMLPair(key: YAMLNode(value: .scalar($0.0, .plain), mark: $0.1.mark), value: node($0.1))
      }
      add("crop", YAMLNode(value: .mapping(entries), mark: first.1.mark))
    }
    let (mirrorsOK, flip) = mirrors(row, with: &decoder)
    if let flip { add("flip", flip) }
    ok = mirrorsOK && ok
    for (x, y, place) in framed ? [] : layout.pairs {
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
    if !framed {
      for (column, field) in layout.singles { if let cell = cells[column] { add(field, node(cell)) } }
    }
    let mark = SourceMark(line: line, column: 1)
    let node = YAMLNode(value: .mapping(pairs), mark: mark)
    var key = KeyRecorder()
    var decoded = decoder.override(node, "", index: line, seen: &key)
    if var o = decoded, let crop = o.place.crop, !settings.isPlain {
      // Made cropjob's crop by the planner, from the photo's header.
      o.framedCrop = FramedCrop(
        frame: settings.frame, units: settings.units, x: crop.x, y: crop.y, width: crop.width, height: crop.height,
        rotate: crop.angle, flipHorizontal: framed && o.place.flipHorizontal,
        flipVertical: framed && o.place.flipVertical)
      // A cropper's crop is the whole picture: its mirror replaces the job's.
      if framed { o.fields.insert("flip") }
      decoded = o
    }
    return Decoded(override: ok ? decoded : nil, key: key.key, sourceMark: cells[layout.source]?.mark ?? mark)
  }

  /// Reports the columns the table's frame does not have: in a cropper's frame a row is a
  /// crop (`x, y, width, height, rotate` and mirrors), in cropjob's `scaleX` and `scaleY`
  /// (Cropper.js's) are not columns. False when there is one.
  private func frameColumns(_ row: TableRowCells, framed: Bool, frame: CropFrame, with decoder: inout SpecDecoder)
    -> Bool
  {
    let foreign = framed ? ["angle", "zoom", "focus_x", "focus_y", "offset_x", "offset_y"] : ["scaleX", "scaleY"]
    var ok = true
    for name in foreign {
      guard let cell = row.cells[layout.column(name)] else { continue }
      let what =
        framed
        ? "a column of a crop in frame \(frame.rawValue) (x, y, width, height, rotate, flip, scaleX, scaleY)"
        : "a column of frame upright (scaleX and scaleY are Cropper.js's: frame cropperjs)"
      decoder.reader.error(cell.mark, name, Diagnostic.expected(what, received: name))
      ok = false
    }
    return ok
  }

  /// The `flip` node of a row's mirrors: its `flip` cell, or its `scaleX` and `scaleY`
  /// (1, or -1 for a mirror) as the list of names they make; nil when none is set. Not ok
  /// after reporting a problem.
  private func mirrors(_ row: TableRowCells, with decoder: inout SpecDecoder) -> (ok: Bool, node: YAMLNode?) {
    let scales = [("scaleX", "horizontal"), ("scaleY", "vertical")].compactMap { column, name in
      row.cells[layout.column(column)].map { (column, name, $0) }
    }
    if let flip = row.cells[layout.column("flip")] {
      guard let (column, _, cell) = scales.first else { return (true, Self.node(flip, of: row)) }
      decoder.reader.error(
        cell.mark, column, Diagnostic.expected("flip or scaleX and scaleY", received: "flip and \(column)"))
      return (false, nil)
    }
    guard let first = scales.first else { return (true, nil) }
    var names: [YAMLNode] = []
    var ok = true
    for (column, name, cell) in scales {
      let node = Self.node(cell, of: row)
      if let text = NodeReader.plainText(node), let value = NodeReader.numberValue(text), value == 1 || value == -1 {
        if value == -1 { names.append(YAMLNode(value: .scalar(name, .plain), mark: cell.mark)) }
      } else {
        decoder.reader.expected(node, column, "1 or -1 (Cropper.js's \(column); -1 mirrors the image)")
        ok = false
      }
    }
    return (ok, ok ? YAMLNode(value: .sequence(names), mark: first.2.mark) : nil)
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
