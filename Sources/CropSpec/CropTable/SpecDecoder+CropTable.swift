import CropSupport
import Foundation

extension SpecDecoder {
  // MARK: Crop tables (overrides_from)

  /// The overrides of the crop table that `node` names, with the file as diagnostics name it;
  /// nil when the table cannot be read. Each row is read as the inline override it stands for
  /// (`{source, job, crop: {x, y, width, height, angle}, zoom, focus: [focus_x, focus_y],
  /// offset: [offset_x, offset_y], rotate}`, each value located at its cell), by the same
  /// `override` that reads inline ones: one set of rules, one wording of every problem.
  mutating func cropTable(_ node: YAMLNode, base: String) -> (file: String, overrides: [Override])? {
    let what = "a crop table: a .csv or .jsonl file"
    guard let name = reader.string(node, "overrides_from", what: what) else { return nil }
    let format = PathText.pathExtension(name).lowercased()
    guard format == "csv" || format == "jsonl" else {
      reader.expected(node, "overrides_from", what)
      return nil
    }
    let file = name.hasPrefix("/") || base == "." ? name : base + "/" + name
    let mainReader = reader
    var info = stat()
    let size = stat(file, &info) == 0 ? Int(info.st_size) : 0
    var rows = TableRows(decoder: self, limits: tableLimits, size: size)
    rows.decoder.reader = NodeReader(file: file)
    var csv = CSVTableReader(limits: tableLimits)
    var jsonl = JSONLinesTableReader(limits: tableLimits)
    var finished = true
    let problem = TableFile.read(path: file, maxBytes: tableLimits.maxBytes) { chunk in
      finished = format == "csv" ? csv.feed(chunk, into: &rows) : jsonl.feed(chunk, into: &rows)
      return finished
    }
    if problem == nil && finished {
      if format == "csv" { csv.finish(into: &rows) } else { jsonl.finish(into: &rows) }
    }
    let found = rows.decoder.reader.diagnostics
    self = rows.decoder
    reader = mainReader
    if let problem {
      reader.error(node.mark, "overrides_from", "\(problem.message): \(file)")
      return nil
    }
    reader.append(
      found.map { diagnostic in
        var d = diagnostic
        d.field = Self.tableColumn(of: d.field)
        return d
      })
    return (file, rows.overrides)
  }

  /// The column a field of the override a row stands for comes from: `crop.width` → `width`,
  /// `focus[1]` → `focus_y`.
  static func tableColumn(of field: String) -> String {
    if field.hasPrefix("crop.") { return String(field.dropFirst("crop.".count)) }
    for (x, y, place) in JobSchema.cropTablePairs {
      if field == place || field == place + "[0]" { return x }
      if field == place + "[1]" { return y }
    }
    return field
  }
}

/// Turns a crop table's rows into overrides as a reader hands them over.
private struct TableRows: TableSink {
  var decoder: SpecDecoder
  let limits: CropTableLimits
  var overrides: [Override] = []
  /// Each source and job's first row (for "one override per source and job").
  private var seen = TableRegistry()
  /// One copy of each set of fields and of each job name, shared by every row that has it,
  /// so that a million rows keep no million sets.
  private var fieldSets: [Set<String>: Set<String>] = [:]
  private var jobNames: [String: String] = [:]

  /// The table's size in bytes, to reserve room for its overrides once some are read.
  let size: Int

  /// Where each column is in a row (held here, not in statics: a lookup per cell).
  let columns = TableColumns.names
  let sourceColumn: Int
  let jobColumn: Int
  let cropColumns: [Int]
  let singleColumns: [(String, Int)]
  let pairColumns: [(Int, Int, String)]

  init(decoder: SpecDecoder, limits: CropTableLimits, size: Int) {
    self.decoder = decoder
    self.limits = limits
    self.size = size
    let columns = self.columns
    sourceColumn = columns.firstIndex(of: "source")!
    jobColumn = columns.firstIndex(of: "job")!
    cropColumns = JobSchema.cropTableCropColumns.map { columns.firstIndex(of: $0)! }
    singleColumns = ["zoom", "rotate"].map { ($0, columns.firstIndex(of: $0)!) }
    pairColumns = JobSchema.cropTablePairs.map { (columns.firstIndex(of: $0.0)!, columns.firstIndex(of: $0.1)!, $0.2) }
  }

  mutating func problem(_ mark: SourceMark, _ field: String, _ message: String) -> Bool {
    decoder.reader.error(mark, field, message)
    return belowLimit(at: mark)
  }

  /// False, with one last diagnostic, when the table has as many as the limit allows.
  private mutating func belowLimit(at mark: SourceMark) -> Bool {
    guard decoder.reader.diagnostics.count >= limits.maxDiagnostics else { return true }
    decoder.reader.error(mark, "", "\(limits.maxDiagnostics) problems in the crop table (the limit); reading stops")
    return false
  }

  mutating func row(_ cells: [TableCell?], line: Int, offset: Int) -> Bool {
    // Room for the whole table at once, estimated from its first rows: growing a large
    // array by doubling would hold it twice.
    if overrides.count == 4096 && offset > 0 {
      let rows = Int(Double(size) / Double(offset) * 4096 * 1.02) + 16
      overrides.reserveCapacity(rows)
      seen.reserve(rows)
    }
    var pairs: [YAMLPair] = []
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
      case (let cx?, let cy?): add(place, YAMLNode(value: .sequence([Self.node(cx), Self.node(cy)]), mark: cx.mark))
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
    let node = YAMLNode(value: .mapping(pairs), mark: SourceMark(line: line, column: 1))
    if let decoded = decoder.override(node, "", index: line, seen: &seen, first: { "line \($0)" }), ok {
      overrides.append(shared(decoded))
    }
    return belowLimit(at: node.mark)
  }

  /// `override` with its set of fields and its job name shared with the rows before.
  private mutating func shared(_ override: Override) -> Override {
    var o = override
    if let fields = fieldSets[o.fields] { o.fields = fields } else { fieldSets[o.fields] = o.fields }
    if let job = o.job {
      if let name = jobNames[job] { o.job = name } else { jobNames[job] = job }
    }
    return o
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

/// The crop table's sources and jobs met so far, with the line of each: the keys share their
/// strings with the rows' overrides, and the table of their positions takes 4 bytes a slot
/// (a `Dictionary` would take 40 a slot, a million rows' worth).
private struct TableRegistry: OverrideRegistry {
  private var keys: [OverrideKey] = []
  /// Each key's line, and its hash (truncated: compared before the key).
  private var lines: [Int32] = []
  private var hashes: [Int32] = []
  private var table = IndexTable()

  mutating func reserve(_ rows: Int) {
    keys.reserveCapacity(rows)
    lines.reserveCapacity(rows)
    hashes.reserveCapacity(rows)
    table.reserve(rows) { Int(hashes[$0]) }
  }

  mutating func earlier(_ key: OverrideKey, index: Int) -> Int? {
    let hash = Int32(truncatingIfNeeded: key.hashValue)
    if let position = table.find(hash: Int(hash), { hashes[$0] == hash && keys[$0] == key }) {
      return Int(lines[position])
    }
    table.insert(hash: Int(hash), index: keys.count) { Int(hashes[$0]) }
    keys.append(key)
    lines.append(Int32(clamping: index))
    hashes.append(hash)
    return nil
  }
}
