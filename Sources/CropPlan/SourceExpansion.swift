import CropStorage
import CropSupport
import Foundation

/// Expands `sources` (files, globs with `*`, `?`, `[...]` and `**`, folders) minus `exclude`
/// patterns into a sorted, de-duplicated list of files.
package enum SourceExpansion {
  /// File extensions a folder entry picks up (globs and files are taken as written).
  package static let imageExtensions: Set<String> = [
    "jpg", "jpeg", "png", "webp", "tif", "tiff", "gif", "heic", "heif", "avif",
  ]

  /// One expanded file: its path as the job file's folder sees it, and the folder part
  /// below the pattern's literal base (for the `{dir}` placeholder).
  package struct Match: Sendable, Hashable {
    package var path: String
    package var subdirectory: String
  }

  /// Expands patterns relative to `base`. Patterns that match nothing are returned in
  /// `unmatched` so that the planner can report them.
  /// An `s3://` pattern whose listing fails is among `unmatched` (the planner reports why).
  package static func expand(include: [String], exclude: [String], base: String) -> (
    matches: [Match], unmatched: [String]
  ) {
    let (list, unmatched, _) = expandCompact(include: include, exclude: exclude, base: base)
    return ((0..<list.count).map { Match(path: list.paths[$0], subdirectory: list.subdirectories[$0]) }, unmatched)
  }

  /// Expanded files held compactly (a batch has a million): their paths and subfolders in
  /// order (sorted by path).
  package struct MatchList: Sendable {
    package var paths = StringTable()
    /// Each match's subfolder (mostly the one before's: kept once a run).
    package var subdirectories = StringRuns()
    /// Whether each match was found by a folder walk, as a regular file (`readdir`'s type):
    /// its name is no symlink, and making it absolute needs no `lstat` of it
    /// (`StandardPaths.standard(_:plain:)`). False for a file named as such.
    package var regular: [Bool] = []
    /// What the listing said of the matches in object storage (store, size, change token), by
    /// their index here; none for files.
    package var objects = SourceObjects()
    package var count: Int { paths.count }
  }

  /// `expand`, with the matches in one buffer each for paths and subfolders: the same
  /// files in the same order (sorted by path; a file matched by several patterns takes the
  /// first pattern's subfolder). A pattern in object storage (`s3://bucket/key`) is listed
  /// through `storage`; a listing that fails (no such bucket, no permission) is in
  /// `failures` and its pattern matches nothing.
  package static func expandCompact(
    include: [String], exclude: [String], base: String, storage: StorageSet = StorageSet()
  ) -> (matches: MatchList, unmatched: [String], failures: [StorageError]) {
    var all = MatchList()
    var unmatched: [String] = []
    var failures: [StorageError] = []
    for pattern in include {
      let before = all.count
      do throws(StorageError) {
        try expandOne(pattern, base: base, storage: storage, into: &all)
      } catch {
        failures.append(error)
      }
      if all.count == before { unmatched.append(pattern) }
    }
    let ascii = all.paths.isASCII
    // A listing in object storage gives its keys sorted: matches already in strictly
    // ascending order, none excluded, are the result as they are (not copied).
    if exclude.isEmpty, ascii, (0..<max(0, all.count - 1)).allSatisfy({ all.paths.less($0, $0 + 1) }) {
      all.paths.shrink()
      all.subdirectories.shrink()
      all.objects.shrink()
      return (all, unmatched, failures)
    }
    // Sorted by path; for equal paths, the first pattern's match (a stable sort) is kept.
    var order = Array(0..<all.count)
    order.sort { a, b in
      if ascii {
        if all.paths.less(a, b) { return true }
        if all.paths.less(b, a) { return false }
      } else {
        let (x, y) = (all.paths[a], all.paths[b])
        if x != y { return x < y }
      }
      return a < b
    }
    var result = MatchList()
    result.paths.reserveCapacity(strings: all.count, bytes: all.paths.byteCount)
    var previous: Int? = nil
    for index in order {
      if let previous, all.paths.equal(previous, index) { continue }
      previous = index
      let path = all.paths[index]
      if exclude.contains(where: { excludeMatches($0, path: path, base: base) }) { continue }
      if !all.objects.isEmpty { result.objects.set(result.count, as: index, in: all.objects) }
      result.paths.append(path)
      result.subdirectories.append(all.subdirectories[index])
      result.regular.append(all.regular[index])
    }
    result.paths.shrink()
    result.subdirectories.shrink()
    result.objects.shrink()
    return (result, unmatched, failures)
  }

  static func excludeMatches(_ pattern: String, path: String, base: String) -> Bool {
    let full = absolute(pattern, base: base)
    let target = absolute(path, base: base)
    if GlobPattern(full).matches(target) { return true }
    // A bare name or name pattern excludes that file name anywhere.
    if !pattern.contains("/") { return GlobPattern(pattern).matches(PathText.lastComponent(path)) }
    return false
  }

  /// `path` joined to `base`, made absolute against the current folder when `base` is
  /// relative (a job file given as `jobs/x.yaml`), and standardised (`a/../b` → `b`).
  /// A location with a scheme (`s3://bucket/key`) is absolute as it is.
  package static func absolute(_ path: String, base: String) -> String {
    if StorageLocation.hasScheme(path) { return path }
    return (joined(path, base: base) as NSString).standardizingPath
  }

  /// `absolute(_:base:)` for many paths, each folder standardised once.
  static func absolute(_ path: String, base: String, paths: inout StandardPaths) -> String {
    if StorageLocation.hasScheme(path) { return path }
    return paths.standard(joined(path, base: base))
  }

  /// `absolute(_:base:paths:)`, with `StandardPaths.standard(_:plain:)`'s `plain`; `cwd`:
  /// the current folder, asked for once by a caller that makes many paths absolute (nil:
  /// asked for here when needed).
  static func absolute(
    _ path: String, base: String, cwd: String? = nil, paths: inout StandardPaths, plain: inout Bool
  ) -> String {
    if StorageLocation.hasScheme(path) { return path }
    return paths.standard(joined(path, base: base, cwd: cwd), plain: &plain)
  }

  private static func joined(_ path: String, base: String, cwd: String? = nil) -> String {
    var joined = path.hasPrefix("/") ? path : PathText.appending(base, path)
    if !joined.hasPrefix("/") {
      joined = PathText.appending(cwd ?? FileManager.default.currentDirectoryPath, joined)
    }
    return joined
  }

  private static func expandOne(
    _ pattern: String, base: String, storage: StorageSet, into list: inout MatchList
  ) throws(StorageError) {
    // A store that is a file system is walked as it always was (readdir, no stat per file);
    // any other is listed through the storage seam.
    let (store, key) = try storage.open(pattern, directory: base)
    guard store.filePath(key) != nil else { return try listObjects(pattern, store: store, key: key, into: &list) }
    func add(_ path: String, _ subdirectory: String, regular: Bool) {
      list.paths.append(joinKeepingForm(path))
      list.subdirectories.append(subdirectory)
      list.regular.append(regular)
    }
    let fm = FileManager.default
    let hasWildcard = pattern.contains { "*?[".contains($0) }
    let full = absolute(pattern, base: base)
    if !hasWildcard {
      var isDir: ObjCBool = false
      guard fm.fileExists(atPath: full, isDirectory: &isDir) else { return }
      if !isDir.boolValue { return add(pattern, "", regular: false) }
      // A folder: every image below it.
      walk(full) { relative in
        guard imageExtensions.contains(PathText.pathExtension(relative).lowercased()) else { return }
        add(
          PathText.appending(pattern, relative), PathText.deletingLastComponent(relative),
          regular: true)
      }
      return
    }
    // Split the pattern into a literal base folder and the wildcard part.
    let components = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let firstWild = components.firstIndex { $0.contains { "*?[".contains($0) } } ?? components.count
    let literal = components[..<firstWild].joined(separator: "/")
    let rest = components[firstWild...].joined(separator: "/")
    let root = literal.isEmpty ? (pattern.hasPrefix("/") ? "/" : base) : absolute(literal, base: base)
    let matcher = GlobPattern(rest)
    walk(root) { relative in
      guard matcher.matches(relative) else { return }
      add(
        literal.isEmpty ? relative : literal + "/" + relative, PathText.deletingLastComponent(relative), regular: true)
    }
  }

  /// Normalises `./a//b` to `a/b` while keeping `..` as written.
  private static func joinKeepingForm(_ path: String) -> String {
    PathText.joiningComponents(path, keepingRoot: true, droppingDots: true)
  }

  /// Regular files below `root`, as relative paths, each passed to `found` (in no particular
  /// order: the caller sorts); symlinks (to files or folders) and names starting with `.` are
  /// skipped. `readdir` with the entry's type: no `stat` per file (a batch walks a million of
  /// them), one `lstat` only where the file system gives no type.
  private static func walk(_ root: String, _ found: (String) -> Void) {
    var folders: [String] = [""]
    while let relative = folders.popLast() {
      let folder = relative.isEmpty ? root : root + "/" + relative
      guard let stream = opendir(folder) else { continue }
      defer { closedir(stream) }
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard !name.hasPrefix(".") else { continue }
        let path = relative.isEmpty ? name : relative + "/" + name
        var type = entry.pointee.d_type
        if type == UInt8(DT_UNKNOWN) {
          var status = stat()
          guard lstat(folder + "/" + name, &status) == 0 else { continue }
          type =
            (status.st_mode & S_IFMT) == S_IFDIR
            ? UInt8(DT_DIR) : (status.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : 0
        }
        if type == UInt8(DT_DIR) {
          folders.append(path)
        } else if type == UInt8(DT_REG) {
          found(path)
        }
      }
    }
  }
}

/// A shell-style pattern over `/`-separated paths: `*` and `?` stay within one folder,
/// `**` spans any number of folders, `[abc]` and `[a-z]` are character classes.
struct GlobPattern {
  let segments: [String]

  init(_ pattern: String) {
    segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
  }

  func matches(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    return match(segments[...], parts[...])
  }

  private func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
    guard let first = pattern.first else { return parts.isEmpty }
    if first == "**" {
      let rest = pattern.dropFirst()
      var remaining = parts
      while true {
        if match(rest, remaining) { return true }
        guard !remaining.isEmpty else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let part = parts.first, Self.matchSegment(Array(first), Array(part)) else { return false }
    return match(pattern.dropFirst(), parts.dropFirst())
  }

  static func matchSegment(_ p: [Character], _ s: [Character]) -> Bool {
    var pi = 0
    var si = 0
    var star = -1
    var mark = 0
    while si < s.count {
      if pi < p.count, p[pi] == "[", let (matched, next) = matchClass(p, pi, s[si]) {
        if matched {
          pi = next
          si += 1
          continue
        }
      } else if pi < p.count, p[pi] == "?" || (p[pi] == s[si] && p[pi] != "*") {
        pi += 1
        si += 1
        continue
      } else if pi < p.count, p[pi] == "*" {
        star = pi
        mark = si
        pi += 1
        continue
      }
      if star >= 0 {
        pi = star + 1
        mark += 1
        si = mark
        continue
      }
      return false
    }
    while pi < p.count, p[pi] == "*" { pi += 1 }
    return pi == p.count
  }

  /// Matches `[...]` at `start`; returns whether `c` is in it and the index after `]`.
  private static func matchClass(_ p: [Character], _ start: Int, _ c: Character) -> (Bool, Int)? {
    var i = start + 1
    var negate = false
    if i < p.count, p[i] == "!" || p[i] == "^" {
      negate = true
      i += 1
    }
    var matched = false
    var first = true
    while i < p.count, p[i] != "]" || first {
      first = false
      if i + 2 < p.count, p[i + 1] == "-", p[i + 2] != "]" {
        if p[i] <= c && c <= p[i + 2] { matched = true }
        i += 3
      } else {
        if p[i] == c { matched = true }
        i += 1
      }
    }
    guard i < p.count else { return nil }
    return (matched != negate, i + 1)
  }
}
