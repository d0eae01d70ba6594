import CropImaging
import CropPlan
import CropSpec
import CropSupport
import Dispatch
import Foundation
import TestSupport
import XCTest

/// Damaged, truncated, bit-flipped, unsupported and special files through the imaging layer:
/// every one is refused with a clear error for that file, never decoded into damaged pixels,
/// never a crash or a hang (docs/reliability.md, "Decoding").
final class DecodeReliabilityTests: XCTestCase {
  var scratch: URL!

  override func setUp() {
    scratch = TestPaths.scratch("decode-reliability")
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: scratch)
  }

  /// Reads the header and decodes at full size: the decoded image, or the error.
  static func decode(_ path: String) -> Result<DecodedSource, ImagingError> {
    do throws(ImagingError) {
      let header = try SourceHeader.read(path: path)
      return .success(try DecodedSource.decode(path: path, header: header, shrink: 1))
    } catch {
      return .failure(error)
    }
  }

  func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let path = scratch.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func sampleBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.sample(name))))
  }

  var samples: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.samples.path)) ?? [])
      .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
  }

  // MARK: - Truncated and bit-flipped copies of the samples

  func testTruncatedSamplesAllFail() throws {
    XCTAssertGreaterThanOrEqual(samples.count, 10)
    for name in samples {
      let bytes = try sampleBytes(name)
      // Cuts inside the pixel data: 10% ... 95% of the file, and 100 bytes short.
      for keep in [
        bytes.count / 10, bytes.count / 4, bytes.count / 2, bytes.count * 9 / 10, bytes.count * 95 / 100,
        bytes.count - 100,
      ] {
        let path = try write(Array(bytes.prefix(keep)), "cut-\(keep)-\(name)")
        switch Self.decode(path) {
        case .success(let image):
          XCTFail("\(name) cut to \(keep) of \(bytes.count) bytes decoded as \(image.width)x\(image.height)")
        case .failure(let error):
          XCTAssertEqual(error.path, path)
          XCTAssertFalse(error.message.isEmpty, "\(name) cut to \(keep): empty message")
        }
      }
    }
  }

  func testBitFlippedSamplesFailOrDecodeAtTheirSize() throws {
    var random = SeededRandom(seed: 8)
    var pngFailures = 0
    var pngCopies = 0
    var jpegOutcomes = [String: Int]()
    for name in samples {
      let original = try sampleBytes(name)
      let header = try SourceHeader.read(path: TestPaths.sample(name))
      for copy in 0..<4 {
        var bytes = original
        let flips = [1, 3, 10, 40][copy]
        for _ in 0..<flips {
          let index = Int.random(in: 16..<bytes.count, using: &random)
          bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
        }
        let path = try write(bytes, "flip-\(copy)-\(name)")
        let result = Self.decode(path)
        if name.hasSuffix(".png") {
          // Every PNG chunk has a CRC and the pixels an Adler-32: every flip is caught.
          pngCopies += 1
          if case .failure = result { pngFailures += 1 } else { XCTFail("\(name) with \(flips) flipped bits decoded") }
        } else {
          // JPEG has no checksum: a flip in the entropy-coded data may decode to other
          // pixels without any warning. What decodes must still have the header's size.
          switch result {
          case .success(let image):
            XCTAssertEqual([image.width, image.height], [header.width, header.height], name)
            jpegOutcomes["decoded", default: 0] += 1
          case .failure(let error):
            XCTAssertFalse(error.message.isEmpty)
            jpegOutcomes["refused", default: 0] += 1
          }
        }
      }
    }
    XCTAssertEqual(pngFailures, pngCopies)
    XCTAssertGreaterThan(jpegOutcomes["refused", default: 0], 0, "\(jpegOutcomes)")
  }

  // MARK: - Warnings are per image, whatever runs concurrently

  /// PngSuite's xcsn0g01.png (IDAT CRC error) could decode into damaged pixels with exit 0
  /// when libvips evaluated it on several threads; here it is decoded over and over, beside
  /// good images, on many threads: it always fails, naming its own warning, and the good
  /// images never pick up its warnings.
  func testCorruptPNGFailsEveryTimeBesideGoodImagesOnManyThreads() throws {
    let badPath = Corpora.root.appendingPathComponent("pngsuite/xcsn0g01.png").path
    let good = [TestPaths.sample("cat.png"), TestPaths.sample("coffee-alpha.png"), TestPaths.sample("kite.jpg")]
    let rounds = 48
    let outcomes = LockedResults()
    DispatchQueue.concurrentPerform(iterations: rounds) { i in
      let path = i % 3 == 0 ? badPath : good[i % good.count]
      let result = Self.decode(path)
      outcomes.append(path, result.map { [$0.width, $0.height] })
    }
    for (path, result) in outcomes.all {
      switch (path == badPath, result) {
      case (true, .success):
        XCTFail("damaged \(path) decoded")
      case (true, .failure(let error)):
        XCTAssertEqual(error.path, path)
        XCTAssertTrue(
          error.message.contains("CRC") || error.message.contains("damaged") || error.message.contains("libpng"),
          error.message)
      case (false, .failure(let error)):
        XCTFail("good \(path) failed: \(error)")
      case (false, .success):
        break
      }
    }
  }

  final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [(String, Result<[Int], ImagingError>)] = []
    func append(_ path: String, _ result: Result<[Int], ImagingError>) {
      lock.lock()
      results.append((path, result))
      lock.unlock()
    }
    var all: [(String, Result<[Int], ImagingError>)] {
      lock.lock()
      defer { lock.unlock() }
      return results
    }
  }

  // MARK: - Only the accepted formats

  func testOtherFormatsRenamedJPGAreRefusedByName() throws {
    let svg = Array(
      #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#
        .utf8)
    let pdf = Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
    let ppm = Array("P6\n2 2\n255\n".utf8) + [UInt8](repeating: 200, count: 12)
    var bmp: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 60)
    bmp[10] = 54
    let cases: [(String, [UInt8], String)] = [
      ("drawing.jpg", svg, "SVG"), ("paper.jpg", pdf, "PDF"), ("pixels.jpg", ppm, "PPM"), ("bitmap.jpg", bmp, "BMP"),
      ("text.png", Array("just some text\n".utf8), "not an image"),
    ]
    for (name, bytes, expected) in cases {
      let path = try write(bytes, name)
      let started = Date()
      XCTAssertThrowsError(try SourceHeader.read(path: path), name) { error in
        let message = (error as! ImagingError).message
        XCTAssertTrue(message.contains(expected), "\(name): \(message)")
        XCTAssertTrue(message.contains("cropjob reads jpeg, png"), "\(name): \(message)")
      }
      XCTAssertLessThan(Date().timeIntervalSince(started), 15, "\(name): a hang guard, not a speed assertion")
    }
    // Real files of formats libvips could read through other loaders (ImageMagick, OpenJPEG).
    let afl = Corpora.root.appendingPathComponent("afl-testcases-images")
    for (folder, expected) in [
      ("bmp/not_kitty.bmp", "BMP"), ("ico/not_kitty.ico", "ICO"), ("jp2/not_kitty.jp2", "JPEG 2000"),
      ("jxr/not_kitty.jxr", "JPEG XR"),
    ] {
      let path = afl.appendingPathComponent(folder).path
      XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
      XCTAssertThrowsError(try SourceHeader.read(path: path)) { error in
        XCTAssertTrue((error as! ImagingError).message.contains(expected), "\(folder): \(error)")
      }
    }
  }

  func testSpecialFilesAreRefusedWithoutHanging() throws {
    let fifo = scratch.appendingPathComponent("pipe.jpg").path
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    let folder = scratch.appendingPathComponent("folder.jpg").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let dangling = scratch.appendingPathComponent("dangling.jpg").path
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: scratch.appendingPathComponent("gone.jpg").path)
    let empty = try write([], "empty.jpg")
    let cases: [(String, String)] = [
      (fifo, "FIFO"), (folder, "folder"), (dangling, "No such file"), (empty, "empty"),
      ("/dev/zero", "character device"),
    ]
    for (path, expected) in cases {
      let done = expectation(description: path)
      let box = LockedResults()
      DispatchQueue.global().async {
        box.append(path, Self.decode(path).map { [$0.width] })
        done.fulfill()
      }
      wait(for: [done], timeout: 5)
      guard let (_, result) = box.all.first else { continue }
      guard case .failure(let error) = result else {
        XCTFail("\(path) decoded")
        continue
      }
      XCTAssertEqual(error.path, path)
      XCTAssertTrue(error.message.contains(expected), "\(path): \(error.message)")
    }
  }

  func testAFileReplacedAfterPlanningIsRefusedBeforeDecoding() throws {
    let path = scratch.appendingPathComponent("photo.jpg").path
    try FileManager.default.copyItem(atPath: TestPaths.sample("kite.jpg"), toPath: path)
    let header = try SourceHeader.read(path: path)
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.copyItem(atPath: TestPaths.sample("mountains.jpg"), toPath: path)
    XCTAssertThrowsError(try DecodedSource.decode(path: path, header: header, shrink: 1)) { error in
      XCTAssertTrue((error as! ImagingError).message.contains("changed since it was planned"), "\(error)")
    }
    // Same size, other format.
    try FileManager.default.removeItem(atPath: path)
    let png = scratch.appendingPathComponent("same.png").path
    let kite = try SourceHeader.read(path: TestPaths.sample("kite.jpg"))
    let raster = try Raster.decode(path: TestPaths.sample("kite.jpg"))
    try Data(try raster.pngBytes()).write(to: URL(fileURLWithPath: png))
    XCTAssertThrowsError(try DecodedSource.decode(path: png, header: kite, shrink: 1)) { error in
      XCTAssertTrue("\(error)".contains("changed since it was planned"), "\(error)")
      XCTAssertTrue("\(error)".contains(png), "\(error)")
    }
  }

  // MARK: - The public corpora

  /// Every file of the image corpora (Tests/Corpora) through the header and the decode:
  /// corrupt ones fail with a message, the others decode at their header's size.
  func testCorporaDecodeOrFailCleanly() throws {
    var decoded = 0
    var refused: [String] = []
    let files = Corpora.imageFiles()
    XCTAssertGreaterThan(files.count, 200)
    for file in files {
      switch Self.decode(file.path) {
      case .success(let image):
        let header = try SourceHeader.read(path: file.path)
        XCTAssertEqual([image.width, image.height], [header.width, header.height], file.name)
        decoded += 1
        // PngSuite's corrupt files are named x*.png: none may decode.
        if file.folder == "pngsuite" { XCTAssertFalse(PathText.lastComponent(file.path).hasPrefix("x"), file.name) }
      case .failure(let error):
        XCTAssertFalse(error.message.isEmpty, file.name)
        refused.append(file.name)
      }
    }
    // The 14 corrupt PngSuite files, the jpeg-decoder crash files and the afl seeds in
    // formats cropjob does not read are refused.
    XCTAssertEqual(refused.filter { $0.hasPrefix("pngsuite/x") }.count, 14, refused.joined(separator: "\n"))
    XCTAssertTrue(refused.allSatisfy { !$0.hasPrefix("exif-orientation/") }, "\(refused)")
    XCTAssertGreaterThan(decoded, 170)
  }

  // MARK: - Paths

  func testPathTextMatchesNSStringWithoutTrapping() {
    XCTAssertEqual(PathText.deletingLastComponent("a"), "")
    XCTAssertEqual(PathText.deletingLastComponent("a/"), "")
    XCTAssertEqual(PathText.deletingLastComponent("/a"), "/")
    XCTAssertEqual(PathText.deletingLastComponent("//a"), "/")
    XCTAssertEqual(PathText.deletingLastComponent("/"), "/")
    XCTAssertEqual(PathText.deletingLastComponent("a//b//"), "a")
    XCTAssertEqual(PathText.deletingLastComponent("/x/y/z.jpg"), "/x/y")
    XCTAssertEqual(PathText.deletingLastComponent(""), "")
    XCTAssertEqual(PathText.lastComponent("x///p//"), "p")
    XCTAssertEqual(PathText.lastComponent("/"), "/")
    XCTAssertEqual(PathText.lastComponent("a/b.jpg"), "b.jpg")
    XCTAssertEqual(PathText.pathExtension("x///p//"), "")
    XCTAssertEqual(PathText.pathExtension("a/b.JPG"), "JPG")
    XCTAssertEqual(PathText.pathExtension(".hidden"), "")
    XCTAssertEqual(PathText.pathExtension("a."), "")
    XCTAssertEqual(PathText.pathExtension("a.b.c"), "c")
    XCTAssertEqual(PathText.pathExtension("a.b/"), "b")
    XCTAssertEqual(PathText.deletingPathExtension("a/b.jpg"), "a/b")
    XCTAssertEqual(PathText.deletingPathExtension("a."), "a")
    XCTAssertEqual(PathText.deletingPathExtension(".hidden"), ".hidden")
    XCTAssertEqual(PathText.deletingPathExtension("a.b/"), "a")
    // Same answers as NSString where NSString does not trap.
    for path in ["a/b.jpg", "/x/y/z.tar.gz", "photos/.hidden", "a.b/", "/", "x/y", "ab", "a.b.c", "dir/a.", "//a//b"] {
      XCTAssertEqual(PathText.lastComponent(path), (path as NSString).lastPathComponent, path)
      XCTAssertEqual(PathText.deletingLastComponent(path), (path as NSString).deletingLastPathComponent, path)
      XCTAssertEqual(PathText.pathExtension(path), (path as NSString).pathExtension, path)
      XCTAssertEqual(PathText.deletingPathExtension(path), (path as NSString).deletingPathExtension, path)
    }
  }
}
