import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 40, point 3: the benign-warning entries for files other tools write
/// (`VipsWarningPolicy`, docs/reliability.md), each raised by a real file that libvips'
/// own command line warns about and cropjob now reads; and nothing beside them forgiven.
final class BenignWarningTests: XCTestCase {
  static let corpus = Corpora.root.appendingPathComponent("other-tools")

  /// libvips' command line prints `warning` for `path`, and cropjob reads the file whole.
  func assertRaisedAndRead(_ path: String, _ warning: String, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    let raw = try Subprocess.run("/usr/bin/vipsheader", [path])
    XCTAssertTrue(raw.stderr.contains(warning), raw.stderr, file: file, line: line)
    let header = try SourceHeader.read(path: path)
    XCTAssertNoThrow(try DecodedSource.decode(path: path, header: header, shrink: 1), file: file, line: line)
  }

  /// A GeoTIFF from georust/geotiff's test data: GeoTIFF's and GDAL's private tags, and a
  /// GeoAsciiParams text its writer did not end.
  func testPrivateTIFFTagsOfAGeoTIFFAreBenign() throws {
    let path = Self.corpus.appendingPathComponent("georust-geotiff/merc.tif").path
    try assertRaisedAndRead(path, "Unknown field with tag 33550 (0x830e) encountered")
    try assertRaisedAndRead(path, "ASCII value for tag \"Tag 34737\" does not end in null byte. Forcing it to be null")
    XCTAssertEqual(
      VipsWarningPolicy.damage([
        "Unknown field with tag 33550 (0x830e) encountered", "Unknown field with tag 42113 (0xa481) encountered",
        "ASCII value for tag \"Tag 34737\" does not end in null byte. Forcing it to be null",
        // Not private (below 32768), or a hex that is not the number: damage.
        "Unknown field with tag 700 (0x2bc) encountered", "Unknown field with tag 33550 (0x830f) encountered",
        "Unknown field with tag 33550 (0x830e) encountered twice",
        "ASCII value for tag \"Tag 270\" does not end in null byte. Forcing it to be null",
      ]),
      [
        "Unknown field with tag 700 (0x2bc) encountered", "Unknown field with tag 33550 (0x830f) encountered",
        "Unknown field with tag 33550 (0x830e) encountered twice",
        "ASCII value for tag \"Tag 270\" does not end in null byte. Forcing it to be null",
      ])
  }

  /// A PNG whose profile's header names a D65 PCS illuminant (libvips' P3 profile so
  /// changed by `other_tools_oracle.py make`, as some ProPhoto profiles are): its pixels are
  /// converted through the profile (OtherToolsCorpusTests compares them with LittleCMS').
  func testAProfileWhoseHeaderIlluminantIsNotD50IsBenign() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let work = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: work) }
    try tool(python, [TestPaths.oracle("other_tools_oracle.py"), "make", Corpora.root.path, work.path])
    let path = work.appendingPathComponent("p3-illuminant-d65.png").path
    try assertRaisedAndRead(path, "iCCP: profile 'ICC Profile': 0h: PCS illuminant is not D50")
    XCTAssertEqual(
      VipsWarningPolicy.damage([
        "iCCP: profile 'Kodak ROMM': 0h: PCS illuminant is not D50",
        "iCCP: profile 'x': 0h: PCS illuminant is not D50; and more", "iCCP: CRC error",
      ]), ["iCCP: profile 'x': 0h: PCS illuminant is not D50; and more", "iCCP: CRC error"])
  }
}
