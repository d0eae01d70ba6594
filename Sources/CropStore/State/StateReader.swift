import CropPlan
import Foundation

/// The state of an output root, read a window at a time (docs/scale.md, "The state by
/// window"): what a window needs — the recorded outputs at its output paths, the facts of
/// its sources, the claims and removals of those paths — is looked up by primary key in
/// each readable file (`StateFiles.readable`), newest row per path winning and removals
/// applied (`Merge`). Memory holds one window's rows, never every recorded output (unless
/// `StateQuery.all` asks for them).
///
/// Each file is opened for one lookup and closed again (readers lock a file while they read
/// it, and the shards of a run read the main file at the same time), except the run's own
/// file once its `StateWriter` holds it (`readThrough`): that one is read through the
/// writer's connection. A root with no state file but JSON manifests of an earlier cropjob
/// is read whole (`Manifest.loadManifests`), as before the state database: this is the one
/// place reads take them in. A state given whole (`init(whole:)`) is read the same way.
package final class StateReader: @unchecked Sendable {
  /// Paths per lookup statement (a window's outputs may be more).
  package static let batch = 4096

  package let root: String
  package let shard: Shard?
  /// Whether any file records an output (or the whole state holds one), as opened: a plan
  /// over an output root without recorded outputs has nothing up to date.
  package let recordsOutputs: Bool
  /// `run --verify-sources`: the recorded sources are not looked up, so that every source's
  /// header is read and its content hashed again (outputs rebuilt only where it changed).
  package let verifySources: Bool
  /// The state held whole: JSON manifests only, or given.
  let whole: StateView<Manifest.Entry>?
  let lock = NSLock()
  private(set) var files: [String]
  private var writer: StateWriter?
  private var kept: StateError?

  private init(
    root: String, shard: Shard?, whole: StateView<Manifest.Entry>?, files: [String], recordsOutputs: Bool,
    verifySources: Bool = false
  ) {
    self.verifySources = verifySources
    self.root = root
    self.shard = shard
    self.whole = whole
    self.files = files
    self.recordsOutputs = recordsOutputs
  }

  /// A reader of `whole`, a state held in memory (a library caller's, or a test's).
  package convenience init(whole: StateView<Manifest.Entry>) {
    self.init(root: "", shard: nil, whole: whole, files: [], recordsOutputs: !whole.outputs.isEmpty)
  }

  /// The state of `root` as a run of `shard` sees it. Each file is opened once now (a
  /// damaged, newer or locked file is an error here, before any planning); without any
  /// state file, the JSON manifests of an earlier cropjob (or those `--rebuild-state` kept)
  /// are read, whole.
  /// With `verifySources`, the state's record of the sources is not used (`verifySources`).
  package static func open(root: String, shard: Shard? = nil, verifySources: Bool = false) throws(StateError)
    -> StateReader
  {
    let files = StateFiles.readable(root: root, shard: shard)
    guard !files.isEmpty else {
      var whole = StateView<Manifest.Entry>()
      whole.outputs = Manifest.loadManifests(root: root)
      return StateReader(
        root: root, shard: shard, whole: whole, files: [], recordsOutputs: !whole.outputs.isEmpty,
        verifySources: verifySources)
    }
    var records = false
    for file in files {
      try readFile(file) { (connection) throws(SQLiteConnection.Failure) in
        // Reads the schema and each table's first page: a damaged file is found now.
        for table in ["outputs", "sources", "claims", "removed"] {
          let first = try connection.prepare("SELECT 1 FROM \(table) LIMIT 1")
          if try first.next(), table == "outputs" { records = true }
        }
      }
    }
    return StateReader(
      root: root, shard: shard, whole: nil, files: files, recordsOutputs: records, verifySources: verifySources)
  }

  /// From now on the run's own file is read through `writer` (which holds its lock for the
  /// whole run), the others as before. The files are listed again: an unsharded run's
  /// writer has folded the shard files into the main file, and a first run's has created it.
  package func readThrough(_ writer: StateWriter) {
    lock.withLock {
      guard whole == nil else { return }
      self.writer = writer
      files = StateFiles.readable(root: root, shard: shard)
      if !files.contains(writer.path) { files.insert(writer.path, at: 0) }
    }
  }

  /// The first failure of the reads that keep it (`readKeeping`), if any.
  package var failure: StateError? { lock.withLock { kept } }

  /// What the state records for `query`: its outputs as `rows` keeps them, its sources
  /// (none with `verifySources`) and the claims among its outputs.
  package func read<Output>(_ rows: RecordedRows<Output>, _ query: StateQuery) throws(StateError)
    -> StateView<Output>
  {
    lock.lock()
    defer { lock.unlock() }
    // A path given twice is looked up twice, merged to the same answer (`Merge`).
    let outputs = query.outputs
    let sources = verifySources ? [] : query.sources
    if let whole {
      guard !query.all else { return Self.project(whole, rows, sources: !verifySources) }
      return Self.restrict(whole, rows, outputs: outputs, sources: sources)
    }
    var merge = Merge(rows)
    guard query.all || !outputs.isEmpty || !sources.isEmpty else { return merge.merged() }
    for file in files {
      try read(file) { (connection) throws(SQLiteConnection.Failure) in
        if query.all {
          try merge.scan(sources: !verifySources, in: connection)
        } else {
          try merge.lookUp(outputs: outputs, sources: sources, in: connection)
        }
      }
    }
    return merge.merged()
  }

  /// `read`, for callers that cannot throw (a window's closure): a failure is kept
  /// (`failure`) and the answer is an empty view.
  package func readKeeping<Output>(_ rows: RecordedRows<Output>, _ query: StateQuery) -> StateView<Output> {
    do {
      return try read(rows, query)
    } catch {
      lock.withLock { if kept == nil { kept = error } }
      return StateView()
    }
  }

  /// Every recorded output path of every file, file by file, each in path order, a batch at
  /// a time (a file is not held between batches). A path recorded in several files comes
  /// once per file, and a removed one may come: `read` says what the state records of it.
  package func forEachRecordedPath(_ body: (String) -> Void) throws(StateError) {
    if let whole {
      for path in whole.outputs.keys { body(path) }
      return
    }
    for file in lock.withLock({ files }) {
      var after = ""
      while true {
        var paths: [String] = []
        lock.lock()
        defer { lock.unlock() }
        try read(file) { (connection) throws(SQLiteConnection.Failure) in
          let select = try connection.prepare("SELECT path FROM outputs WHERE path > ? ORDER BY path LIMIT ?")
          select.bind([.text(after), .integer(Int64(Self.batch))])
          while try select.next() { paths.append(select.text("path")) }
        }
        for path in paths { body(path) }
        guard paths.count == Self.batch, let last = paths.last else { break }
        after = last
      }
    }
  }

  /// Runs `body` on `file`: through the writer for its own file, else opened for this alone
  /// (the caller holds `lock`).
  func read(_ file: String, _ body: (SQLiteConnection) throws(SQLiteConnection.Failure) -> Void)
    throws(StateError)
  {
    if let writer, file == writer.path {
      try writer.read(body)
    } else {
      try Self.readFile(file, body)
    }
  }

  /// Opens `path` for reading (waiting a little for a writer's lock), checks its version and
  /// runs `body` in one read transaction; every failure is a `StateError` naming the file.
  static func readFile(_ path: String, _ body: (SQLiteConnection) throws(SQLiteConnection.Failure) -> Void)
    throws(StateError)
  {
    try StateError.mapping(path: path) {
      let connection: SQLiteConnection
      do {
        connection = try SQLiteConnection(path: path, create: false)
      } catch {
        connection = try SQLiteConnection(path: path, create: false, readOnly: true)
      }
      defer { connection.close() }
      connection.setBusyTimeout(2_000)
      // The WAL index in memory rather than in a `-shm` file: no file to create (a full disk,
      // a read-only or network file system), at the cost of one reader at a time.
      try connection.execute("PRAGMA locking_mode = EXCLUSIVE")
      let version = try StateSchema.userVersion(connection, path: path)
      guard version <= StateSchema.version else {
        throw StateError(kind: .newer(version: version), path: path, detail: "")
      }
      guard version >= 1 else { return }  // empty (a run created it, then was killed)
      try StateSchema.readAsCurrent(connection, version: version)
      try connection.transaction(immediate: false) { () throws(SQLiteConnection.Failure) in try body(connection) }
    }
  }

  /// A state held whole, as `rows` keeps it (with its sources when `sources`).
  static func project<Output>(_ whole: StateView<Manifest.Entry>, _ rows: RecordedRows<Output>, sources: Bool)
    -> StateView<Output>
  {
    var result = StateView<Output>()
    result.outputs = whole.outputs.mapValues(rows.project)
    result.claims = whole.claims
    if sources { result.sources = whole.sources }
    return result
  }

  /// The part of a state held whole about `outputs` and `sources`, as `rows` keeps it.
  static func restrict<Output>(
    _ whole: StateView<Manifest.Entry>, _ rows: RecordedRows<Output>, outputs: [String], sources: [String]
  ) -> StateView<Output> {
    var result = StateView<Output>()
    for path in outputs {
      if let entry = whole.outputs[path] { result.outputs[path] = rows.project(entry) }
      if whole.claims.contains(path) { result.claims.insert(path) }
    }
    for path in sources { if let facts = whole.sources[path] { result.sources[path] = facts } }
    return result
  }
}
