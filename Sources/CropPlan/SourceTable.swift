import CropStorage
import CropSupport
import Foundation

/// Every source of a batch, held compactly between the plan's passes: its path, header (16
/// bytes), largest output scale and, for the few that have them, an error or stored regions.
/// The first `fileCount` are files the jobs read, in the plan's order; after them come the
/// sources produced by earlier jobs (`from:`), job by job, each job's sorted by path.
struct SourceTable {
  /// Path as the job file sees it (a produced source: its output path relative to the root).
  var paths = StringTable()
  var headers: [PackedHeader] = []
  /// Headers whose numbers do not fit in a `PackedHeader`.
  var largeHeaders: [Int: SourceHeader] = [:]
  /// The shrink-on-load of the source's largest output (0: no output yet). The shrink of
  /// the largest scale is the smallest of the outputs' shrinks (`SourceHeader.loadShrink`
  /// only gets smaller as the scale grows): one byte, not the scale.
  var shrinks: [UInt8] = []
  var errors: [Int: String] = [:]
  var regions: [Int: [StoredRegion]] = [:]
  /// How many sources are files (the rest are produced).
  var fileCount = 0
  /// The produced sources of each `from:` job: their first index, count, the job they come
  /// from and the stage they are decoded in.
  var producedRanges: [(start: Int, count: Int, upstream: String, stage: Int)] = []
  /// For each produced source (index − `fileCount`), the file its chain starts from.
  var producedRoots: [Int32] = []
  /// The hash of each file source's absolute path (its low 32 bits; candidates are
  /// confirmed by path), and the file sources sorted by it: to find a source again by a
  /// binary search (8 bytes a source, where a hash table at most half full took 12).
  var hashes: [UInt32] = []
  var byHash: [Int32] = []

  /// The file sources whose path hash is `hash`.
  func sources(hashed hash: UInt32) -> ArraySlice<Int32> {
    let low = byHash.partitionPoint { hashes[Int($0)] >= hash }
    let end = byHash[low...].partitionPoint { hashes[Int($0)] > hash }
    return byHash[low..<end]
  }
  /// For each file source, whether its absolute path is its folder's standard form and its
  /// name, the name no symlink (`StandardPaths.standard(_:plain:)`): found once, when the
  /// sources are expanded, so that making the path again needs no `lstat`.
  var plainPaths: [Bool] = []
  /// For each file source, whether its header came from the state's record of it with a
  /// content hash (the file had the identity recorded). Neither the hash (32 bytes) nor the
  /// identity's stamp (8) is held between the passes: each window looks them up again in
  /// the state (`PlanStream.addRecordedHashes`), which records them as the header found them.
  var recorded: [Bool] = []
  /// What the listing said of each source in object storage (by its number): its key, size
  /// and change token (ETag, size, last-modified); none for files.
  var objects = SourceObjects()

  var count: Int { paths.count }

  /// The `from:` job range holding produced source `index`.
  func producedRange(_ index: Int) -> (start: Int, count: Int, upstream: String, stage: Int)? {
    guard index >= fileCount else { return nil }
    return producedRanges.last { $0.start <= index }
  }

  func header(_ index: Int) -> SourceHeader? { largeHeaders[index] ?? headers[index].header }

  mutating func setHeader(_ index: Int, _ header: SourceHeader?) {
    if let packed = PackedHeader(header) {
      headers[index] = packed
    } else {
      headers[index] = .none
      largeHeaders[index] = header
    }
  }

  /// Adds a source (its header set later for a file).
  mutating func append(path: String, header: SourceHeader?) {
    paths.append(path)
    headers.append(.none)
    shrinks.append(0)
    setHeader(count - 1, header)
  }

  /// Adds file sources, headers set later: the strings `selected` of `paths` (nil: all of
  /// them, in order), with what `objects` holds of them. All of them into an empty table are
  /// taken as they are: the buffers are shared, not copied.
  mutating func appendFiles(paths list: StringTable, objects listed: SourceObjects, selected: [Int32]?) {
    let start = count
    if start == 0, selected == nil {
      paths = list
      objects = listed
    } else {
      let chosen = selected ?? Array(0..<Int32(list.count))
      paths.reserveCapacity(strings: start + chosen.count, bytes: paths.byteCount + list.byteCount)
      for m in chosen {
        if !listed.isEmpty { objects.set(paths.count, as: Int(m), in: listed) }
        paths.append(list[Int(m)])
      }
    }
    headers.append(contentsOf: repeatElement(PackedHeader.none, count: count - start))
    shrinks.append(contentsOf: repeatElement(0, count: count - start))
  }

  /// Notes an output of source `index` at `scale` (`geometry.scale`).
  mutating func noteOutput(_ index: Int, scale: Double) {
    guard let header = header(index) else { return }
    let shrink = UInt8(header.loadShrink(maxOutputScale: scale))
    shrinks[index] = shrinks[index] == 0 ? shrink : min(shrinks[index], shrink)
  }

  /// The file source a source's chain starts from (itself for a file).
  func root(_ index: Int) -> Int { index < fileCount ? index : Int(producedRoots[index - fileCount]) }

  /// Whether file source `index`'s header came with a recorded hash (`recorded`).
  func hasRecordedHash(_ index: Int) -> Bool { index < recorded.count && recorded[index] }

  /// The source as the plan holds it (without its recorded hash: `PlanStream.addRecordedHashes`);
  /// `absolute` is its absolute path (kept by the caller).
  func planned(_ index: Int, absolute: String, withShrink: Bool) -> PlannedSource {
    let header = self.header(index)
    let range = producedRange(index)
    var source = PlannedSource(
      path: paths[index], absolutePath: absolute, header: header, error: errors[index], producedBy: range?.upstream,
      stage: range?.stage ?? 0, loadShrink: 1)
    source.regions = regions[index]
    if withShrink, header != nil { source.loadShrink = max(1, Int(shrinks[index])) }
    if !objects.isEmpty { source.object = objects.object(index, path: source.path) }
    return source
  }
}

/// A `SourceHeader` in 8 bytes (nil: none); a header whose numbers do not fit (a side or a
/// page count above 65,535, more than 7 bands) is kept apart (`SourceTable.largeHeaders`).
struct PackedHeader: Sendable {
  private var width: UInt16 = 0
  private var height: UInt16 = 0
  private var pages: UInt16 = 0
  /// InputFormat's index + 1 (0: no header).
  private var format: UInt8 = 0
  /// The orientation (1–8) in the low 4 bits, the bands above, alpha in the top bit.
  private var flags: UInt8 = 0

  static let none = PackedHeader()
  private static let formats = InputFormat.allCases

  init() {}

  /// nil when `header` does not fit.
  init?(_ header: SourceHeader?) {
    guard let header else { return }
    guard let w = UInt16(exactly: header.storedWidth), let h = UInt16(exactly: header.storedHeight),
      let p = UInt16(exactly: header.pages), (0..<16).contains(header.orientation), (0..<8).contains(header.bands),
      let f = Self.formats.firstIndex(of: header.format)
    else { return nil }
    (width, height, pages, format) = (w, h, p, UInt8(f + 1))
    flags = UInt8(header.orientation) | UInt8(header.bands) << 4 | (header.hasAlpha ? 0x80 : 0)
  }

  var header: SourceHeader? {
    guard format > 0 else { return nil }
    return SourceHeader(
      format: Self.formats[Int(format) - 1], storedWidth: Int(width), storedHeight: Int(height),
      orientation: Int(flags & 0x0f), bands: Int(flags >> 4 & 0x07), hasAlpha: flags & 0x80 != 0,
      pages: Int(pages))
  }
}
