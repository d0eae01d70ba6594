import CropGeometry
import CropImaging
import CropPlan
import CropPreview
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The proof sheet draws the guide where the plan puts it, renders the output from the same
/// geometry, marks the plan's warnings, and writes nothing into the output root.
final class PreviewTests: XCTestCase {
  // MARK: - Fixtures

  /// A gradient photo: red grows left to right, green top to bottom, blue 64. No pixel of it
  /// (dimmed or not) is white, so white pixels in a tile can only be the guide's outline.
  func gradientPhoto(width: Int, height: Int, in folder: URL, name: String = "photo.png") throws -> String {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 3
        pixels[i] = UInt8((Double(x) + 0.5) / Double(width) * 200 + 20)
        pixels[i + 1] = UInt8((Double(y) + 0.5) / Double(height) * 200 + 20)
        pixels[i + 2] = 64
      }
    }
    let path = folder.appendingPathComponent(name).path
    try Data(Raster(width: width, height: height, bands: 3, pixels: pixels).pngBytes()).write(
      to: URL(fileURLWithPath: path))
    return path
  }

  func plan(_ yaml: String, in folder: URL) throws -> Plan {
    let path = folder.appendingPathComponent("job.yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    let loaded = JobFileLoader.load(path: path)
    let file = try XCTUnwrap(loaded.jobFile, "\(loaded.diagnostics)")
    return Planner().plan(file)
  }

  func isWhite(_ p: [UInt8]) -> Bool { p[0] >= 235 && p[1] >= 235 && p[2] >= 235 }

  /// Whether a white (outline) pixel lies within `radius` pixels of `point` in the body.
  func outlineNear(_ point: Point, in body: Raster, radius: Int = 1) -> Bool {
    let cx = Int(point.x.rounded(.down))
    let cy = Int(point.y.rounded(.down))
    for dy in -radius...radius {
      for dx in -radius...radius {
        let x = cx + dx
        let y = cy + dy
        if x >= 0, y >= 0, x < body.width, y < body.height, isWhite(body.pixel(x: x, y: y)) { return true }
      }
    }
    return false
  }

  /// Checks the drawn outline against the plan's own crop: the preimage of the output
  /// rectangle (rect) or of the circle inscribed in the guide frame (circle), computed here
  /// from `PlannedOutput.geometry` and mapped into the tile.
  func assertOutlineMatchesPlan(_ tile: RenderedTile, plan: Plan, file: StaticString = #filePath, line: UInt = #line)
    throws
  {
    let output = plan.outputs[tile.tile.outputs[0]]
    XCTAssertEqual(
      tile.geometry, output.geometry, "no smart focus: the tile uses the plan's geometry", file: file, line: line)
    try assertOutlineMatches(tile, geometry: output.geometry, shape: output.guide.shape, file: file, line: line)
  }

  func assertOutlineMatches(
    _ tile: RenderedTile, geometry: PlacementResult, shape: GuideShape, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let toBody = tile.sourceToBody
    let inverse = try XCTUnwrap(geometry.transform.inverted())
    var expected: [(point: Point, inward: Point)] = []
    switch shape {
    case .rect, .square:
      let corners = geometry.outputRect.corners.map { toBody.apply(inverse.apply($0)) }
      let centre = Point(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
      for i in 0..<4 {
        let a = corners[i]
        let b = corners[(i + 1) % 4]
        expected.append((a, centre))
        expected.append((Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2), centre))
      }
    case .circle:
      let frame = geometry.guideRect
      let centre = toBody.apply(inverse.apply(frame.centre))
      let radius = min(frame.width, frame.height) / 2 / geometry.scale * abs(toBody.determinant).squareRoot()
      for (dx, dy) in [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)] {
        expected.append((Point(x: centre.x + dx * radius, y: centre.y + dy * radius), centre))
      }
    }
    for (point, centre) in expected {
      XCTAssertTrue(outlineNear(point, in: tile.body), "no outline at \(point)", file: file, line: line)
      // 7 px towards the inside and the outside: photo (bright or dimmed), not outline.
      let dx = centre.x - point.x
      let dy = centre.y - point.y
      let length = (dx * dx + dy * dy).squareRoot()
      for sign in [1.0, -1.0] {
        let q = Point(x: point.x + sign * 7 * dx / length, y: point.y + sign * 7 * dy / length)
        guard q.x >= 0, q.y >= 0, q.x < Double(tile.body.width), q.y < Double(tile.body.height) else { continue }
        XCTAssertFalse(
          isWhite(tile.body.pixel(x: Int(q.x), y: Int(q.y))), "outline at \(q), 7 px off the guide", file: file,
          line: line)
      }
    }
  }

  func renderOnly(_ plan: Plan, tileSize: Int = 256) throws -> [RenderedTile] {
    let tiles = try TileSelection.tiles(of: plan)
    return ProofSheet.render(tiles, plan: plan, tileSize: tileSize)
  }

  // MARK: - The guide is drawn where the plan puts it

  func testRotatedRectGuideIsDrawnOnThePlansCrop() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 900, height: 600, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        banner:
          sources: ["photo.png"]
          guide: {shape: rect, width: 320, height: 180}
          place: {fit: cover, zoom: 1.6, focus: [0.35, 0.6], rotate: 20}
          outputs: [{path: "{stem}.jpg"}]
      """, in: folder)
    let tiles = try renderOnly(plan)
    XCTAssertEqual(tiles.count, 1)
    XCTAssertNil(tiles[0].failure)
    try assertOutlineMatchesPlan(tiles[0], plan: plan)
  }

  func testAxisAlignedSquareAndExplicitCropAreDrawnOnThePlansCrop() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 640, height: 480, in: folder, name: "a.png")
    _ = try gradientPhoto(width: 640, height: 480, in: folder, name: "b.png")
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        thumb:
          sources: ["a.png", "b.png"]
          guide: {shape: square, size: 128}
          place: {fit: cover, focus: right}
          outputs: [{path: "{stem}@{scale}x.png", scales: [1, 2]}]
      overrides:
        - {job: thumb, source: b.png, crop: {x: 100, y: 80, width: 300, height: 300, angle: -15}}
      """, in: folder)
    let tiles = try renderOnly(plan, tileSize: 200)
    XCTAssertEqual(tiles.map { ($0.tile.sourcePath as NSString).lastPathComponent }, ["a.png", "b.png"])
    for tile in tiles { try assertOutlineMatchesPlan(tile, plan: plan) }
    // The crop override is drawn from its own geometry: its region is the saved rectangle.
    let crop = plan.outputs[tiles[1].tile.outputs[0]].geometry
    XCTAssertEqual(crop.angle, -15)
  }

  func testCircleGuideIsDrawnOnThePlansCircle() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 800, height: 500, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        avatar:
          sources: ["photo.png"]
          guide: {shape: circle, size: 200}
          place: {fit: cover, zoom: 1.5, focus: [0.7, 0.4]}
          outputs: [{path: "{stem}.png"}]
      """, in: folder)
    let tiles = try renderOnly(plan)
    try assertOutlineMatchesPlan(tiles[0], plan: plan)
  }

  /// The tile's map from source pixels is itself right: the gradient's colour at a source
  /// point inside the guide is found where the map puts that point.
  func testSourcePanelShowsThePhotoWhereTheMapSays() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 800, height: 500, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        j:
          sources: ["photo.png"]
          guide: {shape: rect, width: 300, height: 300}
          place: {fit: contain, zoom: 1}
          outputs: [{path: "{stem}.png"}]
      """, in: folder)
    let tile = try XCTUnwrap(renderOnly(plan).first)
    for source in [Point(x: 400, y: 250), Point(x: 250, y: 150), Point(x: 560, y: 370)] {
      let p = tile.sourceToBody.apply(source)
      let pixel = tile.body.pixel(x: Int(p.x), y: Int(p.y))
      // 1/255 of either gradient is 4 (red) or 2.5 (green) source pixels, about one body pixel
      // at this tile's scale (0.3): the map must be right to the pixel it truncates to (4/255
      // let it be off by five).
      XCTAssertEqual(Double(pixel[0]), source.x / 800 * 200 + 20, accuracy: 1, "red at \(source)")
      XCTAssertEqual(Double(pixel[1]), source.y / 500 * 200 + 20, accuracy: 1, "green at \(source)")
    }
  }

  /// Beside the photo, the output rendered from the same geometry: its centre shows the
  /// source point at the guide's centre, and a circle's corners are transparent.
  func testOutputPanelIsRenderedFromTheSameGeometry() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 800, height: 500, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        avatar:
          sources: ["photo.png"]
          guide: {shape: circle, size: 200}
          place: {fit: cover, zoom: 2, focus: [0.25, 0.3]}
          outputs: [{path: "{stem}.png"}]
      """, in: folder)
    let tile = try XCTUnwrap(renderOnly(plan).first)
    let g = try XCTUnwrap(tile.geometry)
    let rect = tile.outputRect
    let centre = tile.body.pixel(x: Int(rect.centre.x), y: Int(rect.centre.y))
    XCTAssertEqual(Double(centre[0]), g.centre.x / 800 * 200 + 20, accuracy: 3)
    XCTAssertEqual(Double(centre[1]), g.centre.y / 500 * 200 + 20, accuracy: 3)
    let corner = tile.body.pixel(x: Int(rect.minX) + 1, y: Int(rect.minY) + 1)
    XCTAssertTrue(
      corner == [204, 204, 204] || corner == [153, 153, 153], "checkerboard at the circle's corner, got \(corner)")
  }

  /// A `from:` job's source is another job's output: before any run it is rendered in memory,
  /// as that job would write it, and the guide is drawn on it from the plan.
  func testFromJobIsPreviewedBeforeTheUpstreamRuns() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 800, height: 500, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        big:
          sources: ["photo.png"]
          guide: {shape: rect, width: 400, height: 300}
          place: {fit: cover, rotate: 10}
          outputs: [{path: "big/{stem}.png"}]
        small:
          from: big
          guide: {shape: square, size: 100}
          place: {fit: cover, focus: left}
          outputs: [{path: "small/{stem}.png"}]
      """, in: folder)
    let tiles = try renderOnly(plan)
    XCTAssertEqual(tiles.map(\.tile.job), ["big", "small"])
    for tile in tiles {
      XCTAssertNil(tile.failure)
      try assertOutlineMatchesPlan(tile, plan: plan)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: plan.outputRoot))
  }

  // MARK: - Warnings

  func testFocusCutOffByACircleIsAPlanWarningAndMarkedOnTheTile() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 800, height: 500, in: folder, name: "corner.png")
    _ = try gradientPhoto(width: 800, height: 500, in: folder, name: "top.png")
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        corner:
          sources: ["corner.png"]
          guide: {shape: circle, size: 200}
          place: {fit: cover, focus: top-left}
          outputs: [{path: "c/{stem}.png"}]
        top:
          sources: ["top.png"]
          guide: {shape: circle, size: 200}
          place: {fit: cover, focus: top}
          outputs: [{path: "t/{stem}.png"}]
      """, in: folder)
    let cut = plan.issues.filter { $0.message.contains("outside the circle guide") }
    XCTAssertEqual(cut.map(\.job), ["corner"], "top-left is cut off by the circle; top (on the edge) is kept")
    let tiles = try renderOnly(plan)
    XCTAssertTrue(tiles[0].issues.contains { $0.message.contains("outside the circle guide") })
    XCTAssertTrue(tiles[1].issues.isEmpty, "\(tiles[1].issues)")
    // On the sheet: the warning colour (border, badge, text) on the tile with the warning
    // only; no photo pixel here has that colour.
    func amberPixels(job: String) throws -> Int {
      var options = ProofSheetOptions(directory: folder.appendingPathComponent("proof-\(job)").path)
      options.job = job
      let result = try ProofSheet.write(plan: plan, options: options)
      let page = try Raster.decode(path: result.pages[0])
      return stride(from: 0, to: page.pixels.count, by: 3).filter {
        page.pixels[$0] == 251 && page.pixels[$0 + 1] == 188 && page.pixels[$0 + 2] == 4
      }.count
    }
    XCTAssertGreaterThan(try amberPixels(job: "corner"), 1000)
    XCTAssertEqual(try amberPixels(job: "top"), 0)
  }

  func testGuideOffThePhotoWithFillIsMarked() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 600, height: 300, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        j:
          sources: ["photo.png"]
          guide: {shape: square, size: 100}
          place: {fit: contain, overflow: fill}
          outputs: [{path: "{stem}.png"}]
      """, in: folder)
    let tile = try XCTUnwrap(renderOnly(plan).first)
    XCTAssertTrue(tile.issues.contains { $0.message.contains("outside the photo") }, "\(tile.issues)")
    try assertOutlineMatchesPlan(tile, plan: plan)
  }

  func testUpscalingIsMarked() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 120, height: 90, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        j:
          sources: ["photo.png"]
          guide: {shape: square, size: 256}
          outputs: [{path: "{stem}.png"}]
      """, in: folder)
    let tile = try XCTUnwrap(renderOnly(plan).first)
    XCTAssertTrue(tile.issues.contains { $0.message.hasPrefix("upscaling") }, "\(tile.issues)")
  }

  // MARK: - Smart focus

  /// Smart focus is resolved by the executor's own function, on a decode made as the run
  /// makes it (the plan's shrink-on-load): the tile's geometry is the run's, exactly.
  /// (libvips' attention strategy works on a 32 px thumbnail: on a smaller decode the point
  /// can move by 1/32 of the photo, which `quickSmartFocus` accepts for speed.)
  func testSmartFocusTileUsesTheRunsGeometryExactly() throws {
    let loaded = JobFileLoader.load(path: TestPaths.jobs.appendingPathComponent("avatars.yaml").path)
    let plan = Planner().plan(try XCTUnwrap(loaded.jobFile))
    let tiles = try TileSelection.tiles(of: plan, limit: 5)
    let rendered = ProofSheet.render(tiles, plan: plan, tileSize: 160)
    var checked = 0
    for tile in rendered {
      let output = plan.outputs[tile.tile.outputs[0]]
      let source = plan.sources[tile.tile.sourceIndex]
      guard output.smartFocus != nil, output.place.crop == nil, let header = source.header else { continue }
      let runDecode = try DecodedSource.decode(path: source.absolutePath, header: header, shrink: source.loadShrink)
      let run = try output.runGeometry(decoded: runDecode)
      XCTAssertEqual(tile.geometry, run.geometry, source.path)
      XCTAssertEqual(tile.smartPoint, try XCTUnwrap(run.found?.point))
      try assertOutlineMatches(tile, geometry: run.geometry, shape: output.guide.shape)
      checked += 1
    }
    XCTAssertGreaterThanOrEqual(checked, 4)
  }

  /// `quickSmartFocus` (`preview --quick`): the point is found on the tile-size decode, within
  /// 1/32 of the photo of the run's point (README, "preview"), on each axis.
  func testQuickSmartFocusIsWithinOneThirtySecondOfThePhoto() throws {
    let loaded = JobFileLoader.load(path: TestPaths.jobs.appendingPathComponent("avatars.yaml").path)
    let plan = Planner().plan(try XCTUnwrap(loaded.jobFile))
    let tiles = try TileSelection.tiles(of: plan, limit: 8)
    let rendered = ProofSheet.render(tiles, plan: plan, tileSize: 160, quickSmartFocus: true)
    var checked = 0
    for tile in rendered {
      let output = plan.outputs[tile.tile.outputs[0]]
      let source = plan.sources[tile.tile.sourceIndex]
      guard output.smartFocus != nil, output.place.crop == nil, let header = source.header else { continue }
      let runDecode = try DecodedSource.decode(path: source.absolutePath, header: header, shrink: source.loadShrink)
      let run = try XCTUnwrap(try output.runGeometry(decoded: runDecode).found?.point, source.path)
      let quick = try XCTUnwrap(tile.smartPoint, source.path)
      let size = (width: header.width, height: header.height)
      print("quick smart focus \(source.path): \(quick) against the run's \(run) in \(size.width)x\(size.height)")
      XCTAssertLessThanOrEqual(abs(quick.x - run.x), Double(size.width) / 32, source.path)
      XCTAssertLessThanOrEqual(abs(quick.y - run.y), Double(size.height) / 32, source.path)
      checked += 1
    }
    XCTAssertGreaterThanOrEqual(checked, 4)
  }

  // MARK: - Selection, files, safety

  func testSampleIsEvenlySpacedAndKeepsEnds() {
    XCTAssertEqual(TileSelection.sample(Array(0..<10), limit: 4), [0, 3, 6, 9])
    XCTAssertEqual(TileSelection.sample(Array(0..<10), limit: 1), [5])
    XCTAssertEqual(TileSelection.sample(Array(0..<3), limit: 5), [0, 1, 2])
    XCTAssertEqual(TileSelection.sample(Array(0..<14), limit: 5), [0, 3, 7, 10, 13])
  }

  func testSheetHasEveryTileAndWritesNothingIntoTheOutputRoot() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["a", "b", "c", "d", "e"] {
      _ = try gradientPhoto(width: 300, height: 200, in: folder, name: "\(name).png")
    }
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        one:
          sources: ["*.png"]
          guide: {shape: circle, size: 64}
          outputs: [{path: "one/{stem}.png"}]
        two:
          sources: ["*.png"]
          guide: {shape: rect, width: 120, height: 60}
          outputs: [{path: "two/{stem}.jpg"}]
      """, in: folder)
    var options = ProofSheetOptions(directory: folder.appendingPathComponent("proof").path)
    options.columns = 2
    options.rows = 2
    options.tileSize = 96
    let result = try ProofSheet.write(plan: plan, options: options)
    XCTAssertEqual(result.tiles.count, 10)
    XCTAssertEqual(result.pages.count, 3)
    XCTAssertEqual(result.tileImages.count, 10)
    for path in result.pages + result.tileImages + [result.html] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: plan.outputRoot), "the output root is not even created")
    let page = try Raster.decode(path: result.pages[0])
    XCTAssertEqual(page.bands, 3)

    // A second, shorter sheet in the same folder removes the pages it no longer has.
    options.limit = 1
    let shorter = try ProofSheet.write(plan: plan, options: options)
    XCTAssertEqual(shorter.tiles.count, 2)
    let names = try FileManager.default.contentsOfDirectory(atPath: options.directory).filter { $0.hasPrefix("page-") }
    XCTAssertEqual(names, ["page-001.png"])
  }

  func testRefusesAFolderInsideTheOutputRoot() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try gradientPhoto(width: 300, height: 200, in: folder)
    let plan = try plan(
      """
      version: 1
      output: out
      jobs:
        j:
          sources: ["photo.png"]
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.png"}]
      """, in: folder)
    for inside in ["out", "out/preview", "out/../out/x"] {
      let options = ProofSheetOptions(directory: folder.appendingPathComponent(inside).path)
      XCTAssertThrowsError(try ProofSheet.write(plan: plan, options: options), inside) { error in
        XCTAssertTrue(
          "\(error)".contains("is inside the job's output root") && "\(error)".contains("choose another with --out"),
          "\(inside): \(error)")
      }
    }
    XCTAssertNil(
      ProofSheet.directoryProblem(folder.appendingPathComponent("outside").path, outputRoot: plan.outputRoot))
    XCTAssertFalse(FileManager.default.fileExists(atPath: plan.outputRoot))
  }
}
