import Foundation

/// Why the state database cannot be used, naming the file and the way out. Never a crash:
/// a damaged, locked or newer file, or one the disk cannot take, is an error like this.
public struct StateError: Error, CustomStringConvertible, Sendable {
  public enum Kind: Sendable, Equatable {
    /// Not a database, or its pages are damaged.
    case damaged
    /// Another cropjob run holds it.
    case locked
    /// Written by a newer cropjob (its schema version is higher than this one reads).
    case newer(version: Int)
    /// The operating system refused (no space, permission, I/O error); `detail` says what
    /// cropjob was doing.
    case io
  }

  public var kind: Kind
  /// The database file.
  public var path: String
  /// What SQLite (and the errno behind it) said.
  public var detail: String

  package init(kind: Kind, path: String, detail: String) {
    self.kind = kind
    self.path = path
    self.detail = detail
  }

  /// The problem with `path` from SQLite's failure.
  init(_ failure: SQLiteConnection.Failure, path: String) {
    let kind: Kind = failure.isDamaged ? .damaged : failure.isLocked ? .locked : .io
    self.init(kind: kind, path: path, detail: (kind == .io ? "cannot use the state database: " : "") + "\(failure)")
  }

  /// Runs `body`; what it throws becomes a `StateError` naming `path` (evaluated then): a
  /// `StateError` as it is, SQLite's failure by its kind, anything else as `.io`.
  static func mapping<T>(path: @autoclosure () -> String, _ body: () throws -> T) throws(StateError) -> T {
    do {
      return try body()
    } catch let error as StateError {
      throw error
    } catch let failure as SQLiteConnection.Failure {
      throw StateError(failure, path: path())
    } catch {
      throw StateError(kind: .io, path: path(), detail: "\(error)")
    }
  }

  public var description: String {
    switch kind {
    case .damaged:
      return
        "\(path): the state database is damaged (\(detail)); run again with --rebuild-state to rebuild it from cropjob-manifest.json (outputs it does not list are made again)"
    case .locked:
      return
        "\(path): the state database is in use by another cropjob run (\(detail)); wait for that run to end, or, if none is running, run again with --rebuild-state"
    case .newer(let version):
      return
        "\(path): the state database has schema version \(version), newer than this cropjob reads (\(StateSchema.version)); use a newer cropjob, or run again with --rebuild-state to start the state afresh"
    case .io:
      return "\(path): \(detail)"
    }
  }
}
