import Foundation
import XCTest

/// The regular files below `root`, as paths relative to it, sorted; folders are walked,
/// not listed, and links are not followed. Empty when `root` does not exist. The state
/// database (`.cropjob/` in an output root) is left out: its bytes differ from run to run
/// (times of recording), and tests that look at it open it.
public func regularFiles(below root: String) -> [String] {
  guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
  var files: [String] = []
  while let relative = walker.nextObject() as? String {
    if relative == ".cropjob" {
      walker.skipDescendants()
      continue
    }
    if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(relative) }
  }
  return files.sorted()
}

/// Every regular file below `root` (relative path → bytes), skipping nothing; throws when a
/// file cannot be read, so that an unreadable output is not mistaken for a missing one.
public func treeContents(_ root: String) throws -> [String: Data] {
  var result: [String: Data] = [:]
  for relative in regularFiles(below: root) {
    result[relative] = try Data(contentsOf: URL(fileURLWithPath: (root as NSString).appendingPathComponent(relative)))
  }
  return result
}

/// Asserts two trees (from `treeContents`) hold the same files with the same bytes, leaving
/// out the paths `ignoring` accepts; `message` says which trees.
public func assertSameTree(
  _ a: [String: Data], _ b: [String: Data], ignoring: (String) -> Bool = { _ in false }, _ message: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  let left = a.filter { !ignoring($0.key) }
  let right = b.filter { !ignoring($0.key) }
  XCTAssertEqual(Set(left.keys), Set(right.keys), "different files \(message)", file: file, line: line)
  for (path, bytes) in left.sorted(by: { $0.key < $1.key }) where right[path] != nil && right[path] != bytes {
    XCTFail("\(path) differs \(message) (\(bytes.count) vs \(right[path]!.count) bytes)", file: file, line: line)
  }
}
