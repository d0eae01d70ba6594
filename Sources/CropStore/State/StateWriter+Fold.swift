import Foundation

/// What a writer takes in when it opens: shard files (an unsharded run folds them into the
/// main file) and the JSON manifests of a root that has no state file yet.
extension StateWriter {
  /// Folds every shard file into this (main) file, newest row per path winning, then removes
  /// them. A kill after the commit and before the removal only folds the same rows again.
  func foldShardFiles() throws {
    for file in StateFiles.shardFiles(root: root) {
      try withConnection { connection in
        try connection.execute("ATTACH DATABASE '\(file.path.replacing("'", with: "''"))' AS shard")
        defer { try? connection.execute("DETACH DATABASE shard") }
        let version = try StateSchema.userVersion(connection, schema: "shard", path: file.path)
        guard version <= StateSchema.version else {
          throw StateError(kind: .newer(version: version), path: file.path, detail: "")
        }
        guard version >= 1 else { return }
        // A version 1 shard file has no ctime or device: 0, as the migration gives.
        let sourceRows = version == 1 ? "s.*, 0, 0" : "s.*"
        // Before version 3 a shard file has no placeholders, before 4 no ssim: NULL, as the
        // migrations give.
        let outputRows = version < 3 ? "s.*, NULL, NULL" : version < 4 ? "s.*, NULL" : "s.*"
        do throws(SQLiteConnection.Failure) {
          try connection.transaction { () throws(SQLiteConnection.Failure) in
            try connection.execute(
              """
              INSERT OR REPLACE INTO main.outputs SELECT \(outputRows) FROM shard.outputs s
                LEFT JOIN main.outputs m ON m.path = s.path WHERE m.path IS NULL OR s.recorded_ns >= m.recorded_ns;
              INSERT OR REPLACE INTO main.sources SELECT \(sourceRows) FROM shard.sources s
                LEFT JOIN main.sources m ON m.path = s.path WHERE m.path IS NULL OR s.recorded_ns >= m.recorded_ns;
              INSERT OR REPLACE INTO main.removed SELECT s.* FROM shard.removed s
                LEFT JOIN main.removed m ON m.path = s.path WHERE m.path IS NULL OR s.recorded_ns > m.recorded_ns;
              DELETE FROM main.outputs WHERE EXISTS (SELECT 1 FROM main.removed r
                WHERE r.path = outputs.path AND r.recorded_ns > outputs.recorded_ns);
              INSERT OR IGNORE INTO main.claims SELECT path FROM shard.claims;
              INSERT OR REPLACE INTO main.meta SELECT name, value FROM shard.meta WHERE name LIKE 'etag:%';
              DELETE FROM main.meta WHERE name LIKE 'manifest:%';
              """)
          }
        } catch {
          // A damaged shard file is named as such, not as the main file.
          throw StateError(error, path: file.path)
        }
      }
      StateFiles.remove(file.path)
      markChanged()
    }
  }

  /// Records the outputs of the JSON manifests in `root` (as of an earlier cropjob), older
  /// than anything recorded later.
  func importManifests() throws {
    let entries = Manifest.loadManifests(root: root)
    guard !entries.isEmpty else { return }
    try withConnection { connection in
      let insert = try connection.prepare(StateRows.insertOutput)
      try connection.transaction { () throws(SQLiteConnection.Failure) in
        for entry in entries.values { try insert.run(StateRows.values(entry, recorded: 0)) }
      }
    }
    markChanged()
  }
}
