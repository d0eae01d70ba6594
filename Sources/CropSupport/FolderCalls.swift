internal import CSystem
import Glibc

/// The C calls behind `OpenFolder`, in a file of their own: a file that imports CSystem may see
/// glibc's `struct stat` through it, as an internal type (CSystem's header includes
/// sys/stat.h), and then `OpenFolder.lstat`, a package method returning one, does not compile
/// — on a clean build, depending on the order the compiler loads the modules in.
enum FolderCalls {
  /// cj_open_folder: open(2) with O_PATH | O_DIRECTORY | O_CLOEXEC; -1 with errno set.
  static func open(_ path: String) -> Int32 { cj_open_folder(path) }

  /// cj_lstat_in: fstatat(2) of `name` in `folder` without following a symbolic link.
  static func lstat(in folder: Int32, _ name: String, _ status: inout Glibc.stat) -> Int32 {
    cj_lstat_in(folder, name, &status)
  }
}
