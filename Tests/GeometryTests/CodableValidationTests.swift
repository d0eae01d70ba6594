import CropGeometry
import Foundation
import TestSupport
import XCTest

final class CodableValidationTests: XCTestCase {
  func testPlacementDecodesWithDefaults() throws {
    let empty = try JSONDecoder().decode(Placement.self, from: Data("{}".utf8))
    XCTAssertEqual(empty, Placement())
    let some = try JSONDecoder().decode(
      Placement.self,
      from: Data(#"{"fit":"contain","zoom":2,"crop":{"x":1,"y":2,"width":3,"height":4}}"#.utf8))
    XCTAssertEqual(some.fit, .contain)
    XCTAssertEqual(some.zoom, 2)
    XCTAssertEqual(some.crop, CropRect(x: 1, y: 2, width: 3, height: 4, angle: 0))
    XCTAssertEqual(some.overflow, .clamp)
  }

  func testRoundTrips() throws {
    let placement = Placement(
      fit: .none, zoom: 1.5, offset: Point(x: 3, y: -4), focus: Point(x: 0.2, y: 0.8), rotate: 12,
      flipHorizontal: true, crop: CropRect(x: 1, y: 2, width: 30, height: 40, angle: 5),
      overflow: .shrink, upscale: false)
    let data = try JSONEncoder().encode(placement)
    XCTAssertEqual(try JSONDecoder().decode(Placement.self, from: data), placement)

    let result = Geometry.place(
      source: Size(width: 200, height: 100), guide: .square(400),
      placement: Placement(fit: .contain, upscale: false))
    XCTAssertFalse(result.notes.isEmpty)
    let back = try JSONDecoder().decode(
      PlacementResult.self, from: try JSONEncoder().encode(result))
    XCTAssertEqual(back, result)
  }

  func testRawValuesUsedByJobFiles() {
    XCTAssertEqual(Fit(rawValue: "cover"), .cover)
    XCTAssertEqual(Overflow(rawValue: "shrink"), .shrink)
    XCTAssertEqual(GuideShape(rawValue: "circle"), .circle)
    XCTAssertEqual(NamedPosition.topLeft.rawValue, "top-left")
  }

  func testNotesDescribeThemselves() {
    let notes: [PlacementNote] = [
      .upscaleCapped(requested: PixelSize(side: 2), actual: PixelSize(side: 1)),
      .upscaling(factor: 2), .guideNotCovered, .cropAspectMismatch(cropAspect: 2, guideAspect: 1),
      .cropOutsidePhoto, .shrunkToFootprint(from: PixelSize(side: 2), to: PixelSize(side: 1)),
    ]
    XCTAssertEqual(Set(notes.map(\.description)).count, notes.count)
  }

  func testValidation() {
    let ok = Geometry.validate(
      source: Size(width: 10, height: 10), guide: .square(10), placement: Placement())
    XCTAssertEqual(ok, [])
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 0, height: 10), guide: .square(10), placement: Placement()
      ).map { $0.contains("source size") }, [true])
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 10, height: 10), guide: .square(0), placement: Placement()
      ).map { $0.contains("guide size") }, [true])
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 10, height: 10), guide: .square(10), placement: Placement(zoom: 0)
      ).map { $0.contains("zoom 0.0 must be positive") }, [true])
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 10, height: 10), guide: .square(10), placement: Placement(rotate: .nan)
      ).map { $0.contains("rotate must be finite") }, [true])
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 10, height: 10), guide: .square(10),
        placement: Placement(crop: CropRect(x: 0, y: 0, width: 0, height: 5))
      ).map { $0.contains("crop size 0.0x5.0 must be positive") }, [true])
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 10, height: 10), guide: .square(10), placement: Placement(),
        outputScale: -1
      ).map { $0.contains("output scale -1.0 must be positive") }, [true])
    // A crop replaces zoom, so a zero zoom next to a crop is not a problem.
    XCTAssertEqual(
      Geometry.validate(
        source: Size(width: 10, height: 10), guide: .square(10),
        placement: Placement(zoom: 0, crop: CropRect(x: 0, y: 0, width: 5, height: 5))
      ), [])
  }

  func testPlacementIsDeterministic() {
    var rng = SeededRandom(seed: 77)
    for _ in 0..<100 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      let placement = randomPlacement(&rng)
      XCTAssertEqual(
        Geometry.place(source: source, guide: guide, placement: placement),
        Geometry.place(source: source, guide: guide, placement: placement))
    }
  }
}
