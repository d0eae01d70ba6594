import Foundation

/// The regular files below `root`, as paths relative to it, sorted; folders are walked,
/// not listed, and links are not followed. Empty when `root` does not exist.
public func regularFiles(below root: String) -> [String] {
  guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
  var files: [String] = []
  while let relative = walker.nextObject() as? String {
    if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(relative) }
  }
  return files.sorted()
}
