import CropGeometry
import CropPlan
import Foundation

/// The columns of the state's tables, and the rows to and from `Manifest.Entry` and
/// `SourceFacts`: one place that knows the column order.
enum StateRows {
  static let outputColumns =
    "path, job, key, bytes, width, height, sha256, format, quality, encodes, source_path, source_sha256, source_bytes, source_mtime_ns, crop_x, crop_y, crop_width, crop_height, scale, angle, centre_x, centre_y, smart_focus, flip, notes, recorded_ns"
  static let sourceColumns =
    "path, size, mtime_ns, inode, sha256, format, stored_width, stored_height, orientation, bands, alpha, pages, recorded_ns, ctime_ns, device"

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
      g.flip.map { .text($0) } ?? .null, notes, .integer(recorded),
    ]
  }

  /// The entry in the current row of a `SELECT outputColumns` statement.
  static func entry(_ s: SQLiteConnection.Statement) -> Manifest.Entry {
    let notes: [String] =
      s.isNull(24) ? [] : (try? JSONDecoder().decode([String].self, from: Data(s.text(24).utf8))) ?? []
    let focus = s.isNull(22) ? nil : smartFocus(s.text(22))
    return Manifest.Entry(
      path: s.text(0), job: s.text(1), key: s.text(2), bytes: Int(s.int(3)), width: Int(s.int(4)),
      height: Int(s.int(5)), sha256: s.text(6), format: s.text(7), quality: Int(s.int(8)), encodes: Int(s.int(9)),
      source: Manifest.SourceRecord(path: s.text(10), sha256: s.text(11), bytes: Int(s.int(12)), mtime: s.int(13)),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: s.double(14), y: s.double(15), width: s.double(16), height: s.double(17)), scale: s.double(18),
        angle: s.double(19), centre: Point(x: s.double(20), y: s.double(21)),
        smartFocus: focus?.0, flip: s.isNull(23) ? nil : s.text(23), notes: notes, found: focus?.1))
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

  /// The source in the current row of a `SELECT sourceColumns` statement (nil for a format
  /// this cropjob does not know).
  static func source(_ s: SQLiteConnection.Statement) -> (path: String, facts: SourceFacts)? {
    guard let format = InputFormat(rawValue: s.text(5)) else { return nil }
    let header = SourceHeader(
      format: format, storedWidth: Int(s.int(6)), storedHeight: Int(s.int(7)), orientation: Int(s.int(8)),
      bands: Int(s.int(9)), hasAlpha: s.int(10) != 0, pages: Int(s.int(11)))
    let identity = FileIdentity(
      size: s.int(1), mtime: s.int(2), inode: UInt64(bitPattern: s.int(3)), ctime: s.int(13),
      device: UInt64(bitPattern: s.int(14)))
    return (s.text(0), SourceFacts(identity: identity, sha256: s.isNull(4) ? nil : s.text(4), header: header))
  }

  /// Wall-clock nanoseconds: which of two files' rows for one path is newer.
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
