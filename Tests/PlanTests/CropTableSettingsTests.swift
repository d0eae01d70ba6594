import CropGeometry
import CropPlan
import CropSpec
import CropSupport
import Foundation
import TestSupport
import XCTest

/// `overrides_from` as a mapping: the frame and units of a table's crops, what a bad row
/// does (`on_error`), and whether photos need rows (`require_crop`) and rows photos
/// (`on_unmatched_row`). Decoding, then what the plan makes of it.
final class CropTableSettingsTests: XCTestCase {
  /// Every file is a 1600x1000 JPEG with EXIF orientation `orientation` (no image is opened).
  struct FixedHeaders: SourceHeaderReading {
    var orientation = 1
    var engineVersion: String { "fixed-headers 1" }
    func start() {}
    func header(path: String) throws -> SourceHeader {
      let stored = orientation >= 5 ? (1000, 1600) : (1600, 1000)
      return SourceHeader(
        format: .jpeg, storedWidth: stored.0, storedHeight: stored.1, orientation: orientation, bands: 3,
        hasAlpha: false, pages: 1)
    }
  }

  /// A folder with photos p1…p3.jpg (empty files), `crops.<ext>` holding `table`, and
  /// `job.yaml` with jobs a and b over the photos and `overrides_from: <settings>`.
  func folder(table: String, ext: String = "csv", settings: String) throws -> String {
    let folder = TestPaths.scratch()
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    for name in ["p1.jpg", "p2.jpg", "p3.jpg"] {
      _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
    }
    try table.write(to: folder.appendingPathComponent("crops.\(ext)"), atomically: true, encoding: .utf8)
    let job = """
      version: 1
      output: out
      jobs:
        a: {sources: "p*.jpg", guide: {shape: square, size: 100}, outputs: [{path: "a/{stem}.png"}]}
        b: {sources: "p*.jpg", guide: {shape: square, size: 100}, outputs: [{path: "b/{stem}.png"}]}
      overrides_from: \(settings)

      """
    let path = folder.appendingPathComponent("job.yaml").path
    try job.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func located(_ result: JobFileLoader.Result) -> [String] {
    result.diagnostics.map { d in
      "\(d.line):\(d.column): \(d.severity.rawValue): \(d.field.isEmpty ? "" : d.field + ": ")\(d.message)"
    }
  }

  // MARK: - Decoding

  func testColumnsAFrameDoesNotHaveAreLocatedErrors() throws {
    let cropper = try folder(
      table: """
        source,x,y,width,height,rotate,angle,zoom,scaleX,scaleY,flip
        p1.jpg,1,2,30,40,90,5,,,,
        p2.jpg,1,2,30,40,,,2,,,
        p3.jpg,1,2,30,40,,,,2,,
        q4.jpg,,,,,,,,,,horizontal
        q5.jpg,1,2,30,40,,,,-1,,vertical

        """, settings: "{path: crops.csv, frame: cropperjs, on_error: fail-job}")
    XCTAssertEqual(
      located(JobFileLoader.load(path: cropper)).map {
        $0.replacingOccurrences(of: "(x, y, width, height, rotate, flip, scaleX, scaleY)", with: "(…)")
      },
      [
        "2:21: error: angle: expected a column of a crop in frame cropperjs (…) but received angle",
        "3:20: error: zoom: expected a column of a crop in frame cropperjs (…) but received zoom",
        "4:21: error: scaleX: expected 1 or -1 (Cropper.js's scaleX; -1 mirrors the image) but received the number 2",
        "5:1: error: x: expected a crop (x, y, width, height) in frame cropperjs but received a row without one",
        "6:21: error: scaleX: expected flip or scaleX and scaleY but received flip and scaleX",
      ])
    let upright = try folder(
      table: "source,x,y,width,height,scaleX\np1.jpg,1,2,30,40,-1\n", settings: "{path: crops.csv}")
    XCTAssertEqual(
      located(JobFileLoader.load(path: upright)),
      [
        "2:18: error: scaleX: expected a column of frame upright (scaleX and scaleY are Cropper.js's: frame cropperjs) "
          + "but received scaleX"
      ])
  }

  func testSettingsAreCheckedWhereWritten() throws {
    let path = try folder(
      table: "source,zoom\np1.jpg,2\n", settings: "{path: crops.csv, frame: cropper, check_orientation: false}")
    XCTAssertEqual(
      located(JobFileLoader.load(path: path)),
      [
        "6:42: error: overrides_from.frame: expected one of upright, cropperjs, react-easy-crop but received the string "
          + "\"cropper\"; did you mean \"cropperjs\"?"
      ])
    let mismatched = try folder(
      table: "source,zoom\np1.jpg,2\n", settings: "{path: crops.csv, check_orientation: false}")
    XCTAssertEqual(
      located(JobFileLoader.load(path: mismatched)),
      [
        "6:54: error: overrides_from.check_orientation: expected frame: cropperjs with check_orientation "
          + "(Cropper.js's option) but received frame upright"
      ])
  }

  /// Relative units read fractions (a width of 0.5 is valid, 20 is not) and make them pixels
  /// of the photo at plan time.
  func testRelativeUnitsAreFractionsOfThePhoto() throws {
    let path = try folder(
      table: "source,job,x,y,width,height,angle\np1.jpg,a,0.25,0.1,0.5,0.8,10\np2.jpg,a,0,0,20,0.5,\n",
      settings: "{path: crops.csv, units: relative}")
    XCTAssertEqual(
      located(JobFileLoader.load(path: path)),
      ["3:14: error: width: expected a number between 0.0001 and 10 but received the number 20"])
    try "source,job,x,y,width,height,angle\np1.jpg,a,0.25,0.1,0.5,0.8,10\n".write(
      toFile: PathText.deletingLastComponent(path) + "/crops.csv", atomically: true, encoding: .utf8)
    let file = try XCTUnwrap(JobFileLoader.load(path: path).jobFile)
    let plan = Planner(headers: FixedHeaders()).plan(file)
    let output = try XCTUnwrap(plan.outputs.first { $0.job == "a" && $0.path == "a/p1.png" })
    XCTAssertEqual(output.place.crop, CropRect(x: 400, y: 100, width: 800, height: 800, angle: 10))
  }

  /// A Cropper.js row of an orientation-6 photo nobody turned plans as the upright crop.
  func testCropperRowsAreResolvedFromTheHeader() throws {
    let path = try folder(
      table:
        #"{"source": "p1.jpg", "job": "a", "x": 100, "y": 200, "width": 300, "height": 300, "rotate": 90, "scaleX": 1, "scaleY": 1}"#,
      ext: "jsonl", settings: "{path: crops.jsonl, frame: cropperjs}")
    let file = try XCTUnwrap(JobFileLoader.load(path: path).jobFile)
    let plan = Planner(headers: FixedHeaders(orientation: 6)).plan(file)
    let output = try XCTUnwrap(plan.outputs.first { $0.path == "a/p1.png" })
    XCTAssertEqual(output.place.crop, CropRect(x: 100, y: 200, width: 300, height: 300, angle: 0))
    XCTAssertFalse(output.place.flipHorizontal || output.place.flipVertical)
  }

  // MARK: - What the plan makes of it

  /// `on_error: fail-row`: the bad row's problems are warnings, its source fails (with the
  /// problem located in the table), the other sources plan; the default fails the job file.
  func testFailRowFailsTheRowsSourceOnly() throws {
    let table =
      "source,job,x,y,width,height\np1.jpg,,0,0,-3,10\np2.jpg,a,0,0,10,10\np3.jpg,b,0,0,10,10\np3.jpg,b,1,1,9,9\n"
    let failJob = try folder(table: table, settings: "crops.csv")
    XCTAssertNil(JobFileLoader.load(path: failJob).jobFile)
    let path = try folder(table: table, settings: "{path: crops.csv, on_error: fail-row}")
    let loaded = JobFileLoader.load(path: path)
    XCTAssertEqual(
      located(loaded),
      [
        "2:13: warning: width: expected a number between 1 and 1000000 but received the number -3",
        "5:1: warning: source: expected one override per source and job but received a second override of "
          + "\"p3.jpg\" (the first is line 4)",
      ])
    let file = try XCTUnwrap(loaded.jobFile)
    let plan = Planner(headers: FixedHeaders()).plan(file)
    XCTAssertTrue(plan.isRunnable)
    let failed = plan.issues.filter { $0.severity == .error }.map { "\($0.job ?? "") \($0.source ?? "")" }.sorted()
    XCTAssertEqual(failed, ["a p1.jpg", "b p1.jpg", "b p3.jpg"])
    XCTAssertEqual(plan.outputs.map(\.path).sorted(), ["a/p2.png", "a/p3.png", "b/p2.png"])
    let message = try XCTUnwrap(plan.issues.first { $0.severity == .error }?.message)
    XCTAssertTrue(message.contains("crops.csv:2:13: width: expected a number between 1 and 1000000"), message)
  }

  func testRequireCropFailsPhotosWithoutARow() throws {
    let table = "source,job,zoom\np1.jpg,,2\np2.jpg,a,2\n"
    let lenient = try XCTUnwrap(JobFileLoader.load(path: try folder(table: table, settings: "crops.csv")).jobFile)
    XCTAssertEqual(Planner(headers: FixedHeaders()).plan(lenient).outputs.count, 6)
    let strict = try XCTUnwrap(
      JobFileLoader.load(path: try folder(table: table, settings: "{path: crops.csv, require_crop: true}")).jobFile)
    let plan = Planner(headers: FixedHeaders()).plan(strict)
    XCTAssertTrue(plan.isRunnable)
    XCTAssertEqual(plan.outputs.map(\.path).sorted(), ["a/p1.png", "a/p2.png", "b/p1.png"])
    XCTAssertEqual(
      plan.issues.filter { $0.severity == .error }.map { "\($0.job ?? "") \($0.source ?? ""): \($0.message)" }.sorted(),
      [
        "a p3.jpg: no row of the crop table \(strict.cropTable ?? "") for this photo (require_crop: true)",
        "b p2.jpg: no row of the crop table \(strict.cropTable ?? "") for this photo (require_crop: true)",
        "b p3.jpg: no row of the crop table \(strict.cropTable ?? "") for this photo (require_crop: true)",
      ])
  }

  func testUnmatchedRowsCanBeAnError() throws {
    let table = "source,zoom\np1.jpg,2\nold.jpg,2\n"
    let warned = try XCTUnwrap(JobFileLoader.load(path: try folder(table: table, settings: "crops.csv")).jobFile)
    let warnPlan = Planner(headers: FixedHeaders()).plan(warned)
    XCTAssertTrue(warnPlan.isRunnable)
    XCTAssertEqual(warnPlan.issues.map(\.severity), [.warning])
    let strict = try XCTUnwrap(
      JobFileLoader.load(path: try folder(table: table, settings: "{path: crops.csv, on_unmatched_row: error}"))
        .jobFile)
    let plan = Planner(headers: FixedHeaders()).plan(strict)
    XCTAssertFalse(plan.isRunnable)
    let error = try XCTUnwrap(plan.issues.first { $0.severity == .error })
    XCTAssertTrue(error.message.hasPrefix("1 override matches no source"), error.message)
    XCTAssertTrue(error.message.contains("old.jpg (\(strict.cropTable ?? ""):3)"), error.message)
    XCTAssertTrue(error.message.hasSuffix("(on_unmatched_row: error)"), error.message)
  }
}
