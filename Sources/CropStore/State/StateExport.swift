import Foundation

/// `cropjob manifest`: every output the state records, sorted by path, streamed from the
/// database into a `ManifestStream` (one row in memory at a time; SQLite sorts, spilling to
/// a temporary file when the rows of several files must be merged).
package enum StateExport {
  /// Streams `root`'s recorded outputs (main file and every shard file: newest row per path,
  /// removals applied) to `stream`; a root without a state file streams its JSON manifests.
  package static func export(root: String, into stream: inout ManifestStream) throws(StateError) {
    let files = StateFiles.readable(root: root, shard: nil)
    guard !files.isEmpty else {
      // No state file: the reader holds an earlier cropjob's JSON manifests.
      let outputs = try StateReader.open(root: root).read(.entries, .all).outputs
      for (_, entry) in outputs.sorted(by: { $0.key < $1.key }) { stream.append(entry) }
      stream.finish()
      return
    }
    var current = files[0]
    try StateError.mapping(path: current) {
      let connection = try SQLiteConnection(path: ":memory:", create: true)
      defer { connection.close() }
      connection.setBusyTimeout(2_000)
      try connection.execute("PRAGMA locking_mode = EXCLUSIVE")
      var schemas: [String] = []
      var versions: [String: Int] = [:]
      for (index, file) in files.enumerated() {
        current = file
        try connection.execute("ATTACH DATABASE '\(file.replacing("'", with: "''"))' AS f\(index)")
        let version = try StateSchema.userVersion(connection, schema: "f\(index)", path: file)
        guard version <= StateSchema.version else {
          throw StateError(kind: .newer(version: version), path: file, detail: "")
        }
        if version >= 1 {
          schemas.append("f\(index)")
          versions["f\(index)"] = version
        }
      }
      current = files[0]
      guard !schemas.isEmpty else { return stream.finish() }
      let columns = StateRows.list(StateRows.outputColumns)
      func select(_ schema: String) -> String {
        "SELECT \(StateSchema.outputSelect(version: versions[schema] ?? StateSchema.version)) FROM \(schema).outputs"
      }
      let outputs = schemas.map(select).joined(separator: " UNION ALL ")
      let removed = schemas.map { "SELECT path, recorded_ns FROM \($0).removed" }.joined(separator: " UNION ALL ")
      let query =
        schemas.count == 1
        ? "\(select(schemas[0])) ORDER BY path"
        : """
        WITH everything AS (\(outputs)), gone AS (\(removed)),
          ranked AS (SELECT *, row_number() OVER (PARTITION BY path ORDER BY recorded_ns DESC) AS rank FROM everything)
        SELECT \(columns) FROM ranked r WHERE rank = 1
          AND NOT EXISTS (SELECT 1 FROM gone g WHERE g.path = r.path AND g.recorded_ns > r.recorded_ns)
        ORDER BY path
        """
      let rows = try connection.prepare(query)
      while try rows.next() { stream.append(StateRows.entry(rows)) }
      stream.finish()
    }
  }
}
