import CropPlan
import Foundation

/// What the state database says at the start of a run or plan: every recorded output, every
/// source's identity, hash and header, and the paths claimed by runs that may have been killed
/// before recording them. Read from the main file and the shard files a run may read
/// (`StateFiles.readable`), newest row per path winning; read-only.
public struct StateSnapshot: Sendable {
  /// Recorded outputs by path relative to the output root.
  public var outputs: [String: Manifest.Entry] = [:]
  /// Recorded sources by absolute path.
  public var sources: [String: SourceFacts] = [:]
  /// Paths a run claimed before writing them (cropjob's, though perhaps not recorded).
  public var claims: Set<String> = []

  public init() {}

  /// Whether the file at `path` (relative to the root) is cropjob's: recorded or claimed.
  public func isOwn(_ path: String) -> Bool { outputs[path] != nil || claims.contains(path) }

  /// The state of `root` as a run of `shard` sees it. Without any state file, the JSON
  /// manifests of an earlier cropjob (or those `--rebuild-state` kept) are read instead.
  public static func load(root: String, shard: Shard? = nil) throws(StateError) -> StateSnapshot {
    let files = StateFiles.readable(root: root, shard: shard)
    var snapshot = StateSnapshot()
    guard !files.isEmpty else {
      snapshot.outputs = Manifest.loadManifests(root: root)
      return snapshot
    }
    var outputTimes: [String: Int64] = [:]
    var sourceTimes: [String: Int64] = [:]
    var removals: [String: Int64] = [:]
    for path in files {
      try read(path) { (connection) throws(SQLiteConnection.Failure) in
        let outputs = try connection.prepare("SELECT \(StateRows.outputColumns) FROM outputs")
        while try outputs.next() {
          let entry = StateRows.entry(outputs)
          let time = outputs.int(25)
          if time >= outputTimes[entry.path] ?? .min {
            outputTimes[entry.path] = time
            snapshot.outputs[entry.path] = entry
          }
        }
        let sources = try connection.prepare("SELECT \(StateRows.sourceColumns) FROM sources")
        while try sources.next() {
          guard let (path, facts) = StateRows.source(sources) else { continue }
          let time = sources.int(12)
          if time >= sourceTimes[path] ?? .min {
            sourceTimes[path] = time
            snapshot.sources[path] = facts
          }
        }
        let claims = try connection.prepare("SELECT path FROM claims")
        while try claims.next() { snapshot.claims.insert(claims.text(0)) }
        let removed = try connection.prepare("SELECT path, recorded_ns FROM removed")
        while try removed.next() { removals[removed.text(0)] = max(removals[removed.text(0)] ?? .min, removed.int(1)) }
      }
    }
    for (path, time) in removals where time > outputTimes[path] ?? .max {
      snapshot.outputs[path] = nil
    }
    return snapshot
  }

  /// Opens `path` for reading (waiting a little for a writer's lock), checks its version and
  /// runs `body`; every failure is a `StateError` naming the file.
  static func read(_ path: String, _ body: (SQLiteConnection) throws(SQLiteConnection.Failure) -> Void)
    throws(StateError)
  {
    do {
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
    } catch let error as StateError {
      throw error
    } catch let failure as SQLiteConnection.Failure {
      throw StateError(failure, path: path)
    } catch {
      throw StateError(kind: .io, path: path, detail: "\(error)")
    }
  }
}
