import CropPlan
import CropSpec
import CropStorage
import Foundation
import TestSupport
import XCTest

/// Sources in S3 are listed through the storage seam with the same rules as files: the
/// same tree on disk and in a bucket (moto on loopback, one server for the class) expands to
/// the same relative paths and subfolders, for folders, files, globs with `**` and excludes.
final class S3SourceExpansionTests: XCTestCase {
  nonisolated(unsafe) static var moto: MotoS3?
  nonisolated(unsafe) static var tree: URL?
  static let files = [
    "photos/a.jpg", "photos/b.JPG", "photos/sub/c.png", "photos/sub/deep/f.jpg", "photos/sub/.hidden/d.jpg",
    "photos/.e.jpg", "photos/notes.txt", "photos-old/z.jpg", "photos/sub/g.jpg.tmp", "other/h.jpg",
  ]

  override class func setUp() {
    super.setUp()
    guard let moto = try? MotoS3(name: "S3SourceExpansionTests") else { return }
    let tree = moto.folder.appendingPathComponent("tree")
    for file in files {
      let url = tree.appendingPathComponent(file)
      try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: url.path, contents: Data(file.utf8))
    }
    _ = try? moto.client(["make-bucket", "bkt"])
    _ = try? moto.client(["put-tree", "bkt", "", tree.path])
    (self.moto, self.tree) = (moto, tree)
  }

  override class func tearDown() {
    moto?.stop()
    super.tearDown()
  }

  func storage() throws -> StorageSet {
    let moto = try XCTUnwrap(Self.moto, "moto did not start (run scripts/install-deps.sh)")
    var environment = MotoS3.environment
    environment["AWS_ENDPOINT_URL"] = moto.endpoint
    return StorageSet(environment: environment, home: "/nonexistent")
  }

  /// Expands `include` minus `exclude` over the bucket and over the tree on disk; both must
  /// give the same paths below their root and the same subfolders.
  func expandBoth(_ include: [String], exclude: [String] = [], file: StaticString = #filePath, line: UInt = #line)
    throws -> [String]
  {
    let tree = try XCTUnwrap(Self.tree)
    let storage = try storage()
    let s3 = SourceExpansion.expandCompact(
      include: include.map { "s3://bkt/" + $0 }, exclude: exclude.map { $0.contains("/") ? "s3://bkt/" + $0 : $0 },
      base: "/nonexistent", storage: storage)
    XCTAssertEqual(s3.failures, [], file: file, line: line)
    let local = SourceExpansion.expandCompact(include: include, exclude: exclude, base: tree.path)
    let s3Paths = (0..<s3.matches.count).map { String(s3.matches.paths[$0].dropFirst("s3://bkt/".count)) }
    let localPaths = (0..<local.matches.count).map { local.matches.paths[$0] }
    XCTAssertEqual(s3Paths, localPaths, "the same files in the same order", file: file, line: line)
    XCTAssertEqual(
      (0..<s3.matches.count).map { s3.matches.subdirectories[$0] },
      (0..<local.matches.count).map { local.matches.subdirectories[$0] }, file: file, line: line)
    XCTAssertEqual(
      s3.unmatched.map { String($0.dropFirst("s3://bkt/".count)) }, local.unmatched, file: file, line: line)
    // Every match keeps the listing's size and change token: no request per photo later.
    for index in 0..<s3.matches.count {
      let path = s3.matches.paths[index]
      let object = try XCTUnwrap(s3.matches.objects.object(index, path: path), file: file, line: line)
      XCTAssertEqual("s3://bkt/" + object.key, path, file: file, line: line)
      let listed = try XCTUnwrap(
        try object.store.listAll(prefix: object.key).first { $0.key == object.key }, file: file, line: line)
      XCTAssertEqual(object.identity, SourceFileStatus(object: listed), file: file, line: line)
      XCTAssertEqual(object.size, Int64(object.key.utf8.count), file: file, line: line)
    }
    return s3Paths
  }

  func testFoldersFilesGlobsAndExcludesMatchAsOnDisk() throws {
    XCTAssertEqual(
      try expandBoth(["photos"]), ["photos/a.jpg", "photos/b.JPG", "photos/sub/c.png", "photos/sub/deep/f.jpg"])
    XCTAssertEqual(try expandBoth(["photos/"]).count, 4)
    XCTAssertEqual(try expandBoth(["photos/**/*.jpg"]), ["photos/a.jpg", "photos/sub/deep/f.jpg"])
    XCTAssertEqual(try expandBoth(["photos/*/*.png", "other/h.jpg"]), ["other/h.jpg", "photos/sub/c.png"])
    XCTAssertEqual(try expandBoth(["p*/*.jpg"]), ["photos-old/z.jpg", "photos/a.jpg"])
    XCTAssertEqual(
      try expandBoth(["photos", "photos-old"], exclude: ["photos/sub/**", "b.*"]), ["photos-old/z.jpg", "photos/a.jpg"])
    XCTAssertEqual(
      try expandBoth(["photos/a.jpg", "missing/x.jpg", "photos/sub/c.png"]), ["photos/a.jpg", "photos/sub/c.png"])
  }

  func testTheWholeBucketIsAFolderAndAMissingBucketIsAFailureNamingIt() throws {
    let storage = try storage()
    let whole = SourceExpansion.expandCompact(include: ["s3://bkt"], exclude: [], base: "/", storage: storage)
    XCTAssertEqual(whole.matches.count, 6)
    let missing = SourceExpansion.expandCompact(
      include: ["s3://no-such-bucket/x/"], exclude: [], base: "/", storage: storage)
    XCTAssertEqual(missing.matches.count, 0)
    XCTAssertEqual(missing.failures.map(\.kind), [.noSuchBucket])
    XCTAssertTrue(missing.failures.first?.description.contains("no-such-bucket") ?? false)
  }
}
