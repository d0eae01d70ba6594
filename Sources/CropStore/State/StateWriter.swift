import CropPlan
import CropSupport
import Dispatch
import Foundation

/// A run's connection to its state file: claims the paths it is about to write, records each
/// output after its rename into place and each source it hashed, committing every
/// `batchSize` outputs or every `interval` (one transaction, after one `syncfs` of the
/// outputs it lists, so that the state never records an output a power cut could lose).
/// Those commits run on a queue of their own: a worker that records an output never waits
/// for the `syncfs` (which flushes the whole file system, other programs' writes included).
///
/// The file is opened in WAL mode with an exclusive lock for the whole run: a second run on
/// the same root gets `StateError.locked`. A `kill -9` loses at most the uncommitted batch;
/// its outputs are claimed, so the next run rewrites them (byte-identical) without asking.
package final class StateWriter: @unchecked Sendable {
  /// The state file (`StateFiles.path`).
  package let path: String
  let root: String
  private let connection: SQLiteConnection
  /// Held while the connection is used.
  private let lock = NSLock()
  /// Held while the pending rows are touched (never while waiting for the connection).
  private let pendingLock = NSLock()
  private var pendingOutputs: [Manifest.Entry] = []
  private var pendingSources: [(String, SourceFacts)] = []
  /// The ETags an object store gave the pending outputs' writes (by path).
  private var pendingETags: [(String, String)] = []
  private var lastCommit = DispatchTime.now().uptimeNanoseconds
  /// A commit is queued on `committer` and has not taken the pending rows yet.
  private var commitQueued = false
  private let committer = DispatchQueue(label: "cropjob.state.commit")
  private var failure: StateError?
  /// Whether this writer changed the recorded outputs (recorded, removed or folded any).
  private var changedOutputs = false
  /// How many times this writer changed what the file records (outputs, sources, claims,
  /// ETags, manifests, removals, folds), the run's status apart (`changes`).
  private var revision = 0
  /// The run's status as last recorded (`recordRun`).
  private var currentStatus: String?
  /// The run status the file held when it was opened (`ShardCompleteness.RunStatus`); nil
  /// for a new file or one an earlier cropjob wrote.
  package let statusWhenOpened: String?
  /// The statements of every commit, prepared once; nil once finished (a connection with
  /// statements left is not closed, and keeps its lock).
  private var statements: Statements?

  private struct Statements {
    let insertOutput: SQLiteConnection.Statement
    let insertSource: SQLiteConnection.Statement
    let deleteClaim: SQLiteConnection.Statement
    let deleteRemoved: SQLiteConnection.Statement
    let forgetManifests: SQLiteConnection.Statement
    let insertMeta: SQLiteConnection.Statement
  }

  /// Outputs per transaction, at most (`batchSize` given to `open`, 256 by default).
  package let batchSize: Int
  /// Nanoseconds between commits, at most (while outputs keep coming).
  package static let interval: UInt64 = 1_000_000_000

  /// Opens (creating it and `.cropjob/`) the state file of `shard` in `root`, migrating it
  /// to the current schema. An unsharded run folds the shard files into the main file and
  /// removes them. A root with no state file at all takes the outputs of its JSON manifests
  /// (written by an earlier cropjob, or kept by `--rebuild-state`).
  package static func open(root: String, shard: Shard?, batchSize: Int = 256) throws(StateError) -> StateWriter {
    let path = StateFiles.path(root: root, shard: shard)
    let fresh = StateFiles.readable(root: root, shard: nil).isEmpty
    do throws(AtomicWriter.WriteError) {
      try AtomicWriter.createFolders(PathText.deletingLastComponent(path))
    } catch {
      throw StateError(kind: .io, path: path, detail: error.message)
    }
    return try StateError.mapping(path: path) {
      let connection = try SQLiteConnection(path: path, create: true)
      connection.setBusyTimeout(2_000)
      try connection.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
      try StateSchema.migrate(connection, path: path)
      try connection.transaction {}  // takes the exclusive lock now, or says who holds it
      let writer = try StateWriter(
        path: path, root: root, connection: connection, batchSize: max(1, batchSize),
        status: try recordedStatus(connection))
      if fresh { try writer.importManifests() }
      if (shard?.count ?? 1) == 1 { try writer.foldShardFiles() }
      return writer
    }
  }

  /// The run status the file records, if any. The statement is finalized on return: one
  /// left stepped would hold a read transaction, and the fold's `ATTACH` would fail.
  private static func recordedStatus(_ connection: SQLiteConnection) throws(SQLiteConnection.Failure) -> String? {
    let select = try connection.prepare("SELECT value FROM meta WHERE name = 'run'")
    return try select.next() ? select.text("value") : nil
  }

  private init(path: String, root: String, connection: SQLiteConnection, batchSize: Int, status: String?)
    throws(SQLiteConnection.Failure)
  {
    self.batchSize = batchSize
    statusWhenOpened = status
    currentStatus = status
    self.path = path
    self.root = root
    self.connection = connection
    statements = Statements(
      insertOutput: try connection.prepare(StateRows.insertOutput),
      insertSource: try connection.prepare(StateRows.insertSource),
      deleteClaim: try connection.prepare("DELETE FROM claims WHERE path = ?"),
      deleteRemoved: try connection.prepare("DELETE FROM removed WHERE path = ?"),
      forgetManifests: try connection.prepare("DELETE FROM meta WHERE name LIKE 'manifest:%'"),
      insertMeta: try connection.prepare("INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)"))
  }

  /// Notes that the recorded outputs changed (a fold, an import).
  func markChanged() {
    lock.withLock {
      changedOutputs = true
      revision += 1
    }
  }

  /// How many changes this writer has made to what the file records, the run's status apart:
  /// a state put in an object store is put again only when this (or, at the end, the status)
  /// differs from what was put (`StateUpload`). Grows with each change; read it after
  /// `commitPending` to count what is pending.
  package var changes: Int { lock.withLock { revision } }

  /// The run's status as last recorded, or as the file held it when opened.
  package var status: String? { lock.withLock { currentStatus } }

  /// Runs `body` while holding the connection, as a slow commit would (tests).
  package func holdingConnection(_ body: () -> Void) { lock.withLock(body) }

  /// Runs `body` with the connection, under the lock.
  func withConnection(_ body: (SQLiteConnection) throws -> Void) rethrows {
    try lock.withLock { try body(connection) }
  }

  /// Whether a commit failed (the run should stop: what it writes can no longer be recorded).
  package var failed: Bool { lock.withLock { failure != nil } }

  /// Marks `paths` as cropjob's before anything is written to them (one transaction).
  package func claim(_ paths: [String]) throws(StateError) {
    guard !paths.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    do throws(SQLiteConnection.Failure) {
      let insert = try connection.prepare("INSERT OR IGNORE INTO claims(path) VALUES (?)")
      try connection.transaction { () throws(SQLiteConnection.Failure) in
        for path in paths { try insert.run([.text(path)]) }
      }
      revision += 1
    } catch {
      throw StateError(error, path: path)
    }
  }

  /// Records an output whose file is in place, and the source facts it was made from when
  /// they were freshly read; commits when the batch is full or a second has passed. `etag`:
  /// what an object store said identifies the object written (the guard of its next write,
  /// `StateETags`); nil for a file.
  package func record(_ entry: Manifest.Entry, etag: String? = nil) {
    pendingLock.withLock {
      pendingOutputs.append(entry)
      if let etag { pendingETags.append((entry.path, etag)) }
      queueCommitIfDue()
    }
  }

  /// Up to `limit` entries this file records after the path `after`, in path order (bytes,
  /// as SQLite compares text), as committed: how a run's manifest takes the entries of the
  /// outputs it wrote, a batch at a time, without keeping them in memory.
  package func recordedEntries(after: String, limit: Int) throws(StateError) -> [Manifest.Entry] {
    lock.lock()
    defer { lock.unlock() }
    var entries: [Manifest.Entry] = []
    do throws(SQLiteConnection.Failure) {
      let select = try connection.prepare(
        "SELECT \(StateRows.list(StateRows.outputColumns)) FROM outputs WHERE path > ? ORDER BY path LIMIT ?")
      select.bind([.text(after), .integer(Int64(limit))])
      while try select.next() { entries.append(StateRows.entry(select)) }
    } catch {
      throw StateError(error, path: self.path)
    }
    return entries
  }

  /// Runs `body` on this file's connection, under the lock: how a `StateReader` reads the
  /// file this writer holds locked for the whole run. Sees what is committed.
  func read(_ body: (SQLiteConnection) throws(SQLiteConnection.Failure) -> Void) throws(StateError) {
    lock.lock()
    defer { lock.unlock() }
    do throws(SQLiteConnection.Failure) {
      try body(connection)
    } catch {
      throw StateError(error, path: path)
    }
  }

  /// Records what a source is (by absolute path), after hashing it.
  package func recordSource(path: String, facts: SourceFacts) {
    pendingLock.withLock {
      pendingSources.append((path, facts))
      queueCommitIfDue()
    }
  }

  /// Forgets outputs (pruned, or gone from the disk), leaving tombstones for the fold.
  package func remove(_ paths: [String]) {
    guard !paths.isEmpty else { return }
    lock.withLock {
      guard failure == nil else { return }
      do {
        let delete = try connection.prepare("DELETE FROM outputs WHERE path = ?")
        let tombstone = try connection.prepare("INSERT OR REPLACE INTO removed(path, recorded_ns) VALUES (?, ?)")
        let forgetETag = try connection.prepare("DELETE FROM meta WHERE name = ?")
        let now = StateRows.now()
        changedOutputs = true
        revision += 1
        try connection.transaction { () throws(SQLiteConnection.Failure) in
          try statements?.forgetManifests.run([])
          for path in paths {
            try delete.run([.text(path)])
            try tombstone.run([.text(path), .integer(now)])
            try forgetETag.run([.text(StateETags.prefix + path)])
          }
        }
      } catch {
        failure = StateError(kind: .io, path: path, detail: "cannot record removed outputs: \(error)")
      }
    }
  }

  /// Whether this run changed the recorded outputs, or the manifest `name` is not the one
  /// last written for them (`identity`: `manifestIdentity`): then it must be written again.
  package func manifestIsStale(_ name: String, identity: String?) -> Bool {
    lock.withLock {
      guard !changedOutputs, let identity,
        let statements = try? connection.prepare(
          "SELECT value FROM meta WHERE name = ?")
      else { return true }
      statements.bind([.text("manifest:" + name)])
      guard (try? statements.next()) == true else { return true }
      return statements.text("value") != identity
    }
  }

  /// Records that the manifest `name` now describes the recorded outputs.
  package func recordManifest(_ name: String, identity: String?) {
    guard let identity else { return }
    lock.withLock {
      guard failure == nil,
        let insert = try? connection.prepare("INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)")
      else { return }
      try? insert.run([.text("manifest:" + name), .text(identity)])
      revision += 1
    }
  }

  /// What identifies a written manifest: its size, mtime and inode, and the versions in its
  /// header (a new cropjob rewrites it).
  package static func manifestIdentity(path: String, header: String) -> String? {
    FileIdentity.of(path: path).map { "\($0.size):\($0.mtime):\($0.inode):\(header)" }
  }

  /// Records how this run stands (`ShardCompleteness.RunStatus`), at once: `running` when
  /// it opens, then how it ended, so that a merge can tell a shard that did not finish.
  package func recordRun(_ status: String) {
    lock.withLock {
      guard failure == nil,
        let insert = try? connection.prepare("INSERT OR REPLACE INTO meta(name, value) VALUES ('run', ?)")
      else { return }
      try? insert.run([.text(status)])
      currentStatus = status
    }
  }

  /// Commits what is pending, keeping the file open; the first failure of the run, if any.
  package func commitPending() -> StateError? {
    lock.withLock {
      commit()
      return failure
    }
  }

  /// Commits what is pending and closes the file; the first failure of the run, if any.
  package func finish() -> StateError? {
    committer.sync {}
    return lock.withLock {
      commit()
      statements = nil
      connection.close()
      return failure
    }
  }

  /// Queues a commit when the batch is full or `interval` has passed (`pendingLock` held).
  private func queueCommitIfDue() {
    let due = DispatchTime.now().uptimeNanoseconds - lastCommit >= Self.interval
    guard !commitQueued, pendingOutputs.count >= batchSize || due else { return }
    commitQueued = true
    committer.async { self.lock.withLock { self.commit() } }
  }

  /// One transaction for the pending rows (`lock` held). A failure (disk full, I/O error) is
  /// kept and ends the recording; the outputs already committed stay recorded.
  private func commit() {
    let (outputs, sources, etags) = pendingLock.withLock {
      lastCommit = DispatchTime.now().uptimeNanoseconds
      commitQueued = false
      defer {
        pendingOutputs = []
        pendingSources = []
        pendingETags = []
      }
      return (pendingOutputs, pendingSources, pendingETags)
    }
    guard failure == nil, let statements, !outputs.isEmpty || !sources.isEmpty else { return }
    do {
      if !outputs.isEmpty { try AtomicWriter.syncFileSystem(containing: root) }
    } catch {
      failure = StateError(kind: .io, path: path, detail: "cannot record outputs: \(error.message)")
      return
    }
    let now = StateRows.now()
    revision += 1
    do {
      if !outputs.isEmpty { changedOutputs = true }
      try connection.transaction { () throws(SQLiteConnection.Failure) in
        if !outputs.isEmpty { try statements.forgetManifests.run([]) }
        for entry in outputs {
          try statements.insertOutput.run(StateRows.values(entry, recorded: now))
          try statements.deleteClaim.run([.text(entry.path)])
          try statements.deleteRemoved.run([.text(entry.path)])
        }
        for (path, facts) in sources {
          try statements.insertSource.run(StateRows.values(path: path, facts, recorded: now))
        }
        for (path, etag) in etags { try statements.insertMeta.run([.text(StateETags.prefix + path), .text(etag)]) }
      }
    } catch {
      failure = StateError(kind: .io, path: path, detail: "cannot record outputs: \(error)")
    }
  }
}
