import Foundation

/// The ETags an object store gave cropjob's writes of outputs, kept in the state's `meta`
/// table as `etag:<path>` rows (no schema change: an older cropjob ignores them). The next
/// write of such an output is guarded by its ETag (`Overwrite.ifUnchanged`): an object
/// someone else put there since is refused, not replaced. Forgotten with the output
/// (`StateWriter.remove`), folded with shard files.
package enum StateETags {
  static let prefix = "etag:"
}

extension StateReader {
  /// Every recorded output's ETag by path (later files win), for a run writing to an
  /// object store; empty for outputs written to files (they have none).
  package func recordedETags() throws(StateError) -> [String: String] {
    guard whole == nil else { return [:] }
    var etags: [String: String] = [:]
    for file in lock.withLock({ files }) {
      lock.lock()
      defer { lock.unlock() }
      try read(file) { (connection) throws(SQLiteConnection.Failure) in
        let select = try connection.prepare("SELECT name, value FROM meta WHERE name >= 'etag:' AND name < 'etag;'")
        while try select.next() {
          etags[String(select.text(at: 0).dropFirst(StateETags.prefix.count))] = select.text(at: 1)
        }
      }
    }
    return etags
  }
}

extension StateWriter {
  /// A copy of the state as committed so far, compacted, at `path` (replaced): what a run
  /// writing to an object store puts in the output prefix during the run and at its end
  /// (`StateSync`). Made on the writer's own connection (it holds the file's lock).
  package func snapshot(to path: String) throws(StateError) {
    unlink(path)
    try read { (connection) throws(SQLiteConnection.Failure) in
      try connection.execute("VACUUM INTO '\(path.replacing("'", with: "''"))'")
    }
  }
}
