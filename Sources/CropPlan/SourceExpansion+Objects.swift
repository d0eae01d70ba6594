import CropStorage
import CropSupport

extension SourceExpansion {
  /// The keys a listing asks for per page (S3's most).
  static let listPageSize = 1000

  /// Adds the objects `pattern` (`key` in `store`, a store reached only through the storage
  /// seam) matches, with the rules of files: a key glob (`*`, `?`, `[…]` within one part of
  /// the key, `**` across parts) is listed under its literal part as the prefix and the keys
  /// below it are matched; a key without wildcards is the object of that key, else the
  /// "folder" of that prefix (every image key below it); `s3://bucket` and a key ending in
  /// `/` are folders. As for files, a part starting with `.` is skipped below the pattern's
  /// literal base, and keys ending in `/` (folder markers) are not objects. Each match keeps
  /// the size and change token the listing gave.
  static func listObjects(
    _ pattern: String, store: any ObjectStorage, key: String, into list: inout MatchList
  ) throws(StorageError) {
    let locationPrefix = store.displayName + "/"
    func add(_ object: ObjectInfo, _ subdirectory: String) {
      list.objects.set(list.count, store: store, info: object)
      list.paths.append(locationPrefix + object.key)
      list.subdirectories.append(subdirectory)
      list.regular.append(true)
    }
    func each(under prefix: String, pageSize: Int = listPageSize, _ body: (ObjectInfo) -> Bool) throws(StorageError) {
      let pages = store.list(prefix: prefix, pageSize: pageSize)
      while let page = try pages.next() {
        for object in page where !body(object) { return }
      }
    }
    func visible(_ relative: Substring) -> Bool {
      !relative.isEmpty && !relative.hasSuffix("/") && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
    }
    let components = key.split(separator: "/", omittingEmptySubsequences: false)
    guard let firstWild = components.firstIndex(where: { $0.contains { "*?[".contains($0) } }) else {
      if !key.isEmpty && !key.hasSuffix("/") {
        var found: ObjectInfo? = nil
        try each(under: key, pageSize: 1) { object in
          if object.key == key { found = object }
          return false
        }
        if let found { return add(found, "") }
      }
      // A folder: every image below it.
      let folder = key.isEmpty || key.hasSuffix("/") ? key : key + "/"
      try each(under: folder) { object in
        let relative = object.key.dropFirst(folder.count)
        if visible(relative), imageExtensions.contains(PathText.pathExtension(String(relative)).lowercased()) {
          add(object, PathText.deletingLastComponent(String(relative)))
        }
        return true
      }
      return
    }
    let literal = components[..<firstWild].joined(separator: "/")
    let prefix = literal.isEmpty ? "" : literal + "/"
    let matcher = GlobPattern(components[firstWild...].joined(separator: "/"))
    try each(under: prefix) { object in
      let relative = object.key.dropFirst(prefix.count)
      if visible(relative), matcher.matches(String(relative)) {
        add(object, PathText.deletingLastComponent(String(relative)))
      }
      return true
    }
  }
}
