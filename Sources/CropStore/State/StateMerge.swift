import Foundation

extension StateReader {
  /// The rows of several files merged into one `StateView`: the newest row per path (the
  /// later file on a tie), removals newer than it applied, claims of any file. Fed by keyed
  /// lookups (`lookUp`) or by whole tables (`scan`), file after file, the same way.
  struct Merge<Output: Sendable> {
    let rows: RecordedRows<Output>
    private var view = StateView<Output>()
    private var outputTimes: [String: Int64] = [:]
    private var sourceTimes: [String: Int64] = [:]
    private var removals: [String: Int64] = [:]

    init(_ rows: RecordedRows<Output>) { self.rows = rows }

    /// The `outputs` columns read: the projection's, the path and the time.
    private var outputColumns: [String] {
      rows.columns + ["path", "recorded_ns"].filter { !rows.columns.contains($0) }
    }

    /// Looks the outputs at `outputs` and the sources at `sources` up by primary key in one
    /// file (its `main` schema), `StateReader.batch` paths per statement.
    mutating func lookUp(outputs paths: [String], sources: [String], in connection: SQLiteConnection)
      throws(SQLiteConnection.Failure)
    {
      if !paths.isEmpty {
        // Most paths asked about are recorded (a re-run): room for them all, not grown row by row.
        outputTimes.reserveCapacity(outputTimes.count + paths.count)
        view.outputs.reserveCapacity(view.outputs.count + paths.count)
        let select = try connection.prepare(
          """
          SELECT \(StateRows.list(outputColumns, table: "o")), j.value AS wanted, r.recorded_ns AS removed_ns,
            c.path IS NOT NULL AS claimed
          FROM json_each(?) j LEFT JOIN outputs o ON o.path = j.value LEFT JOIN removed r ON r.path = j.value
            LEFT JOIN claims c ON c.path = j.value
          WHERE o.path IS NOT NULL OR r.path IS NOT NULL OR c.path IS NOT NULL
          """)
        // The columns read for every row, looked up by name once.
        let (wanted, found, removed, claimed, recorded) = (
          select.column("wanted"), select.column("path"), select.column("removed_ns"), select.column("claimed"),
          select.column("recorded_ns")
        )
        for start in stride(from: 0, to: paths.count, by: StateReader.batch) {
          select.bind([.text(StateReader.jsonArray(paths[start..<min(paths.count, start + StateReader.batch)]))])
          while try select.next() {
            let path = select.text(at: wanted)
            if !select.isNull(at: found) { output(path, select, time: select.int(at: recorded)) }
            if !select.isNull(at: removed) { removal(path, time: select.int(at: removed)) }
            if select.int(at: claimed) != 0 { view.claims.insert(path) }
          }
        }
      }
      if !sources.isEmpty {
        sourceTimes.reserveCapacity(sourceTimes.count + sources.count)
        view.sources.reserveCapacity(view.sources.count + sources.count)
        // CROSS JOIN: the paths drive the lookups (never a scan of every source).
        let select = try connection.prepare(
          "SELECT \(StateRows.list(StateRows.sourceColumns, table: "s")) FROM json_each(?) j CROSS JOIN sources s ON s.path = j.value"
        )
        for start in stride(from: 0, to: sources.count, by: StateReader.batch) {
          select.bind([.text(StateReader.jsonArray(sources[start..<min(sources.count, start + StateReader.batch)]))])
          while try select.next() { source(select) }
        }
      }
    }

    /// Every row of one file (its `main` schema); `sources`: the sources' rows too.
    mutating func scan(sources: Bool, in connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
      let outputs = try connection.prepare("SELECT \(StateRows.list(outputColumns)) FROM outputs")
      while try outputs.next() { output(outputs.text("path"), outputs, time: outputs.int("recorded_ns")) }
      if sources {
        let select = try connection.prepare("SELECT \(StateRows.list(StateRows.sourceColumns)) FROM sources")
        while try select.next() { source(select) }
      }
      let claims = try connection.prepare("SELECT path FROM claims")
      while try claims.next() { view.claims.insert(claims.text("path")) }
      let removed = try connection.prepare("SELECT path, recorded_ns FROM removed")
      while try removed.next() { removal(removed.text("path"), time: removed.int("recorded_ns")) }
    }

    /// The output row at `path` recorded at `time`, kept if it is the newest so far.
    private mutating func output(_ path: String, _ row: SQLiteConnection.Statement, time: Int64) {
      if time >= outputTimes[path] ?? .min {
        outputTimes[path] = time
        view.outputs[path] = rows.decode(row)
      }
    }

    private mutating func removal(_ path: String, time: Int64) {
      removals[path] = max(removals[path] ?? .min, time)
    }

    private mutating func source(_ row: SQLiteConnection.Statement) {
      guard let (path, facts, time) = StateRows.source(row) else { return }
      if time >= sourceTimes[path] ?? .min {
        sourceTimes[path] = time
        view.sources[path] = facts
      }
    }

    /// The merged view, removals applied.
    func merged() -> StateView<Output> {
      var result = view
      for (path, time) in removals where time > outputTimes[path] ?? .max {
        result.outputs[path] = nil
      }
      return result
    }
  }

  /// `strings` as a JSON array (for `json_each`).
  package static func jsonArray(_ strings: ArraySlice<String>) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    let hex = Array("0123456789abcdef".utf8)
    for (n, string) in strings.enumerated() {
      if n > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      var string = string
      string.withUTF8 { utf8 in
        // A path needs no escape as a rule: its bytes go in at once.
        guard utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else {
          bytes.append(contentsOf: utf8)
          return
        }
        for byte in utf8 {
          switch byte {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
          case 0..<0x20: bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
          default: bytes.append(byte)
          }
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(UInt8(ascii: "]"))
    return String(decoding: bytes, as: UTF8.self)
  }
}
