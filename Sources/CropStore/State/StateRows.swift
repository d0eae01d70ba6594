import CropGeometry
import CropPlan
import CropSpec
import Foundation

/// The columns of the state's tables, and the rows to and from `Manifest.Entry` and
/// `SourceFacts`: one place that knows the column order.
enum StateRows {
  static let outputColumns = [
    "path", "job", "key", "bytes", "width", "height", "sha256", "format", "quality", "encodes", "source_path",
    "source_sha256", "source_bytes", "source_mtime_ns", "crop_x", "crop_y", "crop_width", "crop_height", "scale",
    "angle", "centre_x", "centre_y", "smart_focus", "flip", "notes", "recorded_ns", "placeholders",
    "ssim", "frames",
  ]
  static let sourceColumns = [
    "path", "size", "mtime_ns", "inode", "sha256", "format", "stored_width", "stored_height", "orientation", "bands",
    "alpha", "pages", "recorded_ns", "ctime_ns", "device",
  ]

  /// `columns` as a list in SQL, each prefixed with `table.` when given.
  static func list(_ columns: [String], table: String? = nil) -> String {
    columns.map { column in table.map { "\($0).\(column)" } ?? column }.joined(separator: ", ")
  }

  /// The statement that records an output row (`values(_:recorded:)`).
  static let insertOutput =
    "INSERT OR REPLACE INTO outputs(\(list(outputColumns))) VALUES (\(parameters(outputColumns.count)))"
  /// The statement that records a source row (`values(path:_:recorded:)`).
  static let insertSource =
    "INSERT OR REPLACE INTO sources(\(list(sourceColumns))) VALUES (\(parameters(sourceColumns.count)))"

  /// `count` parameter markers.
  static func parameters(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }

  /// The `smart_focus` column: the focus's name, or, when the entry records what it found, the
  /// JSON of `SmartFocusCell` (state schema 1 has no column of its own for it; a name never
  /// starts with `{`).
  static func smartFocusCell(_ g: Manifest.GeometryRecord) -> SQLiteConnection.Value {
    guard let name = g.smartFocus else { return .null }
    guard let found = g.found else { return .text(name) }
    let cell = SmartFocusCell(name: name, found: found)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return .text(String(decoding: (try? encoder.encode(cell)) ?? Data(name.utf8), as: UTF8.self))
  }

  /// The focus name and what it found, from a `smart_focus` cell.
  static func smartFocus(_ text: String) -> (String, Manifest.FocusRecord?) {
    guard text.hasPrefix("{"), let cell = try? JSONDecoder().decode(SmartFocusCell.self, from: Data(text.utf8)) else {
      return (text, nil)
    }
    return (cell.name, cell.found)
  }

  struct SmartFocusCell: Codable {
    var name: String
    var found: Manifest.FocusRecord
  }

  static func values(_ e: Manifest.Entry, recorded: Int64) -> [SQLiteConnection.Value] {
    let g = e.geometry
    let notes: SQLiteConnection.Value =
      g.notes.isEmpty
      ? .null : .text(String(decoding: (try? JSONEncoder().encode(g.notes)) ?? Data("[]".utf8), as: UTF8.self))
    return [
      .text(e.path), .text(e.job), .text(e.key), .integer(Int64(e.bytes)), .integer(Int64(e.width)),
      .integer(Int64(e.height)), .text(e.sha256), .text(e.format), .integer(Int64(e.quality)),
      .integer(Int64(e.encodes)), .text(e.source.path), .text(e.source.sha256), .integer(Int64(e.source.bytes)),
      .integer(e.source.mtime), .real(g.crop.x), .real(g.crop.y), .real(g.crop.width), .real(g.crop.height),
      .real(g.scale), .real(g.angle), .real(g.centre.x), .real(g.centre.y), smartFocusCell(g),
      g.flip.map { .text($0) } ?? .null, notes, .integer(recorded), placeholdersCell(e.placeholders),
      e.ssim.map { .real($0) } ?? .null, e.frames.map { .integer(Int64($0)) } ?? .null,
    ]
  }

  /// The entry in the current row of a statement that selects `outputColumns` first, in
  /// order (read by position: a row's columns are not looked up by name).
  static func entry(_ s: SQLiteConnection.Statement) -> Manifest.Entry {
    assert(s.isColumn(0, named: "path") && s.isColumn(28, named: outputColumns[28]))
    let notes: [String] =
      s.optionalText(at: 24).map { (try? JSONDecoder().decode([String].self, from: Data($0.utf8))) ?? [] } ?? []
    let focus = s.optionalText(at: 22).map(smartFocus)
    return Manifest.Entry(
      path: s.text(at: 0), job: s.text(at: 1), key: s.text(at: 2), bytes: Int(s.int(at: 3)),
      width: Int(s.int(at: 4)), height: Int(s.int(at: 5)), sha256: s.text(at: 6), format: s.text(at: 7),
      quality: Int(s.int(at: 8)), encodes: Int(s.int(at: 9)),
      source: Manifest.SourceRecord(
        path: s.text(at: 10), sha256: s.text(at: 11), bytes: Int(s.int(at: 12)), mtime: s.int(at: 13)),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: s.double(at: 14), y: s.double(at: 15), width: s.double(at: 16), height: s.double(at: 17)),
        scale: s.double(at: 18), angle: s.double(at: 19), centre: Point(x: s.double(at: 20), y: s.double(at: 21)),
        smartFocus: focus?.0, flip: s.optionalText(at: 23), notes: notes, found: focus?.1),
      placeholders: s.optionalText(at: 26).flatMap {
        try? JSONDecoder().decode(PlaceholderValues.self, from: Data($0.utf8))
      }, ssim: s.isNull(at: 27) ? nil : s.double(at: 27), frames: s.isNull(at: 28) ? nil : Int(s.int(at: 28)))
  }

  /// The `placeholders` column: the JSON of the values (sorted keys), NULL without any.
  static func placeholdersCell(_ values: PlaceholderValues?) -> SQLiteConnection.Value {
    guard let values else { return .null }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(values) else { return .null }
    return .text(String(decoding: data, as: UTF8.self))
  }

  static func values(path: String, _ f: SourceFacts, recorded: Int64) -> [SQLiteConnection.Value] {
    let h = f.header
    return [
      .text(path), .integer(f.identity.size), .integer(f.identity.mtime), .integer(Int64(bitPattern: f.identity.inode)),
      f.sha256.map { .text($0) } ?? .null, .text(h.format.rawValue), .integer(Int64(h.storedWidth)),
      .integer(Int64(h.storedHeight)), .integer(Int64(h.orientation)), .integer(Int64(h.bands)),
      .integer(h.hasAlpha ? 1 : 0), .integer(Int64(h.pages)), .integer(recorded), .integer(f.identity.ctime),
      .integer(Int64(bitPattern: f.identity.device)),
    ]
  }

  /// The source in the current row of a statement that selects `sourceColumns` first, in
  /// order (read by position), with its `recorded_ns` (nil for a format this cropjob does
  /// not know).
  static func source(_ s: SQLiteConnection.Statement) -> (path: String, facts: SourceFacts, recorded: Int64)? {
    assert(s.isColumn(0, named: "path") && s.isColumn(14, named: sourceColumns[14]))
    guard let format = InputFormat(rawValue: s.text(at: 5)) else { return nil }
    let header = SourceHeader(
      format: format, storedWidth: Int(s.int(at: 6)), storedHeight: Int(s.int(at: 7)), orientation: Int(s.int(at: 8)),
      bands: Int(s.int(at: 9)), hasAlpha: s.int(at: 10) != 0, pages: Int(s.int(at: 11)))
    let identity = FileIdentity(
      size: s.int(at: 1), mtime: s.int(at: 2), inode: UInt64(bitPattern: s.int(at: 3)), ctime: s.int(at: 13),
      device: UInt64(bitPattern: s.int(at: 14)))
    let facts = SourceFacts(identity: identity, sha256: s.optionalText(at: 4), header: header)
    return (s.text(at: 0), facts, s.int(at: 12))
  }

  /// Wall-clock nanoseconds: which of two files' rows for one path is newer.
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
