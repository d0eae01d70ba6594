import CropSupport

/// "One override per source and job" over a crop table: the source and job of each row met
/// so far, found by one lookup. A stored row's path is not copied (it is read from the row
/// store), so the check takes about 16 bytes a row where a `Dictionary` of keys would take
/// about 80. Sources compare as `OverrideKey` compares them: `./a.jpg` is `a.jpg`, and two
/// spellings of one Unicode text are one path, as for strings.
struct TableRegistry {
  /// Each entry's hash (truncated), and where its key is: row `ref` of the store, or
  /// `others[-1 - ref]` for a row kept out of it (one with a problem).
  private var hashes: [Int32] = []
  private var refs: [Int32] = []
  private var others: [(job: UInt32, source: [UInt8], line: Int)] = []
  private var table = IndexTable()
  /// Job names by code: 0 is no job, the job file's jobs are 1…n in the order it declares
  /// them (as the row store numbers them), and names it does not declare follow.
  private var jobCodes: [String: UInt32] = [:]
  private var nextCode: UInt32

  init(jobs: [String]) {
    for (i, name) in jobs.enumerated() where jobCodes[name] == nil { jobCodes[name] = UInt32(i + 1) }
    nextCode = UInt32(jobs.count + 1)
  }

  /// The code of job `name` (nil: every job).
  mutating func code(of name: String?) -> UInt32 {
    guard let name else { return 0 }
    if let code = jobCodes[name] { return code }
    jobCodes[name] = nextCode
    nextCode += 1
    return nextCode - 1
  }

  mutating func reserve(_ rows: Int) {
    hashes.reserveCapacity(rows)
    refs.reserveCapacity(rows)
    table.reserve(rows) { Int(hashes[$0]) }
  }

  /// The line of the row met before for `job` and the source path in `cell` of `row`, if
  /// any; else they are noted, as row `index` of `store` (which the caller then adds) or,
  /// when `index` is nil, with `line`.
  mutating func earlier(
    job: UInt32, source cell: TableCell, of row: TableRowCells, index: Int?, line: Int, store: borrowing CropTableRows
  ) -> Int? {
    row.bytes.withUnsafeBufferPointer { bytes in
      earlier(job: job, source: UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]), index, line, store)
    }
  }

  /// `earlier` of a source path given as text.
  mutating func earlier(
    job: UInt32, source: String, index: Int?, line: Int, store: borrowing CropTableRows
  ) -> Int? {
    var source = source
    return source.withUTF8 { earlier(job: job, source: $0, index, line, store) }
  }

  private mutating func earlier(
    job: UInt32, source: UnsafeBufferPointer<UInt8>, _ row: Int?, _ line: Int, _ store: borrowing CropTableRows
  ) -> Int? {
    Self.withKey(source) { key in
      let hash = Self.hash(key)
      let found = table.find(hash: Int(hash)) { entry in
        guard hashes[entry] == hash else { return false }
        let ref = Int(refs[entry])
        if ref < 0 {
          let other = others[-1 - ref]
          return other.job == job && other.source.withUnsafeBufferPointer { Self.equal($0, key) }
        }
        return store.jobCode(at: ref) == job && store.withSource(at: ref) { Self.withKey($0) { Self.equal($0, key) } }
      }
      if let found {
        let ref = Int(refs[found])
        return ref < 0 ? others[-1 - ref].line : store.line(at: ref)
      }
      let ref: Int32
      if let row {
        ref = Int32(row)
      } else {
        others.append((job, Array(key), line))
        ref = Int32(-others.count)
      }
      table.insert(hash: Int(hash), index: hashes.count) { Int(hashes[$0]) }
      hashes.append(hash)
      refs.append(ref)
      return nil
    }
  }

  /// Calls `body` with `source` as keys compare it: with no empty or `.` segment.
  private static func withKey<R>(_ source: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if OverrideKey.isPlain(source) { return body(source) }
    var normal = OverrideKey(job: nil, source: String(decoding: source, as: UTF8.self)).source
    return normal.withUTF8(body)
  }

  /// Equal as strings: byte by byte when both are ASCII (the usual case), else as Swift
  /// compares strings (canonical equivalence).
  private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    if isASCII(a) && isASCII(b) { return a.elementsEqual(b) }
    return String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
  }

  /// A hash that agrees with `equal`: of the bytes for ASCII text (which only equals
  /// itself), else the string's.
  private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard isASCII(key) else { return Int32(truncatingIfNeeded: String(decoding: key, as: UTF8.self).hashValue) }
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(key))
    return Int32(truncatingIfNeeded: hasher.finalize())
  }

  private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in bytes where b >= 0x80 { return false }
    return true
  }
}
