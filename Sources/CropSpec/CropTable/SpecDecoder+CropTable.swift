import CropSupport
import Foundation

/// Which decoder reads a crop table's rows.
package enum CropTableDecoding: Sendable {
  /// The fast decoder takes the rows it proves valid; the general decoder reads the others
  /// (and words their problems).
  case fast
  /// The general decoder reads every row: what the fast one is compared with in tests.
  case general
}

extension SpecDecoder {
  // MARK: Crop tables (overrides_from)

  /// The rows of the crop table that `node` names, with the file as diagnostics name it; nil
  /// when the table cannot be read. Each row is the inline override it stands for
  /// (`{source, job, crop: {x, y, width, height, angle}, zoom, focus: [focus_x, focus_y],
  /// offset: [offset_x, offset_y], rotate}`, each value located at its cell), checked by the
  /// rules of `override` that reads inline ones, with the same wording of every problem:
  /// `TableRowShape` reads a row by `override`, and `TableRowFastDecoder` takes the rows it
  /// proves valid by the same checks, without the YAML node.
  mutating func cropTable(_ node: YAMLNode, base: String) -> (file: String, rows: CropTableRows)? {
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
    return (file, rows.store)
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

/// Turns a crop table's rows into stored rows as a reader hands them over, in the table's
/// order: a row the fast decoder takes is stored from its values; any other goes through
/// the general decoder, which reports its problems. Then one override per source and job,
/// and the limit on problems.
private struct TableRows: TableSink {
  /// Its reader collects the table's problems.
  var decoder: SpecDecoder
  let limits: CropTableLimits
  var store: CropTableRows
  /// Each source and job's first row (for "one override per source and job").
  private var seen: TableRegistry
  private let fast: TableRowFastDecoder?
  private let general = TableRowShape()
  private var rows = 0
  private var stopped = false

  /// The table's size in bytes, to reserve room for its rows once some are read.
  let size: Int

  init(decoder: SpecDecoder, limits: CropTableLimits, size: Int) {
    self.decoder = decoder
    self.limits = limits
    self.size = size
    store = CropTableRows(jobs: decoder.declaredJobs)
    seen = TableRegistry(jobs: decoder.declaredJobs)
    fast = decoder.tableDecoding == .fast ? TableRowFastDecoder(jobs: decoder.declaredJobs) : nil
  }

  mutating func problem(_ mark: SourceMark, _ field: String, _ message: String) -> Bool {
    guard !stopped else { return false }
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

  mutating func row(_ row: TableRowCells, line: Int, offset: Int) -> Bool {
    guard !stopped else { return false }
    rows += 1
    // Room for the whole table at once, estimated from its first rows: growing large
    // arrays by doubling would hold them twice.
    if rows == 4096 && offset > 0 && store.count > 0 {
      let estimate = min(Int(Double(size) / Double(offset) * 4096 * 1.02) + 16, limits.maxRows)
      let pathBytes = Double(store.sourceByteCount) / Double(store.count) * Double(estimate)
      store.reserve(rows: estimate, sourceBytes: Int(pathBytes))
      seen.reserve(estimate)
    }
    if let values = fast?.decode(row) {
      let first = seen.earlier(
        job: values.job, source: values.source, of: row, index: store.count, line: line, store: store)
      if let first {
        let source = OverrideKey(job: nil, source: row.text(values.source)).source
        decoder.reader.error(
          values.source.mark, "source", SpecDecoder.secondOverride(of: source, first: "line \(first)"))
      } else {
        store.append(values, of: row, line: line)
      }
    } else {
      let decoded = general.decode(row, line: line, with: &decoder)
      if let key = decoded.key {
        let job = seen.code(of: key.job)
        let index = decoded.override == nil ? nil : store.count
        let first = seen.earlier(job: job, source: key.source, index: index, line: line, store: store)
        if let first {
          decoder.reader.error(
            decoded.sourceMark, "source", SpecDecoder.secondOverride(of: key.source, first: "line \(first)"))
        } else if let override = decoded.override {
          store.append(override, job: job)
        }
      }
    }
    return belowLimit(at: SourceMark(line: line, column: 1))
  }
}
