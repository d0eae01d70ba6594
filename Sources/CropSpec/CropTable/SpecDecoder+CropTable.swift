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
    _ = rows.flush()
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

/// Turns a crop table's rows into overrides as a reader hands them over. Rows are decoded in
/// batches on all cores (`TableRowDecoding`); what depends on the order — one override per
/// source and job, the limit on problems — is then checked row by row, in the table's order,
/// so the result is the one a single pass gives.
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
  /// Rows read but not decoded yet, and whether reading has stopped at the problem limit.
  private var pending: [PendingTableRow] = []
  private var stopped = false
  private static let batchRows = 16_384

  /// The table's size in bytes, to reserve room for its overrides once some are read.
  let size: Int
  let shape = TableRowShape()

  init(decoder: SpecDecoder, limits: CropTableLimits, size: Int) {
    self.decoder = decoder
    self.limits = limits
    self.size = size
  }

  mutating func problem(_ mark: SourceMark, _ field: String, _ message: String) -> Bool {
    guard flush() else { return false }
    decoder.reader.error(mark, field, message)
    return belowLimit(at: mark)
  }

  /// False, with one last diagnostic, when the table has as many as the limit allows.
  private mutating func belowLimit(at mark: SourceMark) -> Bool {
    guard decoder.reader.diagnostics.count >= limits.maxDiagnostics else { return true }
    decoder.reader.error(mark, "", "\(limits.maxDiagnostics) problems in the crop table (the limit); reading stops")
    stopped = true
    return false
  }

  mutating func row(_ cells: [TableCell?], line: Int, offset: Int) -> Bool {
    guard !stopped else { return false }
    // Room for the whole table at once, estimated from its first rows: growing a large
    // array by doubling would hold it twice.
    if overrides.count + pending.count == 4096 && offset > 0 {
      let rows = Int(Double(size) / Double(offset) * 4096 * 1.02) + 16
      overrides.reserveCapacity(rows)
      seen.reserve(rows)
    }
    pending.append(PendingTableRow(cells: cells, line: line))
    return pending.count < Self.batchRows || flush()
  }

  /// Decodes the pending rows and takes their results in order; false once reading stops.
  mutating func flush() -> Bool {
    guard !stopped else { return false }
    guard !pending.isEmpty else { return true }
    let decoded = TableRowDecoding.decode(pending, shape: shape, decoder: decoder)
    pending.removeAll(keepingCapacity: true)
    for row in decoded {
      decoder.reader.append(row.diagnostics)
      var override = row.override
      if let key = row.key, let first = seen.earlier(key, index: row.line) {
        decoder.reader.error(
          row.sourceMark, "source", SpecDecoder.secondOverride(of: key.source, first: "line \(first)"))
        override = nil
      }
      if let override { overrides.append(shared(override)) }
      guard belowLimit(at: SourceMark(line: row.line, column: 1)) else { return false }
    }
    return true
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
