internal import CSQLite
import Foundation

/// One SQLite connection, used from one thread at a time (callers lock): statements, bound
/// values and errors that say what SQLite and the operating system said.
final class SQLiteConnection {
  /// What failed, with SQLite's primary result code and the errno behind it (0 if none).
  struct Failure: Error, CustomStringConvertible {
    var code: Int32
    var systemErrno: Int32
    var message: String
    var description: String {
      guard systemErrno != 0 else { return message }
      return "\(message) (\(String(cString: strerror(systemErrno))), errno \(systemErrno))"
    }
    /// The file is not a database, or its pages are damaged.
    var isDamaged: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// Another connection holds the lock.
    var isLocked: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
  }

  let path: String
  private var handle: OpaquePointer?

  /// Opens `path`; `create` makes the file if it is missing; `readOnly` never writes.
  init(path: String, create: Bool, readOnly: Bool = false) throws(Failure) {
    self.path = path
    var flags = SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
    if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK else {
      let failure = Failure(
        code: status & 0xff, systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0,
        message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status)))
      sqlite3_close_v2(handle)
      handle = nil
      throw failure
    }
    sqlite3_extended_result_codes(handle, 0)
  }

  deinit { close() }

  /// Closes the connection (the last one checkpoints and removes the WAL file).
  func close() {
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
  }

  /// The error of the last call, as a `Failure`. SQLite reports a full disk as SQLITE_FULL,
  /// at times with the errno already reset: it is ENOSPC then.
  func failure(_ status: Int32, _ what: String) -> Failure {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
    var systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
    if status & 0xff == SQLITE_FULL && systemErrno == 0 { systemErrno = ENOSPC }
    return Failure(code: status & 0xff, systemErrno: systemErrno, message: "\(what): \(message)")
  }

  /// Runs SQL without results (several statements separated by `;`).
  func execute(_ sql: String) throws(Failure) {
    let status = sqlite3_exec(handle, sql, nil, nil, nil)
    guard status == SQLITE_OK else { throw failure(status, sql.prefix(40).description) }
  }

  /// Milliseconds to wait for another connection's lock before `isLocked`.
  func setBusyTimeout(_ milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

  /// Runs `body` in one transaction (`immediate`: the write lock is taken at once; else
  /// a reader's consistent view); rolled back when `body` throws.
  func transaction(immediate: Bool = true, _ body: () throws(Failure) -> Void) throws(Failure) {
    try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
    do {
      try body()
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// A prepared statement.
  func prepare(_ sql: String) throws(Failure) -> Statement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else { throw failure(status, sql.prefix(40).description) }
    return Statement(connection: self, pointer: statement)
  }

  /// A compiled SQL statement: bind values, step through rows, read columns.
  final class Statement {
    let connection: SQLiteConnection
    let pointer: OpaquePointer

    init(connection: SQLiteConnection, pointer: OpaquePointer) {
      self.connection = connection
      self.pointer = pointer
    }

    deinit { sqlite3_finalize(pointer) }

    /// Binds `values` to the parameters 1...n (after a reset).
    func bind(_ values: [Value]) {
      sqlite3_reset(pointer)
      sqlite3_clear_bindings(pointer)
      for (offset, value) in values.enumerated() {
        let index = Int32(offset + 1)
        switch value {
        case .integer(let v): sqlite3_bind_int64(pointer, index, v)
        case .real(let v): sqlite3_bind_double(pointer, index, v)
        case .text(let v): sqlite3_bind_text(pointer, index, v, -1, transient)
        case .null: sqlite3_bind_null(pointer, index)
        }
      }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [Value]) throws(Failure) {
      bind(values)
      let status = sqlite3_step(pointer)
      guard status == SQLITE_DONE || status == SQLITE_ROW else { throw connection.failure(status, "write") }
      sqlite3_reset(pointer)
    }

    /// Steps to the next row: true for a row, false at the end.
    func next() throws(Failure) -> Bool {
      let status = sqlite3_step(pointer)
      if status == SQLITE_ROW { return true }
      guard status == SQLITE_DONE else { throw connection.failure(status, "read") }
      return false
    }

    /// The result columns by name (as SQLite names them: the column, or its `AS` alias).
    private lazy var columns: [String: Int32] = {
      var names: [String: Int32] = [:]
      for index in 0..<sqlite3_column_count(pointer) where names[name(index)] == nil {
        names[name(index)] = index
      }
      return names
    }()

    private func name(_ index: Int32) -> String {
      sqlite3_column_name(pointer, index).map { String(cString: $0) } ?? ""
    }

    /// The index of the result column `name`; a name the statement does not select is a
    /// programming error.
    func column(_ name: String) -> Int32 {
      guard let index = columns[name] else { preconditionFailure("no column \(name) in the statement") }
      return index
    }

    func int(_ name: String) -> Int64 { sqlite3_column_int64(pointer, column(name)) }
    /// The integer, the text and whether it is NULL in the result column at `index`
    /// (`column(_:)`, looked up once for a statement's many rows).
    func int(at index: Int32) -> Int64 { sqlite3_column_int64(pointer, index) }
    func text(at index: Int32) -> String {
      guard let bytes = sqlite3_column_text(pointer, index) else { return "" }
      return String(cString: bytes)
    }
    func isNull(at index: Int32) -> Bool { sqlite3_column_type(pointer, index) == SQLITE_NULL }
    func double(at index: Int32) -> Double { sqlite3_column_double(pointer, index) }
    func optionalText(at index: Int32) -> String? { isNull(at: index) ? nil : text(at: index) }
    /// Whether the result column at `index` is `name` (what a reader by position asserts).
    func isColumn(_ index: Int32, named name: String) -> Bool { self.name(index) == name }
    func double(_ name: String) -> Double { sqlite3_column_double(pointer, column(name)) }
    func isNull(_ name: String) -> Bool { sqlite3_column_type(pointer, column(name)) == SQLITE_NULL }
    /// The text in the column `name` ("" for NULL).
    func text(_ name: String) -> String {
      guard let bytes = sqlite3_column_text(pointer, column(name)) else { return "" }
      return String(cString: bytes)
    }
    /// The text in the column `name`, nil for NULL.
    func optionalText(_ name: String) -> String? { isNull(name) ? nil : text(name) }
  }

  /// A value bound to a statement's parameter.
  enum Value {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
  }
}

/// SQLITE_TRANSIENT (a macro Swift does not import): SQLite copies the bound text.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
