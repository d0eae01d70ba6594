import CropSupport
import Foundation

/// `standardizingPath` for many absolute paths, each folder standardised once.
/// `standardizingPath` resolves a path component by component (a `readlink` each), so the
/// last component changes the result only when it is a symlink: per path, what is left is
/// one `lstat`. A path that is a symlink, and any path of an unusual form, goes through
/// `standardizingPath` itself, so that every answer is the one it gives.
///
/// The folders are taken as they are when first asked about.
package struct StandardPaths {
  private var folders: [String: String?] = [:]

  package init() {}

  /// `(path as NSString).standardizingPath`.
  package mutating func standard(_ path: String) -> String {
    var plain = false
    return standard(path, plain: &plain)
  }

  /// `standard(_:)`, saying in `plain` whether the answer was its folder's standard form and
  /// its name (the name no symlink). Given `plain` true (from an earlier call with the same
  /// path), the name is taken to be no symlink still: no `lstat`.
  package mutating func standard(_ path: String, plain: inout Bool) -> String {
    let known = plain
    plain = false
    guard let (folder, name) = Self.split(path) else { return (path as NSString).standardizingPath }
    let standardFolder: String?
    if let known = folders[folder] {
      standardFolder = known
    } else {
      standardFolder = Self.folderStandard(folder)
      folders[folder] = standardFolder
    }
    guard let standardFolder else { return (path as NSString).standardizingPath }
    let standard = standardFolder + "/" + name
    if known || !Self.isSymlink(standard) {
      plain = true
      return standard
    }
    return (path as NSString).standardizingPath
  }

  /// An absolute path's folder (as written: `standardizingPath` of it collapses `//` as it
  /// would in the whole path) and last component, or nil when the last component is not a
  /// plain name or the folder is `/`.
  static func split(_ path: String) -> (folder: String, name: String)? {
    guard path.utf8.first == UInt8(ascii: "/"), path.utf8.last != UInt8(ascii: "/"),
      let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex
    else { return nil }
    let name = String(path[path.index(after: slash)...])
    guard name != ".", name != ".." else { return nil }
    return (String(path[..<slash]), name)
  }

  /// `standardizingPath` of an absolute folder, or nil when appending a name to it is not
  /// what `standardizingPath` of the longer path would give: the prefixes it strips
  /// (`/private`, `/var/automount`) and forms where it is not plain concatenation.
  static func folderStandard(_ folder: String) -> String? {
    let standard = (folder as NSString).standardizingPath
    let stripped = ["/private", "/var/automount"].contains { folder.hasPrefix($0) || standard.hasPrefix($0) }
    guard !stripped, standard.hasPrefix("/"), standard != "/", !standard.hasSuffix("/"), !standard.contains("//"),
      PathText.deletingLastComponent(standard + "/x") == standard
    else { return nil }
    return standard
  }

  /// Whether `path` is a symlink itself (`lstat`; false when there is nothing there).
  static func isSymlink(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
  }

  /// `isSymlink`, with what `stat` of the path would say when it is not one (nil: nothing
  /// there).
  static func linkStatus(_ path: String) -> (isSymlink: Bool, status: SourceFileStatus?) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return (false, nil) }
    if (info.st_mode & S_IFMT) == S_IFLNK { return (true, nil) }
    return (false, SourceFileStatus(info))
  }
}
