import Foundation
import Glibc

/// A folder held open for `lstat`s of the files in it by name: the kernel walks one name
/// from the open folder instead of every component of the file's absolute path. The answer
/// is what `lstat` of the folder's path + "/" + the name gives, as long as the folder is not
/// moved or replaced while held. Closed when released.
package final class OpenFolder {
  /// The folder's path, as opened.
  package let path: String
  private let descriptor: Int32

  /// Opens the folder at `path` (following its symlinks, as a path walk through it does);
  /// nil when it cannot be (missing, not a folder, not searchable on the way).
  package init?(path: String) {
    let descriptor = FolderCalls.open(path)
    guard descriptor >= 0 else { return nil }
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// `lstat` of the file `name` in the folder (nil when it fails: nothing there, no search
  /// permission, a name too long).
  package func lstat(_ name: String) -> Glibc.stat? {
    var status = Glibc.stat()
    return FolderCalls.lstat(in: descriptor, name, &status) == 0 ? status : nil
  }
}
