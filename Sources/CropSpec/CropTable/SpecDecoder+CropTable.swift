import CropGeometry
import CropStorage
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
  mutating func cropTable(
    _ node: YAMLNode, base: String
  ) -> (file: String, rows: CropTableRows, settings: CropTableSettings)? {
    let what = "a crop table: a .csv or .jsonl file"
    guard let (pathNode, settings) = cropTableSettings(node) else { return nil }
    let field = pathNode.mark == node.mark ? "overrides_from" : "overrides_from.path"
    guard let name = reader.string(pathNode, field, what: what),
      let location = location(name, pathNode, field, use: .file(what: what))
    else { return nil }
    let format = PathText.pathExtension(name).lowercased()
    guard format == "csv" || format == "jsonl" else {
      reader.expected(pathNode, field, what)
      return nil
    }
    // A table in object storage is read only when the caller gives a reader (plan, run):
    // `validate` checks its syntax without the network, and its rows at plan time.
    guard location.isLocal || objects != nil else { return (name, CropTableRows(), settings) }
    let file = !location.isLocal || name.hasPrefix("/") || base == "." ? name : base + "/" + name
    let mainReader = reader
    var info = stat()
    let size = stat(file, &info) == 0 ? Int(info.st_size) : 0
    var rows = TableRows(decoder: self, limits: tableLimits, size: size, settings: settings, file: file)
    rows.decoder.reader = NodeReader(file: file)
    rows.decoder.tableSettings = settings
    var csv = CSVTableReader(limits: tableLimits)
    var jsonl = JSONLinesTableReader(limits: tableLimits)
    var finished = true
    let problem = TableFile.read(location, path: file, objects: objects, maxBytes: tableLimits.maxBytes) { chunk in
      finished = format == "csv" ? csv.feed(chunk, into: &rows) : jsonl.feed(chunk, into: &rows)
      return finished
    }
    if problem == nil && finished {
      if format == "csv" { csv.finish(into: &rows) } else { jsonl.finish(into: &rows) }
    }
    let found = rows.decoder.reader.diagnostics
    self = rows.decoder
    reader = mainReader
    tableSettings = nil
    if let problem {
      reader.error(node.mark, "overrides_from", "\(problem.message): \(file)")
      return nil
    }
    reader.append(
      found.map { diagnostic in
        var d = diagnostic
        d.field = Self.tableColumn(of: d.field, frame: settings.frame)
        return d
      })
    return (file, rows.store, settings)
  }

  /// The node of the table's path and the table's settings, from `overrides_from`: the path
  /// alone, or a mapping of the path and the settings (`JobSchema.cropTableSettings`).
  private mutating func cropTableSettings(_ node: YAMLNode) -> (YAMLNode, CropTableSettings)? {
    var settings = CropTableSettings()
    guard case .mapping = node.value else { return (node, settings) }
    let field = "overrides_from"
    let what = "a crop table: its path, or a mapping with path"
    guard let e = reader.mapping(node, field, known: Self.cropTableKeys, what: what) else { return nil }
    var ok = true
    func read<T>(_ key: String, _ value: (YAMLNode, String) -> T?) -> T? {
      guard let n = e[key] else { return nil }
      let v = value(n, join(field, key))
      if v == nil { ok = false }
      return v
    }
    if let v = read("frame", { reader.choice($0, $1, CropFrame.self) }) { settings.frame = v }
    if let v = read("check_orientation", { reader.bool($0, $1) }) { settings.checkOrientation = v }
    if let v = read("units", { reader.choice($0, $1, CropUnits.self) }) { settings.units = v }
    if let v = read("on_error", { reader.choice($0, $1, CropTableSettings.OnError.self) }) { settings.onError = v }
    if let v = read("require_crop", { reader.bool($0, $1) }) { settings.requireCrop = v }
    if let v = read("on_unmatched_row", { reader.choice($0, $1, CropTableSettings.OnUnmatchedRow.self) }) {
      settings.onUnmatchedRow = v
    }
    if let n = e["check_orientation"], ok, settings.frame != .cropperjs {
      reader.error(
        n.mark, join(field, "check_orientation"),
        Diagnostic.expected(
          "frame: cropperjs with check_orientation (Cropper.js's option)", received: "frame \(settings.frame.rawValue)"
        ))
      ok = false
    }
    guard let path = e["path"] else {
      reader.error(node.mark, join(field, "path"), Diagnostic.missing("path", "the crop table's file (.csv or .jsonl)"))
      return nil
    }
    return ok ? (path, settings) : nil
  }

  /// The column a field of the override a row stands for comes from: `crop.width` → `width`,
  /// `focus[1]` → `focus_y`; in a cropper's frame the crop's angle is the `rotate` column.
  static func tableColumn(of field: String, frame: CropFrame = .upright) -> String {
    if field == "crop.angle" && frame != .upright { return "rotate" }
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
  /// Under `on_error: fail-row`, a row's problems are warnings and its source fails.
  private let failRow: Bool
  /// The table as diagnostics name it.
  private let file: String

  init(decoder: SpecDecoder, limits: CropTableLimits, size: Int, settings: CropTableSettings, file: String) {
    self.decoder = decoder
    self.limits = limits
    self.size = size
    self.file = file
    failRow = settings.onError == .failRow
    store = CropTableRows(jobs: decoder.declaredJobs, settings: settings)
    seen = TableRegistry(jobs: decoder.declaredJobs)
    fast =
      decoder.tableDecoding == .fast ? TableRowFastDecoder(jobs: decoder.declaredJobs, settings: settings) : nil
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
    let before = decoder.reader.diagnostics.count
    // The row's job, by name and code, for a row that fails its source (`fail-row`).
    var rowJob: (name: String?, code: UInt32)? = nil
    if let values = fast?.decode(row) {
      rowJob = (values.job == 0 ? nil : decoder.declaredJobs[Int(values.job) - 1], values.job)
      let first = seen.earlier(
        job: values.job, source: values.source, of: row, index: store.count, line: line, store: store)
      if let first {
        decoder.reader.error(
          values.source.mark, "source", SpecDecoder.secondOverride(of: row.text(values.source), first: "line \(first)"))
      } else {
        store.append(values, of: row, line: line)
      }
    } else {
      let decoded = general.decode(row, line: line, with: &decoder)
      if let key = decoded.key {
        let job = seen.code(of: key.job)
        rowJob = (key.job, job)
        let index = decoded.override == nil ? nil : store.count
        let first = seen.earlier(job: job, source: key.source, index: index, line: line, store: store)
        if let first {
          // The path as written in this row (a key drops `./`).
          let source = row.cells[TableLayout.shared.source].map { row.text($0) } ?? key.source
          decoder.reader.error(
            decoded.sourceMark, "source", SpecDecoder.secondOverride(of: source, first: "line \(first)"))
        } else if let override = decoded.override {
          store.append(override, job: job)
        }
      }
    }
    if failRow, decoder.reader.diagnostics.count > before, let (name, code) = rowJob,
      let cell = row.cells[TableLayout.shared.source]
    {
      failRowSource(row.text(cell), job: name, jobCode: code, line: line, since: before)
    }
    return belowLimit(at: SourceMark(line: line, column: 1))
  }

  /// Under `on_error: fail-row`: the problems found since `before` become warnings, and an
  /// override that fails `source` (for `job`, or every job) takes the row's place.
  private mutating func failRowSource(_ source: String, job: String?, jobCode: UInt32, line: Int, since before: Int) {
    let problems = decoder.reader.demoteToWarnings(from: before)
    guard let first = problems.first else { return }
    let column = SpecDecoder.tableColumn(of: first.field, frame: decoder.tableSettings?.frame ?? .upright)
    let message =
      "its crop table row is invalid (on_error: fail-row): \(file):\(first.line):\(first.column): "
      + (column.isEmpty ? "" : column + ": ") + first.message
    // A job the file does not declare: the source fails for every job.
    let known = job.flatMap { decoder.declaredJobs.contains($0) ? $0 : nil }
    var failed = Override(
      job: known, source: source, place: PlaceSpec(), fields: [], mark: SourceMark(line: line, column: 1))
    failed.failure = message
    store.append(failed, job: known == nil ? 0 : jobCode)
  }
}
