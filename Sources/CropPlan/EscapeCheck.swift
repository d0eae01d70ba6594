import CropSupport
import Foundation

/// `OutputPaths.escapeProblem` for all the outputs of one plan, with what depends only on an
/// output's folder worked out once per folder: its standardised path (which resolves the
/// folder's symlinks), the nearest folder that exists, and where that one really is. What is
/// left per output is one `lstat` of the file (is it a symlink?), by its name in the folder
/// held open; a file that is a symlink,
/// and any path of an unusual form, goes through `escapeProblem` itself, so that every answer
/// and message is the one `escapeProblem` gives.
///
/// The folders are taken as they are when first asked about: the executor checks each output
/// again with `escapeProblem` just before writing it.
package struct EscapeCheck {
  private let root: String
  private let rootStandard: String
  /// `rootStandard` and "/": what every output's standardised path starts with.
  private let rootPrefix: String
  private let realRoot: String
  private var folders: [String: Folder] = [:]
  /// The folders last asked about (a few: a job may write each source's outputs to several
  /// folders), held open for the `lstat`s of their files (outputs come folder by folder);
  /// nil where one could not be opened.
  private var opened: [(path: String, folder: OpenFolder?)] = []
  /// The next of `opened` to replace.
  private var oldest = 0

  /// What the check needs to know about one output folder.
  private struct Folder {
    /// `standardizingPath` of the folder, or nil when outputs in it take the full check.
    var standard: String?
    /// The folder's problem (a symlink out of the root), if any.
    var problem: String?
  }

  package init(root: String) {
    self.root = root
    rootStandard = (root as NSString).standardizingPath
    rootPrefix = rootStandard + "/"
    realRoot = OutputPaths.realPath(rootStandard) ?? rootStandard
  }

  /// Why the absolute path `path` would leave the root, or nil: `escapeProblem(path, root:)`.
  package mutating func problem(_ path: String) -> String? {
    var file: SourceFileStatus?? = nil
    return problem(path, file: &file)
  }

  /// `problem(_:)`, with what `stat` of the file says when the check learnt it (its `lstat`
  /// found no symlink): `.some(nil)` when there is no file, nil when not learnt.
  package mutating func problem(_ path: String, file: inout SourceFileStatus??) -> String? {
    file = nil
    guard let (folderPath, name) = StandardPaths.split(path) else { return OutputPaths.escapeProblem(path, root: root) }
    let folder: Folder
    if let known = folders[folderPath] {
      folder = known
    } else {
      folder = describe(folderPath)
      folders[folderPath] = folder
    }
    guard let standardFolder = folder.standard else { return OutputPaths.escapeProblem(path, root: root) }
    // `standardizingPath` resolves a path component by component; the file's own component
    // changes the result only when the file is a symlink.
    let standard = standardFolder + "/" + name
    let link = linkStatus(standard, folder: standardFolder, name: name)
    if link.isSymlink { return OutputPaths.escapeProblem(path, root: root) }
    file = .some(link.status)
    guard standard.hasPrefix(rootPrefix) else {
      return "resolves to \(standard), outside the output root \(rootStandard)"
    }
    return folder.problem
  }

  /// `StandardPaths.linkStatus(path)` of `path` = `folder` + "/" + `name`, by a lookup of
  /// `name` in the folder held open (the whole path's when it cannot be held, or when its
  /// length alone would make `lstat` fail).
  private mutating func linkStatus(_ path: String, folder: String, name: String) -> (
    isSymlink: Bool, status: SourceFileStatus?
  ) {
    let open: OpenFolder?
    if let held = opened.first(where: { $0.path == folder }) {
      open = held.folder
    } else {
      open = OpenFolder(path: folder)
      if opened.count < 4 {
        opened.append((folder, open))
      } else {
        opened[oldest] = (folder, open)
        oldest = (oldest + 1) % opened.count
      }
    }
    guard let open, !name.isEmpty, path.utf8.count < Int(PATH_MAX) else {
      return StandardPaths.linkStatus(path)
    }
    guard let info = open.lstat(name) else { return (false, nil) }
    if (info.st_mode & S_IFMT) == S_IFLNK { return (true, nil) }
    return (false, SourceFileStatus(info))
  }

  private func describe(_ folderPath: String) -> Folder {
    guard let standard = StandardPaths.folderStandard(folderPath) else { return Folder(standard: nil, problem: nil) }
    return Folder(
      standard: standard,
      problem: OutputPaths.folderProblem(standard, rootStandard: rootStandard, realRoot: realRoot))
  }
}
