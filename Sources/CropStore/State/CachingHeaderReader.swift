import CropPlan
import Synchronization

/// A `SourceHeaderReading` that answers from the state for a source whose size, mtime and
/// inode are what the state recorded (one `stat`, no read of the file) and asks the reader
/// it wraps otherwise: a re-run over unchanged photos reads no image header.
///
/// Over a `StateReader`, it knows the sources of one window at a time: the planner hands it
/// each window's paths (`prepare(paths:)`) before asking for their headers.
package final class CachingHeaderReader: SourceHeaderReading {
  let reader: any SourceHeaderReading
  let state: StateReader?
  private let sources: Mutex<[String: SourceFacts]>
  private let misses = Atomic<Int>(0)

  /// `sources`: the state's sources by absolute path (`StateView.sources`), whole.
  package init(wrapping reader: any SourceHeaderReading, sources: [String: SourceFacts]) {
    self.reader = reader
    state = nil
    self.sources = Mutex(sources)
  }

  /// The sources of each window looked up in `state` as the planner prepares it.
  package init(wrapping reader: any SourceHeaderReading, state: StateReader) {
    self.reader = reader
    self.state = state
    sources = Mutex([:])
  }

  package var engineVersion: String { reader.engineVersion }

  package func start() { reader.start() }

  /// The facts of `paths` in place of the last window's (a failure to read the state is
  /// kept by the `StateReader`; the headers are then read from the files).
  package func prepare(paths: [String]) {
    guard let state else { return }
    let known = state.readKeeping(.keys, StateQuery(sources: paths)).sources
    sources.withLock { $0 = known }
  }

  /// The hashes the state records for `paths`, with the stamps of the identities they were
  /// recorded with (one read of the state; the facts of the last `prepare` are kept).
  package func recordedHashes(paths: [String]) -> [String: (sha256: String, stamp: UInt64)] {
    let known =
      state?.readKeeping(.keys, StateQuery(sources: paths)).sources
      ?? sources.withLock { whole in
        var some: [String: SourceFacts] = [:]
        for path in paths { if let facts = whole[path] { some[path] = facts } }
        return some
      }
    var result: [String: (sha256: String, stamp: UInt64)] = [:]
    result.reserveCapacity(known.count)
    for (path, facts) in known { if let sha256 = facts.sha256 { result[path] = (sha256, facts.identity.stamp) } }
    return result
  }

  /// Headers read through the wrapped reader so far (the cache's misses).
  package var headersRead: Int { misses.load(ordering: .relaxed) }

  package func knownHeader(path: String, status: SourceFileStatus) -> KnownHeader? {
    guard let facts = sources.withLock({ $0[path] }),
      facts.identity == status
    else { return nil }
    return KnownHeader(header: facts.header, sha256: facts.sha256)
  }

  /// An object's header not known by its change token (`knownHeader`) is read by the
  /// wrapped reader.
  package func header(bytes: [UInt8], location: String, complete: Bool) throws -> SourceHeader? {
    try reader.header(bytes: bytes, location: location, complete: complete)
  }

  package func header(path: String) throws -> SourceHeader {
    if let facts = sources.withLock({ $0[path] }), let identity = FileIdentity.of(path: path),
      identity == facts.identity
    {
      return facts.header
    }
    misses.add(1, ordering: .relaxed)
    return try reader.header(path: path)
  }

  /// Regions are not cached: they are read from the file, only for jobs that ask for them.
  package func storedRegions(path: String) throws -> XMPRegionParser.Reading {
    try reader.storedRegions(path: path)
  }
}
