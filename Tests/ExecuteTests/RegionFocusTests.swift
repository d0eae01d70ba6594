import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// `focus: regions` end to end: the plan places each photo about its stored face region (for
/// every EXIF orientation and both schemas), shows the boxes, and `run` writes the face where
/// an independent search (numpy) finds it.
final class RegionFocusTests: XCTestCase {
  static let folder = Corpora.root.appendingPathComponent("regions")
  /// The face region the corpus stores (as StoredRegionTests, ImagingTests, reads it).
  static let face = Rect(x: 92.5, y: 38.5, width: 44, height: 47.5)

  func plan(_ files: [String], place: String, output: String = "out") throws -> Plan {
    let sources = files.map { "\"\(Self.folder.appendingPathComponent($0).path)\"" }.joined(separator: ", ")
    let yaml = """
      version: 1
      output: "\(output)"
      jobs:
        r:
          sources: [\(sources)]
          guide: {shape: square, size: 100}
          place: \(place)
          outputs: [{path: "{stem}.png"}]
      """
    let loaded = JobFileLoader.load(bytes: Array(yaml.utf8), path: "inline.yaml")
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    return Planner().plan(file)
  }

  func testPlanPlacesEveryOrientationAboutTheFace() throws {
    let files = (1...8).flatMap { n in ["o\(n)-mwg.jpg", "o\(n)-mp.jpg"] + (n >= 5 ? ["o\(n)-stored.jpg"] : []) }
    let plan = try plan(files, place: "{focus: regions, zoom: 2}")
    XCTAssertEqual(plan.outputs.count, files.count)
    for output in plan.outputs {
      let name = plan.sources[output.sourceIndex].path
      let boxes = try XCTUnwrap(output.regionBoxes, name)
      XCTAssertEqual(boxes.count, 1, name)
      XCTAssertTrue(boxes[0].rect.isApproximatelyEqual(to: Self.face, tolerance: 0.01), "\(name): \(boxes[0].rect)")
      XCTAssertEqual(boxes[0].score, 1)
      // 256×200 at zoom 2 under 100×100: a 100×100 window, centred on the face's centre.
      let centre = output.geometry.centre
      XCTAssertEqual(centre.x, Self.face.centre.x, accuracy: 0.01, name)
      XCTAssertEqual(centre.y, Self.face.centre.y, accuracy: 0.01, name)
    }
  }

  func testTypeFilterAndPlanJSON() throws {
    // attributes.jpg: Face, Pet (96, 50, 64, 100), Focus point.
    let pets = try plan(["attributes.jpg"], place: "{focus: [regions, centre], regions: [pet], zoom: 2}")
    let output = try XCTUnwrap(pets.outputs.first)
    XCTAssertEqual(output.regionBoxes?.map(\.rect), [Rect(x: 96, y: 50, width: 64, height: 100)])
    let json = PlanRenderer.render(pets, format: .json)
    XCTAssertTrue(json.contains("\"origin\" : \"region pet\""), json)
    XCTAssertTrue(json.contains("\"kept\" : true"), json)
    XCTAssertTrue(json.contains("\"score\" : 1"), json)
    // No region of the asked type: none found, the fallback (centre) places the photo.
    let barcodes = try plan(["attributes.jpg"], place: "{focus: [regions, centre], regions: [barcode], zoom: 2}")
    XCTAssertEqual(barcodes.outputs.first?.regionBoxes, [])
    XCTAssertEqual(barcodes.outputs.first?.geometry.centre, Point(x: 128, y: 100))
    XCTAssertTrue(PlanRenderer.render(barcodes, format: .json).contains("\"regions\" : [\n\n      ]"))
    // A job without regions reads no packet and shows no regions key.
    let plain = try plan(["damaged.jpg"], place: "{focus: centre}")
    XCTAssertNil(plain.outputs.first?.regionBoxes)
    XCTAssertEqual(plain.issues, [])
    XCTAssertFalse(PlanRenderer.render(plain, format: .json).contains("\"regions\""))
  }

  func testDamagedPacketIsAWarningNamingTheFileAndTheJobFallsBack() throws {
    let plan = try plan(["damaged.jpg"], place: "{focus: [regions, centre], zoom: 2}")
    XCTAssertTrue(plan.isRunnable)
    XCTAssertEqual(plan.issues.count, 1)
    let issue = try XCTUnwrap(plan.issues.first)
    XCTAssertEqual(issue.severity, .warning)
    XCTAssertEqual(issue.source, Self.folder.appendingPathComponent("damaged.jpg").path)
    XCTAssertTrue(issue.message.hasPrefix("XMP packet is damaged: end tag </rdf:lx>"), issue.message)
    XCTAssertEqual(plan.outputs.first?.geometry.centre, Point(x: 128, y: 100))
  }

  /// `run` renders about the same boxes as the plan; numpy finds the face patch of the
  /// displayed picture (Pillow's `exif_transpose`, the hand-checked box rounded out) in the
  /// output at the offset the face box has in a 100×100 window centred on it, within 1 px.
  func testRunWritesTheFaceWhereAnIndependentSearchFindsIt() throws {
    guard let python = PlacementImageTests.pythonWithPillow() else {
      throw Skipped.because("needs /usr/bin/python3 with python3-pil and python3-numpy")
    }
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = ["o1-mwg.jpg", "o3-mp.jpg", "o6-mwg.jpg", "o8-stored.jpg", "o7-mp.jpg"]
    let plan = try plan(files, place: "{focus: regions, zoom: 2}", output: folder.path)
    let summary = JobRun(plan.jobFile).execute(
      try JobPlan.planned(plan.jobFile, planner: Planner()), reporter: CollectingReporter())
    XCTAssertEqual(summary.written, files.count)
    // The manifest records the region boxes as it records detected faces.
    let manifest = try JSONDecoder().decode(
      Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("cropjob-manifest.json")))
    for entry in manifest.outputs {
      let found = try XCTUnwrap(entry.geometry.found, entry.path)
      XCTAssertEqual(found.strategy, "regions", entry.path)
      let box = try XCTUnwrap(found.boxes?.first, entry.path)
      XCTAssertTrue(box.rect.isApproximatelyEqual(to: Self.face, tolerance: 0.01), "\(entry.path): \(box.rect)")
      XCTAssertEqual(box.origin, "region face \"Eileen Collins\"")
      XCTAssertEqual(box.score, 1)
      XCTAssertTrue(box.kept)
    }
    let expected = Point(x: Self.face.minX - (Self.face.centre.x - 50), y: Self.face.minY - (Self.face.centre.y - 50))
    let script = """
      import sys, numpy as np
      from PIL import Image, ImageOps
      source, output = sys.argv[1], sys.argv[2]
      shown = np.asarray(ImageOps.exif_transpose(Image.open(source)).convert('L'), dtype=float)
      patch = shown[38:86, 92:137]
      out = np.asarray(Image.open(output).convert('L'), dtype=float)
      ph, pw = patch.shape
      best = min(((np.abs(out[y:y+ph, x:x+pw] - patch).mean(), x, y)
                  for y in range(out.shape[0] - ph + 1) for x in range(out.shape[1] - pw + 1)))
      print(best[1], best[2], best[0])
      """
    for file in files {
      let stem = (file as NSString).deletingPathExtension
      let result = try Subprocess.run(
        python,
        [
          "-c", script, Self.folder.appendingPathComponent(file).path,
          folder.appendingPathComponent("\(stem).png").path,
        ])
      XCTAssertEqual(result.status, 0, result.stderr)
      let numbers = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
      XCTAssertEqual(numbers.count, 3, result.stdout)
      guard numbers.count == 3 else { continue }
      // The patch starts at integer (92, 38); the face box at (92.5, 38.5).
      XCTAssertEqual(numbers[0], expected.x - 0.5, accuracy: 1, "\(file): found at \(numbers)")
      XCTAssertEqual(numbers[1], expected.y - 0.5, accuracy: 1, "\(file): found at \(numbers)")
      // Grey levels: a half-pixel resampling phase and JPEG noise (4 px off gives 26).
      XCTAssertLessThan(numbers[2], 10, "\(file): mean difference at the best match")
    }
  }
}
