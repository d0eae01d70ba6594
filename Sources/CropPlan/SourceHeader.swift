import CropSpec
import CropStorage
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Image formats cropjob reads. Anything else is refused before decoding.
package enum InputFormat: String, Sendable, Codable, CaseIterable {
  case jpeg, png, webp, tiff, gif, heif

  /// Whether libvips can shrink this format while decoding (by 2, 4 or 8).
  package var shrinksOnLoad: Bool { self == .jpeg || self == .webp }

  /// Whether a file of this format with several frames is an animation that `encode.frames:
  /// all` writes frame by frame (GIF, WebP); the pages of a TIFF or HEIF are not.
  package var animates: Bool { self == .gif || self == .webp }

  /// The format a file cropjob wrote in `output` is read back as (a `from:` job's source):
  /// AVIF and HEIC are both HEIF files, which libvips' HEIF loader reads; nil for JPEG XL,
  /// which cropjob does not read.
  package init?(readingBack output: OutputFormat) {
    switch output {
    case .jpeg: self = .jpeg
    case .png: self = .png
    case .webp: self = .webp
    case .avif, .heif: self = .heif
    case .tiff: self = .tiff
    case .gif: self = .gif
    case .jxl: return nil
    }
  }
}

/// What the header of a source says, read without decoding pixels.
package struct SourceHeader: Sendable, Hashable, Codable {
  package var format: InputFormat
  /// Size as stored, before EXIF orientation.
  package var storedWidth: Int
  package var storedHeight: Int
  /// EXIF orientation 1...8.
  package var orientation: Int
  package var bands: Int
  package var hasAlpha: Bool
  package var pages: Int

  package init(
    format: InputFormat, storedWidth: Int, storedHeight: Int, orientation: Int, bands: Int, hasAlpha: Bool, pages: Int
  ) {
    self.format = format
    self.storedWidth = storedWidth
    self.storedHeight = storedHeight
    self.orientation = orientation
    self.bands = bands
    self.hasAlpha = hasAlpha
    self.pages = pages
  }

  /// Size after EXIF orientation: the size every geometry works in.
  package var width: Int { orientation >= 5 ? storedHeight : storedWidth }
  package var height: Int { orientation >= 5 ? storedWidth : storedHeight }

  /// The largest shrink-on-load factor (8, 4, 2, else 1) that still leaves at least one
  /// decoded pixel per output pixel for the largest output (`maxOutputScale` output pixels
  /// per source pixel), so that no output loses resolution.
  package func loadShrink(maxOutputScale: Double) -> Int {
    guard format.shrinksOnLoad, maxOutputScale > 0 else { return 1 }
    return [8, 4, 2].first { Double($0) * maxOutputScale <= 1.0 && $0 <= largestShrink } ?? 1
  }

  /// libvips 8.14 aborts the process (a failed assertion: "bad dimensions") when a JPEG is
  /// shrunk on load by more than its width or height (1x50 at shrink 2), and its WebP loader
  /// fails: a shrink never exceeds the smaller stored dimension (found by fuzz/targets/image).
  package var largestShrink: Int { max(1, min(storedWidth, storedHeight)) }
}

/// What one `stat` of a source says: the planner stats each source once and hands this to the
/// header reader, so that a reader that caches headers by identity needs no stat of its own.
/// As git's index, it holds the status change time and the device besides size, mtime and
/// inode: `touch -r` can restore an mtime after an in-place rewrite, but not the ctime.
package struct SourceFileStatus: Sendable, Hashable {
  package var size: Int64
  /// Modification time in nanoseconds since 1970.
  package var mtime: Int64
  package var inode: UInt64
  /// Status change time in nanoseconds since 1970 (0: not known, as in a state file of
  /// schema 1: never equal to a file's).
  package var ctime: Int64
  /// The device the file is on (0: not known).
  package var device: UInt64

  package init(size: Int64, mtime: Int64, inode: UInt64, ctime: Int64, device: UInt64) {
    self.size = size
    self.mtime = mtime
    self.inode = inode
    self.ctime = ctime
    self.device = device
  }

  /// `stat` of `path` (following links), or nil when it cannot be stat'ed.
  package static func of(path: String) -> SourceFileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return SourceFileStatus(info)
  }

  /// The identity of an object in a store, from its change token, in the fields the state
  /// records for a file (so that "unchanged since recorded" is the same comparison): the
  /// size; the last-modified time (as the listing wrote it, ISO 8601) in nanoseconds as
  /// mtime; the ETag's FNV-1a hash as inode; ctime 0; and `objectDevice` as device, which no
  /// file has, so a file's status never equals an object's. A rewrite with the same size
  /// gets a new ETag, so a new identity.
  package init(object: ObjectInfo) {
    var etag = ""
    var modified = ""
    if case .object(let tag, _, let lastModified, _) = object.token { (etag, modified) = (tag, lastModified) }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in etag.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    self.init(
      size: object.size, mtime: Self.nanoseconds(iso8601: modified), inode: hash, ctime: 0, device: Self.objectDevice)
  }

  /// The device of every object's identity ("S3OBJECT" in ASCII).
  package static let objectDevice: UInt64 = 0x5333_4F42_4A45_4354

  /// `2026-12-07T01:02:03.456Z` in nanoseconds since 1970 (0 when it is not that form).
  static func nanoseconds(iso8601 text: String) -> Int64 {
    let digits = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= digits.count else { return nil }
      var value: Int64 = 0
      for byte in digits[start..<start + count] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month)
    else { return 0 }
    var fraction: Int64 = 0
    if digits.count > 20, digits[19] == UInt8(ascii: ".") {
      var scale: Int64 = 100_000_000
      for byte in digits[20...] where byte >= 0x30 && byte <= 0x39 && scale > 0 {
        fraction += Int64(byte - 0x30) * scale
        scale /= 10
      }
    }
    // Days from 1970-01-01 (the civil-from-days inverse, proleptic Gregorian).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    return ((days * 24 + hour) * 60 + minute) * 60_000_000_000 + second * 1_000_000_000 + fraction
  }

  /// The status `stat` (or `lstat`) filled in.
  init(_ info: stat) {
    self.init(
      size: Int64(info.st_size), mtime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      inode: UInt64(info.st_ino), ctime: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
      device: UInt64(info.st_dev))
  }

  /// The five fields in one number (FNV-1a over them), to tell whether a file changed since
  /// it was looked at in 8 bytes (`PlannedSource.recordedStamp`): equal statuses give equal
  /// stamps.
  package var stamp: UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for field in [UInt64(bitPattern: size), UInt64(bitPattern: mtime), inode, UInt64(bitPattern: ctime), device] {
      hash = (hash ^ field) &* 0x0000_0100_0000_01b3
    }
    return hash
  }
}

/// Reads source headers for the planner: the imaging stage supplies the libvips reader
/// (`VipsHeaderReader`); tests may give another.
package protocol SourceHeaderReading: Sendable {
  /// The version of the decoding library, part of every output's key.
  var engineVersion: String { get }
  /// Prepares for `header(path:)` to be called from several threads at once.
  func start()
  /// The header of the file at `path`; the error's description names the problem.
  func header(path: String) throws -> SourceHeader
  /// The header from the first bytes of a source in object storage (`location` names it in
  /// errors; `complete`: `bytes` are the whole object); nil when they are not complete and
  /// the header could not be read from them (more are needed).
  func header(bytes: [UInt8], location: String, complete: Bool) throws -> SourceHeader?
  /// The header of the file at `path` when it is known without reading the file (a cache
  /// keyed by `status`), with the content hash recorded beside it if any, else nil: the
  /// planner then checks that the file is readable and calls `header(path:)`.
  func knownHeader(path: String, status: SourceFileStatus) -> KnownHeader?
  /// Called (from one thread) before the headers of `paths` are asked for, a window at a
  /// time: a cache may look up what it knows of them.
  func prepare(paths: [String])
  /// The content hashes a cache recorded for `paths` (absolute: one window's sources), each
  /// with the stamp (`SourceFileStatus.stamp`) of the status it was recorded with: what
  /// `knownHeader` gave beside the header, looked up again as each window is planned (the
  /// plan keeps only a flag of a source between its passes, neither hash nor stamp). Called
  /// from one thread.
  func recordedHashes(paths: [String]) -> [String: (sha256: String, stamp: UInt64)]
  /// The regions stored in the file's XMP packet (`XMPRegionParser`), read only for jobs
  /// that ask for `focus: regions`; no packet gives no regions and no problem.
  func storedRegions(path: String) throws -> XMPRegionParser.Reading
}

extension SourceHeaderReading {
  /// A reader of files only: a source in object storage has no header.
  package func header(bytes: [UInt8], location: String, complete: Bool) throws -> SourceHeader? {
    throw ObjectHeaderUnsupported(location: location)
  }

  /// No cache: every header is read.
  package func knownHeader(path: String, status: SourceFileStatus) -> KnownHeader? { nil }
  /// No cache: nothing to prepare.
  package func prepare(paths: [String]) {}
  /// No cache: no hash recorded.
  package func recordedHashes(paths: [String]) -> [String: (sha256: String, stamp: UInt64)] { [:] }
  /// A reader that knows no regions (test doubles that only give headers).
  package func storedRegions(path: String) throws -> XMPRegionParser.Reading { XMPRegionParser.Reading() }
}

/// A header known without reading the file (`SourceHeaderReading.knownHeader`): what a
/// cache recorded of the file when it had the status it has now, and the content hash
/// recorded with it (nil when none was).
package struct KnownHeader: Sendable {
  package var header: SourceHeader
  package var sha256: String?

  package init(header: SourceHeader, sha256: String?) {
    self.header = header
    self.sha256 = sha256
  }
}

/// What a header reader of files only says of a source in object storage.
package struct ObjectHeaderUnsupported: Error, CustomStringConvertible {
  package var location: String
  package var description: String { "\(location): this header reader reads files only" }
}
