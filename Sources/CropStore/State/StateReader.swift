import CropPlan
import Foundation

/// The state of an output root, read a window at a time (docs/scale.md, "The state by
/// window"): what a window needs — the recorded outputs at its output paths, the facts of
/// its sources, the claims and removals of those paths — is looked up by primary key in
/// each readable file (`StateFiles.readable`), newest row per path winning and removals
/// applied, exactly as `StateSnapshot.load` reads the whole state. Memory holds one
/// window's rows, never every recorded output.
///
/// Each file is opened for one lookup and closed again (readers lock a file while they read
/// it, and the shards of a run read the main file at the same time), except the run's own
/// file once its `StateWriter` holds it (`readThrough`): that one is read through the
/// writer's connection. A root with no state file but JSON manifests of an earlier cropjob
/// is read whole (`Manifest.loadManifests`), as before the state database; so is a
/// `StateSnapshot` given whole (`init(snapshot:)`).
public final class StateReader: @unchecked Sendable {
  /// Paths per lookup statement (a window's outputs may be more).
  package static let batch = 4096

  public let root: String
  public let shard: Shard?
  /// Whether any file records an output (or the whole state holds one), as opened: a plan
  /// over an output root without recorded outputs has nothing up to date.
  public let recordsOutputs: Bool
  /// `run --verify-sources`: the recorded sources are not looked up, so that every source's
  /// header is read and its content hashed again (outputs rebuilt only where it changed).
  public let verifySources: Bool
  /// The state held whole: JSON manifests only, or given.
  let whole: StateSnapshot?
  let lock = NSLock()
  private var files: [String]
  private var writer: StateWriter?
  private var kept: StateError?

  private init(
    root: String, shard: Shard?, whole: StateSnapshot?, files: [String], recordsOutputs: Bool,
    verifySources: Bool = false
  ) {
    self.verifySources = verifySources
    self.root = root
    self.shard = shard
    self.whole = whole
    self.files = files
    self.recordsOutputs = recordsOutputs
  }

  /// A reader of `snapshot`, held whole (a library caller's, or a test's).
  public convenience init(snapshot: StateSnapshot) {
    self.init(root: "", shard: nil, whole: snapshot, files: [], recordsOutputs: !snapshot.outputs.isEmpty)
  }

  /// The state of `root` as a run of `shard` sees it. Each file is opened once now (a
  /// damaged, newer or locked file is an error here, before any planning); without any
  /// state file, the JSON manifests of an earlier cropjob (or those `--rebuild-state` kept)
  /// are read, whole.
  /// With `verifySources`, the state's record of the sources is not used (`verifySources`).
  public static func open(root: String, shard: Shard? = nil, verifySources: Bool = false) throws(StateError)
    -> StateReader
  {
    let files = StateFiles.readable(root: root, shard: shard)
    guard !files.isEmpty else {
      var snapshot = StateSnapshot()
      snapshot.outputs = Manifest.loadManifests(root: root)
      return StateReader(
        root: root, shard: shard, whole: snapshot, files: [], recordsOutputs: !snapshot.outputs.isEmpty,
        verifySources: verifySources)
    }
    var records = false
    for file in files {
      try StateSnapshot.read(file) { (connection) throws(SQLiteConnection.Failure) in
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

  /// The first failure of the lookups that keep it (`window(...)`), if any.
  public var failure: StateError? { lock.withLock { kept } }

  /// What the state records of the outputs at `outputs` (paths relative to the root) and of
  /// the sources at `sources` (absolute paths), and which of those outputs are claimed.
  public func snapshot(outputs: [String], sources: [String]) throws(StateError) -> StateSnapshot {
    lock.lock()
    defer { lock.unlock() }
    let sources = verifySources ? [] : sources
    if let whole { return Self.restrict(whole, outputs: outputs, sources: sources) }
    let merge = try lookUp(Merge.full, outputs: outputs, sources: sources)
    var result = StateSnapshot()
    result.outputs = merge.mergedOutputs()
    result.sources = merge.sources
    result.claims = merge.claims
    return result
  }

  /// What the state records of the outputs among `selected` in `plan` and of their file
  /// sources.
  public func snapshot(of plan: Plan, selected: [Int]) throws(StateError) -> StateSnapshot {
    let (outputs, sources) = Self.paths(of: plan, selected: selected)
    return try snapshot(outputs: outputs, sources: sources)
  }

  /// `snapshot(of:selected:)` for callers that cannot throw (a window's closure): a failure
  /// is kept (`failure`) and the answer is an empty state.
  public func window(of plan: Plan, selected: [Int]) -> StateSnapshot {
    let (outputs, sources) = Self.paths(of: plan, selected: selected)
    return window(outputs: outputs, sources: sources)
  }

  /// `snapshot(outputs:sources:)`, keeping a failure (`failure`).
  public func window(outputs: [String], sources: [String]) -> StateSnapshot {
    do {
      return try snapshot(outputs: outputs, sources: sources)
    } catch {
      keep(error)
      return StateSnapshot()
    }
  }

  /// Keeps `error` if it is the first failure.
  func keep(_ error: StateError) { lock.withLock { if kept == nil { kept = error } } }

  /// Every recorded output path of every file, file by file, each in path order, a batch at
  /// a time (a file is not held between batches). A path recorded in several files comes
  /// once per file, and a removed one may come: `snapshot(outputs:sources:)` says what the
  /// state records of it.
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
          while try select.next() { paths.append(select.text(0)) }
        }
        for path in paths { body(path) }
        guard paths.count == Self.batch, let last = paths.last else { break }
        after = last
      }
    }
  }

  /// `merge` of the rows of every readable file for `outputs` and `sources` (the caller
  /// holds `lock`).
  func lookUp<Row>(_ merge: Merge<Row>, outputs: [String], sources: [String]) throws(StateError) -> Merge<Row> {
    var merge = merge
    let outputs = Self.unique(outputs)
    let sources = Self.unique(sources)
    guard !outputs.isEmpty || !sources.isEmpty else { return merge }
    try eachFile { (connection) throws(SQLiteConnection.Failure) in
      try merge.lookUp(outputs: outputs, sources: sources, in: connection)
    }
    return merge
  }

  /// Runs `body` on every readable file, in order.
  private func eachFile(_ body: (SQLiteConnection) throws(SQLiteConnection.Failure) -> Void) throws(StateError) {
    for file in files { try read(file, body) }
  }

  /// Runs `body` on `file`: through the writer for its own file, else opened for this alone.
  private func read(_ file: String, _ body: (SQLiteConnection) throws(SQLiteConnection.Failure) -> Void)
    throws(StateError)
  {
    if let writer, file == writer.path {
      try writer.read(body)
    } else {
      try StateSnapshot.read(file, body)
    }
  }

  static func paths(of plan: Plan, selected: [Int]) -> (outputs: [String], sources: [String]) {
    var seen = Set<Int>()
    var sources: [String] = []
    for i in selected {
      let index = plan.outputs[i].sourceIndex
      if plan.sources[index].producedBy == nil, seen.insert(index).inserted {
        sources.append(plan.sources[index].absolutePath)
      }
    }
    return (selected.map { plan.outputs[$0].path }, sources)
  }

  static func unique(_ paths: [String]) -> [String] {
    var seen = Set<String>()
    return paths.filter { seen.insert($0).inserted }
  }

  /// The part of a whole state about `outputs` and `sources`.
  static func restrict(_ whole: StateSnapshot, outputs: [String], sources: [String]) -> StateSnapshot {
    var result = StateSnapshot()
    for path in outputs {
      if let entry = whole.outputs[path] { result.outputs[path] = entry }
      if whole.claims.contains(path) { result.claims.insert(path) }
    }
    for path in sources { if let facts = whole.sources[path] { result.sources[path] = facts } }
    return result
  }

  /// The rows of several files for some paths, merged as `StateSnapshot.load` merges whole
  /// files: the newest row per path (the later file on a tie), removals newer than it
  /// applied, claims of any file. `Row` is what is kept of an output row: its full entry
  /// (`Merge.full`) or what the first pass of `run` needs (`Merge.light`).
  struct Merge<Row> {
    /// The `outputs` columns selected (`recorded_ns` last) and the row made of them.
    let columns: [String]
    let decode: (SQLiteConnection.Statement) -> Row
    var outputs: [String: Row] = [:]
    var sources: [String: SourceFacts] = [:]
    var claims = Set<String>()
    var outputTimes: [String: Int64] = [:]
    var sourceTimes: [String: Int64] = [:]
    var removals: [String: Int64] = [:]

    init(columns: [String], decode: @escaping (SQLiteConnection.Statement) -> Row) {
      self.columns = columns
      self.decode = decode
    }

    /// Looks `outputs` and `sources` up in one file (its `main` schema).
    mutating func lookUp(outputs paths: [String], sources: [String], in connection: SQLiteConnection)
      throws(SQLiteConnection.Failure)
    {
      if !paths.isEmpty {
        let n = Int32(columns.count)
        let select = try connection.prepare(
          """
          SELECT \(columns.map { "o." + $0 }.joined(separator: ", ")), j.value, r.recorded_ns, c.path IS NOT NULL
          FROM json_each(?) j LEFT JOIN outputs o ON o.path = j.value LEFT JOIN removed r ON r.path = j.value
            LEFT JOIN claims c ON c.path = j.value
          WHERE o.path IS NOT NULL OR r.path IS NOT NULL OR c.path IS NOT NULL
          """)
        for start in stride(from: 0, to: paths.count, by: StateReader.batch) {
          select.bind([.text(StateReader.jsonArray(paths[start..<min(paths.count, start + StateReader.batch)]))])
          while try select.next() {
            let path = select.text(n)
            if !select.isNull(0) {
              let time = select.int(n - 1)
              if time >= outputTimes[path] ?? .min {
                outputTimes[path] = time
                outputs[path] = decode(select)
              }
            }
            if !select.isNull(n + 1) { removals[path] = max(removals[path] ?? .min, select.int(n + 1)) }
            if select.int(n + 2) != 0 { claims.insert(path) }
          }
        }
      }
      if !sources.isEmpty {
        let columns = StateRows.sourceColumns.split(separator: ", ").map { "s." + $0 }.joined(separator: ", ")
        // CROSS JOIN: the paths drive the lookups (never a scan of every source).
        let select = try connection.prepare(
          "SELECT \(columns) FROM json_each(?) j CROSS JOIN sources s ON s.path = j.value")
        for start in stride(from: 0, to: sources.count, by: StateReader.batch) {
          select.bind([.text(StateReader.jsonArray(sources[start..<min(sources.count, start + StateReader.batch)]))])
          while try select.next() {
            guard let (path, facts) = StateRows.source(select) else { continue }
            let time = select.int(12)
            if time >= sourceTimes[path] ?? .min {
              sourceTimes[path] = time
              self.sources[path] = facts
            }
          }
        }
      }
    }

    /// The merged outputs, removals applied.
    func mergedOutputs() -> [String: Row] {
      var result = outputs
      for (path, time) in removals where time > outputTimes[path] ?? .max {
        result[path] = nil
      }
      return result
    }
  }

  /// `strings` as a JSON array (for `json_each`).
  static func jsonArray(_ strings: ArraySlice<String>) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    let hex = Array("0123456789abcdef".utf8)
    for (n, string) in strings.enumerated() {
      if n > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
        case 0..<0x20: bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        default: bytes.append(byte)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(UInt8(ascii: "]"))
    return String(decoding: bytes, as: UTF8.self)
  }
}
