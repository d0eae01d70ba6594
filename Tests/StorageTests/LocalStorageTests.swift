import CropStorage
import CropSupport
import Foundation
import TestSupport
import XCTest

/// The local file system behind the storage seam: listings in S3's order (checked against
/// Python's sort of `os.walk`), string prefixes, ranges, and writes that replace only what
/// they may.
final class LocalStorageTests: XCTestCase {
  func testListingIsInByteOrderWithStringPrefixes() throws {
    let root = TestPaths.scratch()
    let names = [
      "a/b.jpg", "a-b.jpg", "a.jpg", "a/b/c.jpg", "ab/x.jpg", "é/1.jpg", "Z.jpg", "a/.hidden", "deep/1/2/3/4.jpg",
      "a/\(AtomicWriter.temporaryPrefix)123-x-1",
    ]
    for name in names {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(name.utf8).write(to: url)
    }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("empty/folder"), withIntermediateDirectories: true)
    let python = try Subprocess.run(
      TestPaths.python ?? "/usr/bin/python3",
      [
        "-c",
        """
        import os, sys
        root = sys.argv[1]
        keys = [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs]
        keys = [k for k in keys if not os.path.basename(k).startswith(".cropjob-tmp-")]
        print("\\n".join(sorted(keys, key=lambda k: k.encode())))
        """, root.path,
      ])
    let expected = python.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(expected.count, 9)
    let storage = LocalStorage(root: root.path)
    for pageSize in [1, 2, 1000] {
      XCTAssertEqual(try storage.listAll(prefix: "", pageSize: pageSize).map(\.key), expected, "page \(pageSize)")
    }
    XCTAssertEqual(try storage.listAll(prefix: "a").map(\.key), expected.filter { $0.hasPrefix("a") })
    XCTAssertEqual(try storage.listAll(prefix: "a/").map(\.key), ["a/.hidden", "a/b.jpg", "a/b/c.jpg"])
    XCTAssertEqual(try storage.listAll(prefix: "a/b").map(\.key), ["a/b.jpg", "a/b/c.jpg"])
    XCTAssertEqual(try storage.listAll(prefix: "deep/1/2/").map(\.key), ["deep/1/2/3/4.jpg"])
    XCTAssertEqual(try storage.listAll(prefix: "missing/").map(\.key), [])
    let pages = storage.list(prefix: "", pageSize: 4)
    var sizes: [Int] = []
    while let page = try pages.next() { sizes.append(page.count) }
    XCTAssertEqual(sizes, [4, 4, 1])
  }

  func testStatReadAndRanges() throws {
    let root = TestPaths.scratch()
    let storage = LocalStorage(root: root.path)
    let content = (0..<5000).map { UInt8($0 % 251) }
    try storage.write(content, to: "x/y.bin", options: WriteOptions(contentType: "application/octet-stream"))
    let info = try XCTUnwrap(try storage.stat("x/y.bin"))
    XCTAssertEqual(info.size, 5000)
    var status = stat()
    XCTAssertEqual(stat(root.appendingPathComponent("x/y.bin").path, &status), 0)
    guard case .file(let size, let mtime, _, let inode, _) = info.token else { return XCTFail("\(info.token)") }
    XCTAssertEqual(size, 5000)
    XCTAssertEqual(inode, UInt64(status.st_ino))
    XCTAssertEqual(mtime, Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    XCTAssertEqual(try storage.read("x/y.bin"), content)
    XCTAssertEqual(try storage.read("x/y.bin", range: ByteRange(offset: 100, length: 10)), Array(content[100..<110]))
    XCTAssertEqual(try storage.read("x/y.bin", range: ByteRange(offset: 4990, length: 100)), Array(content[4990...]))
    XCTAssertEqual(try storage.read("x/y.bin", range: ByteRange(offset: 5000, length: 1)), [])
    XCTAssertNil(try storage.stat("x/none"))
    XCTAssertNil(try storage.stat("x"), "a folder is not an object")
    XCTAssertThrowsError(try storage.read("x/none")) { XCTAssertEqual(($0 as? StorageError)?.kind, .notFound) }
    for bad in ["../escape", "/abs", "a//b", "a/./b", ""] {
      XCTAssertThrowsError(try storage.stat(bad), bad)
    }
    try storage.delete("x/y.bin")
    try storage.delete("x/y.bin")
    XCTAssertNil(try storage.stat("x/y.bin"))
  }

  func testWritesReplaceOnlyWhatTheyMay() throws {
    let root = TestPaths.scratch()
    let storage = LocalStorage(root: root.path)
    let foreign = root.appendingPathComponent("out/foreign.jpg")
    try FileManager.default.createDirectory(at: foreign.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("theirs".utf8).write(to: foreign)
    let jpeg = WriteOptions(contentType: "image/jpeg")
    XCTAssertThrowsError(try storage.write([1], to: "out/foreign.jpg", options: jpeg)) {
      XCTAssertEqual(($0 as? StorageError)?.kind, .exists)
    }
    XCTAssertEqual(try Data(contentsOf: foreign), Data("theirs".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: foreign.deletingLastPathComponent().path)
    XCTAssertEqual(names, ["foreign.jpg"], "no temporary file left behind")

    try storage.write([1], to: "out/ours.jpg", options: jpeg)
    let token = try XCTUnwrap(try storage.stat("out/ours.jpg")).token
    var again = jpeg
    again.overwrite = .ifUnchanged(token)
    try storage.write([2, 2], to: "out/ours.jpg", options: again)
    XCTAssertEqual(try storage.read("out/ours.jpg"), [2, 2])
    // The recorded token is now stale: the file changed since.
    XCTAssertThrowsError(try storage.write([3], to: "out/ours.jpg", options: again)) {
      XCTAssertEqual(($0 as? StorageError)?.kind, .exists)
    }
    var told = jpeg
    told.overwrite = .always
    try storage.write([4], to: "out/foreign.jpg", options: told)
    XCTAssertEqual(try storage.read("out/foreign.jpg"), [4])
  }
}
