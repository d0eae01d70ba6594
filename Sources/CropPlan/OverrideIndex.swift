import CropGeometry
import CropSpec
import CropSupport
import Foundation

/// The job file's overrides (a crop table's rows, then the inline ones) by source, so that
/// finding a source's overrides is one lookup, not a scan of all of them: a crop table may
/// hold one per photo, a million.
///
/// Overrides are keyed by their source made absolute lexically (`.` and `..` resolved as
/// text, no file system access: a million overrides cost no million `lstat`s), and a source
/// is looked up by its path as the job found it, made absolute the same way, then by its
/// resolved absolute path. An override that names a photo through a symbolic link the job
/// does not go through is not matched; the warning about overrides of no source names it.
struct OverrideIndex {
  private let overrides: OverrideList
  /// The job file's folder, absolute.
  private let base: String
  /// The first override of each source, by the hash of its lexical absolute path: the paths
  /// themselves are not kept (a million of them would be most of the index), they are
  /// rebuilt to compare when the hashes agree.
  private var first: IndexTable
  /// Each override's hash (of its lexical absolute path).
  private var hashes: [Int]
  /// For each override, the next one of the same source (-1: none), in the order they apply.
  private var next: [Int32]

  init(_ overrides: OverrideList, base: String) {
    self.overrides = overrides
    next = Array(repeating: -1, count: overrides.count)
    first = IndexTable(capacity: overrides.count)
    let base = Self.lexicallyAbsolute(base, base: FileManager.default.currentDirectoryPath)
    self.base = base
    hashes = Array(repeating: 0, count: overrides.count)
    for index in overrides.indices {
      let key = Self.lexicallyAbsolute(overrides.source(at: index), base: base)
      hashes[index] = key.hashValue
      guard var at = find(key, hash: hashes[index]) else {
        first.insert(hash: hashes[index], index: index) { hashes[$0] }
        continue
      }
      while next[at] >= 0 { at = Int(next[at]) }
      next[at] = Int32(index)
    }
  }

  /// The first override whose source is `key` (a lexical absolute path), if any.
  private func find(_ key: String, hash: Int) -> Int? {
    first.find(hash: hash) {
      hashes[$0] == hash && Self.lexicallyAbsolute(overrides.source(at: $0), base: base) == key
    }
  }

  /// The overrides of `source` in the order they apply, for every job. A source an earlier
  /// job writes (`from:`) has a path relative to the output root: it is found by its
  /// absolute path only.
  func indices(of source: PlannedSource) -> [Int] {
    guard !overrides.isEmpty else { return [] }  // no table: no path to make absolute
    func lookup(_ key: String) -> Int? { find(key, hash: key.hashValue) }
    let lexical = source.producedBy == nil ? lookup(Self.lexicallyAbsolute(source.path, base: base)) : nil
    var result: [Int] = []
    var at = lexical ?? lookup(source.absolutePath) ?? -1
    while at >= 0 {
      result.append(at)
      at = Int(next[at])
    }
    return result
  }

  /// `place` with every override of `source` for `job` (or for every job) applied, in order.
  func place(_ place: PlaceSpec, job: String, source: PlannedSource) -> PlaceSpec {
    var result = place
    for index in indices(of: source) where applies(index, to: job) { result = result.applying(overrides[index]) }
    return result
  }

  /// What the overrides of a source do for one job: its placement, or why it fails.
  struct Applied {
    var place: PlaceSpec
    /// A crop table row with problems under `on_error: fail-row`: the source fails.
    var failure: String?
    /// Whether a row of the crop table applies (for `require_crop`).
    var hasRow: Bool
    /// An inline override that replaced a row's crop by setting one of the fields a crop
    /// excludes (`zoom`...): the row's line, the override's mark and those fields.
    var replacedRowCrop: (row: Int, inline: SourceMark, fields: [String])? = nil
  }

  /// `place` with every override of `source` for `job` applied in order, a crop table's
  /// framed or relative crops made cropjob's crops for `header` (`settings`: the table's).
  func apply(
    _ place: PlaceSpec, job: String, source: PlannedSource, header: SourceHeader, settings: CropTableSettings
  ) -> Applied {
    var result = Applied(place: place, failure: nil, hasRow: false)
    let photo = Size(width: Double(header.width), height: Double(header.height))
    let folded = settings.foldedOrientation(isJPEG: header.format == .jpeg, orientation: header.orientation)
    var rowCrop: Int? = nil
    for index in indices(of: source) where applies(index, to: job) {
      let override = overrides[index]
      let isRow = index < overrides.table.count
      if isRow { result.hasRow = true }
      if let failure = override.failure, result.failure == nil { result.failure = failure }
      let excluded = JobSchema.cropExcludes.filter(override.fields.contains)
      if !isRow, let row = rowCrop, result.place.crop != nil, !override.fields.contains("crop"), !excluded.isEmpty {
        result.replacedRowCrop = (row, override.mark, excluded)
      }
      result.place = result.place.applying(override.resolved(photo: photo, folded: folded))
      if isRow && override.fields.contains("crop") { rowCrop = override.mark.line }
    }
    return result
  }

  /// Marks in `used` the overrides that `job` takes for `source` (one per override: the
  /// planner calls it for each source each job reads, window by window).
  func markUsed(job: String, source: PlannedSource, in used: inout [Bool]) {
    guard !overrides.isEmpty else { return }
    for index in indices(of: source) where applies(index, to: job) { used[index] = true }
  }

  /// Whether override `index` applies to `job`: it names it, or no job.
  private func applies(_ index: Int, to job: String) -> Bool {
    let named = overrides.job(at: index)
    return named == nil || named == job
  }

  var count: Int { overrides.count }

  /// `path` joined to the absolute `base` (unless absolute) with empty and `.` segments
  /// dropped and `..` taking one off, as text.
  static func lexicallyAbsolute(_ path: String, base: String) -> String {
    let joined = path.hasPrefix("/") ? path : base + "/" + path
    var clean = !joined.hasSuffix("/")
    if clean {
      for segment in joined.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
      where segment.isEmpty || segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) {
        clean = false
        break
      }
    }
    if clean { return joined }
    var parts: [Substring] = []
    for segment in joined.split(separator: "/") where segment != "." {
      if segment == ".." {
        _ = parts.popLast()
      } else {
        parts.append(segment)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
