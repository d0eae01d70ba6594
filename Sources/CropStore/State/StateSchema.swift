/// The state database's tables, versioned with `PRAGMA user_version`: a database of an
/// older version is migrated one step at a time (one function per step, each in a
/// transaction with the version it leads to); a newer one is refused (`StateError.newer`).
enum StateSchema {
  /// The version this cropjob writes.
  static let version = 5

  /// Migrates version `from` to `from + 1`: one function per step.
  static func step(from: Int, _ connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
    switch from {
    case 0: try createVersion1(connection)
    case 1: try addVersion2(connection)
    case 2: try addVersion3(connection)
    case 3: try addVersion4(connection)
    case 4: try addVersion5(connection)
    default: preconditionFailure("no migration from state schema version \(from)")
    }
  }

  /// Migrates `connection`'s main database to `version`; throws `StateError` for a newer one.
  static func migrate(_ connection: SQLiteConnection, path: String) throws(StateError) {
    let current = try userVersion(connection, path: path)
    guard current <= version else { throw StateError(kind: .newer(version: current), path: path, detail: "") }
    do {
      for step in current..<version {
        try connection.transaction { () throws(SQLiteConnection.Failure) in
          try Self.step(from: step, connection)
          try connection.execute("PRAGMA user_version = \(step + 1)")
        }
      }
    } catch {
      throw StateError(error, path: path)
    }
  }

  /// The schema version of `schema` ("main", or an attached database).
  static func userVersion(_ connection: SQLiteConnection, schema: String = "main", path: String) throws(StateError)
    -> Int
  {
    do {
      let statement = try connection.prepare("PRAGMA \(schema).user_version")
      guard try statement.next() else { return 0 }
      return Int(statement.int("user_version"))
    } catch {
      throw StateError(error, path: path)
    }
  }

  /// Version 1: sources with their identity, hash and header facts; outputs with what the
  /// manifest records; claims (paths a run is about to write: cropjob's own even before they
  /// are recorded); removed (tombstones, so that a shard's deletion survives the fold); meta
  /// (`manifest:<name>`: the identity of the JSON manifest written after the last change of
  /// the outputs, so that a run that changed nothing need not write it again).
  /// `recorded_ns` (wall clock) decides which file's row wins when files are merged.
  static func createVersion1(_ connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
    try connection.execute(
      """
      CREATE TABLE sources(
        path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, inode INTEGER NOT NULL,
        sha256 TEXT, format TEXT NOT NULL, stored_width INTEGER NOT NULL, stored_height INTEGER NOT NULL,
        orientation INTEGER NOT NULL, bands INTEGER NOT NULL, alpha INTEGER NOT NULL, pages INTEGER NOT NULL,
        recorded_ns INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE outputs(
        path TEXT PRIMARY KEY, job TEXT NOT NULL, key TEXT NOT NULL, bytes INTEGER NOT NULL,
        width INTEGER NOT NULL, height INTEGER NOT NULL, sha256 TEXT NOT NULL, format TEXT NOT NULL,
        quality INTEGER NOT NULL, encodes INTEGER NOT NULL, source_path TEXT NOT NULL, source_sha256 TEXT NOT NULL,
        source_bytes INTEGER NOT NULL, source_mtime_ns INTEGER NOT NULL, crop_x REAL NOT NULL, crop_y REAL NOT NULL,
        crop_width REAL NOT NULL, crop_height REAL NOT NULL, scale REAL NOT NULL, angle REAL NOT NULL,
        centre_x REAL NOT NULL, centre_y REAL NOT NULL, smart_focus TEXT, flip TEXT, notes TEXT,
        recorded_ns INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE claims(path TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE TABLE removed(path TEXT PRIMARY KEY, recorded_ns INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      """)
  }

  /// Version 2: each source's status change time and device, so that a rewrite whose mtime
  /// was restored (`touch -r`) is seen (as git's index does). A version 1 row has 0 in both:
  /// its source is hashed once more, and rebuilt only if its content changed.
  static func addVersion2(_ connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
    try connection.execute(
      """
      ALTER TABLE sources ADD COLUMN ctime_ns INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sources ADD COLUMN device INTEGER NOT NULL DEFAULT 0;
      """)
  }

  /// Version 3: each output's placeholders (`placeholders:`), the JSON of
  /// `PlaceholderValues`; NULL when none was asked for (as every earlier row).
  static func addVersion3(_ connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
    try connection.execute("ALTER TABLE outputs ADD COLUMN placeholders TEXT")
  }

  /// Version 4: each output's score against its own pixels with `encode.target` (`ssim`);
  /// NULL without a target (as every earlier row).
  static func addVersion4(_ connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
    try connection.execute("ALTER TABLE outputs ADD COLUMN ssim REAL")
  }

  /// Version 5: the frames of an animated output (`encode.frames: all`); NULL for a still
  /// one (as every earlier row).
  static func addVersion5(_ connection: SQLiteConnection) throws(SQLiteConnection.Failure) {
    try connection.execute("ALTER TABLE outputs ADD COLUMN frames INTEGER")
  }

  /// For a reader of an older file (not migrated: readers never write): temporary views
  /// `sources` (version 1: with the version 2 columns, 0 for the unknown ones) and `outputs`
  /// (before version 3: with a NULL `placeholders`; before version 4: with a NULL `ssim`;
  /// before version 5: with a NULL `frames`),
  /// found before the file's own tables by every unqualified query of this connection.
  static func readAsCurrent(_ connection: SQLiteConnection, version: Int) throws(SQLiteConnection.Failure) {
    if version == 1 {
      try connection.execute(
        "CREATE TEMP VIEW sources AS SELECT *, 0 AS ctime_ns, 0 AS device FROM main.sources")
    }
    if version < 5 {
      // The columns each later version added.
      let added = [(3, "placeholders"), (4, "ssim"), (5, "frames")].filter { version < $0.0 }.map { "NULL AS \($0.1)" }
      try connection.execute("CREATE TEMP VIEW outputs AS SELECT *, \(added.joined(separator: ", ")) FROM main.outputs")
    }
  }

  /// The output columns of `StateRows.outputColumns` as a select list over a file of
  /// `version` (`schema.` before each column; NULL for a column the version has not).
  static func outputSelect(version: Int, schema: String? = nil) -> String {
    StateRows.outputColumns.map { column in
      if column == "placeholders" && version < 3 { return "NULL AS placeholders" }
      if column == "ssim" && version < 4 { return "NULL AS ssim" }
      if column == "frames" && version < 5 { return "NULL AS frames" }
      return schema.map { "\($0).\(column)" } ?? column
    }.joined(separator: ", ")
  }
}
