import CropPlan
import Synchronization

/// A `SourceHeaderReading` that answers from the state for a source whose size, mtime and
/// inode are what the state recorded (one `stat`, no read of the file) and asks the reader
/// it wraps otherwise: a re-run over unchanged photos reads no image header.
public final class CachingHeaderReader: SourceHeaderReading {
  let reader: any SourceHeaderReading
  let sources: [String: SourceFacts]
  private let misses = Atomic<Int>(0)

  /// `sources`: the state's sources by absolute path (`StateSnapshot.sources`).
  public init(wrapping reader: any SourceHeaderReading, sources: [String: SourceFacts]) {
    self.reader = reader
    self.sources = sources
  }

  public var engineVersion: String { reader.engineVersion }

  public func start() { reader.start() }

  /// Headers read through the wrapped reader so far (the cache's misses).
  public var headersRead: Int { misses.load(ordering: .relaxed) }

  public func knownHeader(path: String, status: SourceFileStatus) -> SourceHeader? {
    guard let facts = sources[path],
      facts.identity == status
    else { return nil }
    return facts.header
  }

  public func header(path: String) throws -> SourceHeader {
    if let facts = sources[path], let identity = FileIdentity.of(path: path), identity == facts.identity {
      return facts.header
    }
    misses.add(1, ordering: .relaxed)
    return try reader.header(path: path)
  }

  /// Regions are not cached: they are read from the file, only for jobs that ask for them.
  public func storedRegions(path: String) throws -> XMPRegionParser.Reading {
    try reader.storedRegions(path: path)
  }
}
