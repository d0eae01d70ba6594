import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 15: the planner reads JPEG headers through libjpeg directly (docs/decoding.md,
/// "Reading JPEG headers") only where it gives exactly libvips' facts; every other file is
/// left to libvips. The reference is libvips' own header read of the same file.
final class JPEGHeaderReaderTests: XCTestCase {
  /// Asserts that the direct reader either leaves `path` to libvips or gives libvips' header;
  /// returns whether it answered.
  @discardableResult
  func check(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    guard let direct = JPEGHeaderReader.read(path: path) else { return false }
    do {
      let vips = try SourceHeader.read(path: path, jpegDecoder: .libvips)
      XCTAssertEqual(direct, vips, path, file: file, line: line)
    } catch {
      XCTFail("\(path): read directly as \(direct), but libvips refuses it: \(error)", file: file, line: line)
    }
    return true
  }

  /// Every file of the image corpora (good, damaged and hostile JPEGs, PNGs, the EXIF
  /// orientation set) and every sample: where the direct reader answers, libvips' header is
  /// the same, and no file libvips refuses is answered. It answers for the 16 orientation
  /// files with orientations 1 to 8 (landscape and portrait; the two with 0, out of range, are
  /// left to libvips) and the sample JPEGs.
  func testSameFactsAsLibvipsOnEveryCorpusFile() throws {
    var answered: [String] = []
    let files =
      Corpora.imageFiles().map(\.path)
      + (try FileManager.default.contentsOfDirectory(atPath: TestPaths.samples.path)).sorted().map(TestPaths.sample)
    for path in files where check(path) { answered.append(path) }
    let orientation = answered.filter { $0.contains("/exif-orientation/") }
    XCTAssertEqual(orientation.count, 16, "\(orientation)")
    XCTAssertGreaterThanOrEqual(answered.filter { $0.contains("/samples/") }.count, 10)
    print("direct JPEG headers: \(answered.count) of \(files.count) files")
  }

  /// EXIF that libvips (libexif) might read otherwise than IFD0's one SHORT: the direct reader
  /// answers only for plain EXIF and for no EXIF, also when the header is longer than its first
  /// read.
  func testUnusualExifIsLeftToLibvips() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Each case: the sample with one or two APP1 EXIF segments inserted after SOI.
    let script = """
      import struct, sys
      src, out = sys.argv[1], sys.argv[2]
      data = open(src, "rb").read()
      # Drop the sample's own APP0/APP1 segments.
      pos, kept = 2, b""
      while data[pos] == 0xFF and data[pos + 1] in (0xE0, 0xE1):
          pos += 2 + struct.unpack(">H", data[pos + 2:pos + 4])[0]
      body = data[pos:]
      def ifd(entries, next_ifd=0, base=8):
          b = struct.pack("<H", len(entries))
          for tag, typ, count, value in entries:
              b += struct.pack("<HHI", tag, typ, count) + value.ljust(4, b"\\0")
          return b + struct.pack("<I", next_ifd)
      def exif(tiff, header=b"Exif\\0\\0"):
          payload = header + tiff
          return b"\\xff\\xe1" + struct.pack(">H", len(payload) + 2) + payload
      def tiff(ifd0, ifd1=None):
          t = b"II*\\0" + struct.pack("<I", 8) + ifd0
          if ifd1 is not None:
              off = len(t)
              t = t[:-4] + struct.pack("<I", off) + ifd1
          return t
      short = lambda v: struct.pack("<H", v)
      cases = {
          "plain-6": [exif(tiff(ifd([(0x112, 3, 1, short(6))])))],
          "none": [],
          "value-9": [exif(tiff(ifd([(0x112, 3, 1, short(9))])))],
          "value-0": [exif(tiff(ifd([(0x112, 3, 1, short(0))])))],
          "long-6": [exif(tiff(ifd([(0x112, 4, 1, struct.pack("<I", 6))])))],
          "count-2": [exif(tiff(ifd([(0x112, 3, 2, short(6) + short(6))])))],
          "ifd1-only-3": [exif(tiff(ifd([(0x11A, 5, 1, b"\\0\\0\\0\\0")]), ifd([(0x112, 3, 1, short(3))])))],
          "two-segments": [exif(tiff(ifd([(0x112, 3, 1, short(6))]))), exif(tiff(ifd([(0x112, 3, 1, short(3))])))],
          "exif-no-nul": [exif(tiff(ifd([(0x112, 3, 1, short(6))])), header=b"ExifXX")],
          "ifd0-cut": [exif(b"II*\\0" + struct.pack("<I", 8) + struct.pack("<H", 40))],
          # A header longer than the first read (16 KiB): two 30,000-byte APP15 segments.
          "long-header-6": [exif(tiff(ifd([(0x112, 3, 1, short(6))])))]
              + [b"\\xff\\xef" + struct.pack(">H", 30002) + bytes(30000)] * 2,
      }
      for name, segments in cases.items():
          open(f"{out}/{name}.jpg", "wb").write(data[:2] + b"".join(segments) + body)
      """
    try tool(python, ["-c", script, TestPaths.sample("kite.jpg"), folder.path])
    let answered = ["plain-6": 6, "none": 1, "long-header-6": 6]
    for name in [
      "plain-6", "none", "value-9", "value-0", "long-6", "count-2", "ifd1-only-3", "two-segments", "exif-no-nul",
      "ifd0-cut", "long-header-6",
    ] {
      let path = folder.appendingPathComponent("\(name).jpg").path
      let took = check(path)
      XCTAssertEqual(took, answered[name] != nil, name)
      if let orientation = answered[name] {
        XCTAssertEqual(JPEGHeaderReader.read(path: path)?.orientation, orientation, name)
      }
    }
  }
}
