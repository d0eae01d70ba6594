import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Regions stored in photos (Tests/Corpora/regions, written by exiftool) land on the face in
/// oriented source pixels for every EXIF orientation; damaged packets give a named problem.
final class StoredRegionTests: XCTestCase {
  static let folder = Corpora.root.appendingPathComponent("regions")
  /// The hand-checked face box in the displayed 256×200 picture (the folder's README).
  static let face = Rect(x: 92.5, y: 38.5, width: 44, height: 47.5)
  /// exiftool writes six decimals: 256 × 5e-7 ≈ 0.0001 px, far below this.
  static let tolerance = 0.01

  func read(_ name: String) throws -> (SourceHeader, XMPRegionParser.Reading) {
    let path = Self.folder.appendingPathComponent(name).path
    let reader = VipsHeaderReader()
    reader.start()
    return (try reader.header(path: path), try reader.storedRegions(path: path))
  }

  func testEveryOrientationAndSchemaLandsOnTheFace() throws {
    var checked = 0
    for orientation in 1...8 {
      for kind in ["mwg", "mp"] + (orientation >= 5 ? ["stored"] : []) {
        let name = "o\(orientation)-\(kind).jpg"
        let (header, reading) = try read(name)
        XCTAssertEqual(header.orientation, orientation, name)
        XCTAssertEqual([header.width, header.height], [256, 200], name)
        XCTAssertEqual(reading.problems, [], name)
        XCTAssertEqual(reading.regions.count, 1, name)
        guard let region = reading.regions.first else { continue }
        XCTAssertEqual(region.kind, .face, name)
        XCTAssertEqual(region.name, "Eileen Collins", name)
        XCTAssertEqual(region.schema, kind == "mp" ? .microsoft : .mwg, name)
        XCTAssertEqual(region.frame(in: header), kind == "stored" ? .stored : .oriented, name)
        let rect = region.orientedRect(in: header)
        XCTAssertTrue(
          rect.isApproximatelyEqual(to: Self.face, tolerance: Self.tolerance), "\(name): \(rect), expected \(Self.face)"
        )
        checked += 1
      }
    }
    XCTAssertEqual(checked, 20)
  }

  /// The stored-frame fixtures are not the displayed-frame ones under another name: read as
  /// displayed, their box misses the face (so the frame rule above is what places them).
  func testStoredFrameRegionsWouldMissTheFaceReadAsDisplayed() throws {
    for orientation in 5...8 {
      let (header, reading) = try read("o\(orientation)-stored.jpg")
      var region = try XCTUnwrap(reading.regions.first)
      region.appliedTo = nil
      XCTAssertEqual(region.frame(in: header), .oriented)
      let rect = region.orientedRect(in: header)
      XCTAssertFalse(rect.isApproximatelyEqual(to: Self.face, tolerance: 5), "orientation \(orientation): \(rect)")
    }
  }

  func testAttributeFormsPetAndPoint() throws {
    let (header, reading) = try read("attributes.jpg")
    XCTAssertEqual(reading.problems, [])
    XCTAssertEqual(reading.regions.map(\.kind), [.face, .pet, .focus])
    XCTAssertEqual(reading.regions.map(\.name), ["Eileen & co", nil, nil])
    let rects = reading.regions.map { $0.orientedRect(in: header) }
    XCTAssertTrue(rects[0].isApproximatelyEqual(to: Self.face, tolerance: Self.tolerance), "\(rects[0])")
    XCTAssertEqual(rects[1], Rect(x: 96, y: 50, width: 64, height: 100))
    XCTAssertEqual(rects[2], Rect(x: 192, y: 50, width: 0, height: 0))
    XCTAssertEqual(reading.regions[0].appliedTo, Size(width: 256, height: 200))
  }

  func testDamagedPacketIsANamedProblemNotACrash() throws {
    let (_, reading) = try read("damaged.jpg")
    XCTAssertEqual(reading.regions, [])
    XCTAssertEqual(reading.problems.count, 1)
    let problem = try XCTUnwrap(reading.problems.first)
    // 1056: where `exiftool -xmp -b damaged.jpg` has "</rdf:lx>" (the packet libvips reads).
    XCTAssertEqual(problem, "XMP packet is damaged: end tag </rdf:lx> where </rdf:li> was expected at byte 1056")
  }

  func testAPhotoWithoutXMPHasNoRegions() throws {
    let reader = VipsHeaderReader()
    reader.start()
    let reading = try reader.storedRegions(path: TestPaths.sample("astronaut.jpg"))
    XCTAssertEqual(reading, XMPRegionParser.Reading())
  }
}
