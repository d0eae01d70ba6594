import CropGeometry
import CropImaging
import CropPlan
import CropPreview
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Two loose ends of `focus: regions`: an MWG `Focus` region without a size (a point) places
/// the photo like the point focus it names, and a damaged XMP packet's warning shows on the
/// photo's proof-sheet tile, not only in the plan.
final class RegionPointAndTileTests: XCTestCase {
  static let folder = Corpora.root.appendingPathComponent("regions")

  func plan(_ file: String, place: String, output: String = "out") throws -> Plan {
    let source = Self.folder.appendingPathComponent(file).path
    let yaml = """
      version: 1
      output: "\(output)"
      jobs:
        r:
          sources: ["\(source)"]
          guide: {shape: square, size: 100}
          place: \(place)
          outputs: [{path: "{stem}.png"}]
      """
    let loaded = JobFileLoader.load(bytes: Array(yaml.utf8), path: "inline.yaml")
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    return Planner().plan(file)
  }

  /// attributes.jpg (256×200) stores a Focus point at (0.75, 0.25), (192, 50) in pixels
  /// (Tests/Corpora/regions/README.md). With `regions: [focus]` it is a box without area that
  /// the placement keeps inside: the same geometry as `focus: [0.75, 0.25]`, centre (192, 50)
  /// (the 100×100 window at zoom 2 needs no clamp there).
  func testAFocusPointPlacesThePhotoLikeThePointFocus() throws {
    let points = try plan("attributes.jpg", place: "{focus: [regions, centre], regions: [focus], zoom: 2}")
    let reference = try plan("attributes.jpg", place: "{focus: [0.75, 0.25], zoom: 2}")
    let output = try XCTUnwrap(points.outputs.first)
    XCTAssertEqual(output.regionBoxes?.map(\.rect), [Rect(x: 192, y: 50, width: 0, height: 0)])
    XCTAssertEqual(output.geometry, reference.outputs.first?.geometry)
    XCTAssertEqual(output.geometry.centre, Point(x: 192, y: 50))
    XCTAssertEqual(points.issues, [])
    let json = PlanRenderer.render(points, format: .json)
    XCTAssertTrue(json.contains("\"origin\" : \"region focus\""), json)
    XCTAssertTrue(json.contains("\"kept\" : true"), json)
    // With the face too, the point is one more place the union holds: the face region
    // (92.5…136.5 × 38.5…86, padded by 0.3: 79.3…149.7 × 24.25…100.25) and the point give a
    // union 79.3…192 across, which fits the 200 px window of zoom 1; both are kept inside.
    let both = try plan("attributes.jpg", place: "{focus: regions, regions: [face, focus]}")
    let boxes = try XCTUnwrap(both.outputs.first?.regionBoxes)
    XCTAssertEqual(boxes.count, 2)
    XCTAssertEqual(both.issues, [])
    let geometry = try XCTUnwrap(both.outputs.first?.geometry)
    for box in boxes {
      let padded = try XCTUnwrap(box.padded(0.3, within: Rect(x: 0, y: 0, width: 256, height: 200)))
      XCTAssertTrue(Geometry.boxInside(padded, geometry: geometry, shape: .square), "\(box.rect)")
    }
  }

  /// The preview draws the point as a ring of radius 5 about it (a box without area would
  /// be a dot): box colour (green, kept) on the ring, not at its centre.
  func testTheFocusPointIsDrawnAsARingOnTheTile() throws {
    let plan = try plan("attributes.jpg", place: "{focus: [regions, centre], regions: [focus], zoom: 2}")
    let tiles = ProofSheet.render(try TileSelection.tiles(of: plan), plan: plan, tileSize: 256)
    let tile = try XCTUnwrap(tiles.first)
    let centre = tile.sourceToBody.apply(Point(x: 192, y: 50))
    func isBoxColour(_ dx: Double, _ dy: Double) -> Bool {
      let p = tile.body.pixel(x: Int((centre.x + dx).rounded(.down)), y: Int((centre.y + dy).rounded(.down)))
      return p[0] < 180 && p[1] > 200 && p[2] < 120
    }
    // On each side, 4 to 6 px out (the 2 px stroke; the smart-point diamond, radius 9, is
    // drawn over it where they cross); never within 2 px of the point.
    for (ux, uy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
      XCTAssertTrue(
        [4.0, 4.5, 5.0, 5.5, 6.0].contains { isBoxColour(ux * $0, uy * $0) }, "no ring at (\(ux), \(uy))")
      XCTAssertFalse([0.0, 1.0, 2.0].contains { isBoxColour(ux * $0, uy * $0) }, "ring too close at (\(ux), \(uy))")
    }
  }

  /// damaged.jpg's packet is not well-formed: the plan's warning has no job (it is about the
  /// file), and the tile of every job that reads the photo carries it, on the sheet (warning
  /// colour) and in index.html's caption.
  func testADamagedPacketsWarningIsOnThePhotosTile() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plan = try plan("damaged.jpg", place: "{focus: [regions, centre], zoom: 2}", output: folder.path + "/out")
    let warning = try XCTUnwrap(plan.issues.first)
    XCTAssertNil(warning.job)
    XCTAssertTrue(warning.message.hasPrefix("XMP packet is damaged: end tag </rdf:lx>"), warning.message)
    let tiles = try TileSelection.tiles(of: plan)
    XCTAssertEqual(tiles.count, 1)
    XCTAssertEqual(tiles[0].issues.map(\.message), [warning.message])
    XCTAssertEqual(tiles[0].issues.first?.severity, .warning)

    let result = try ProofSheet.write(plan: plan, options: ProofSheetOptions(directory: folder.path + "/proof"))
    XCTAssertEqual(result.tilesWithWarnings, 1)
    let html = try String(contentsOfFile: result.html, encoding: .utf8)
    let figure = try XCTUnwrap(html.range(of: "<figure class=\"warning\""), html)
    XCTAssertTrue(html[figure.lowerBound...].contains("XMP packet is damaged: end tag &lt;/rdf:lx&gt;"), html)
    let page = try Raster.decode(path: result.pages[0])
    let amber = stride(from: 0, to: page.pixels.count, by: page.bands).filter {
      page.pixels[$0] == 251 && page.pixels[$0 + 1] == 188 && page.pixels[$0 + 2] == 4
    }.count
    XCTAssertGreaterThan(amber, 1000, "the tile's border, badge and caption line in the warning colour")
  }
}
