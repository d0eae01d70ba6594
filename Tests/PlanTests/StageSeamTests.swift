import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The places where one stage hands a question to another: the job-file decoder asks which
/// formats can be written only when it must, and the planner reads headers through the
/// reader it is given.
final class StageSeamTests: XCTestCase {
  /// Counts how often the decoder asks for the machine's formats.
  final class CountingFormats: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let formats: [OutputFormat]
    init(_ formats: [OutputFormat]) { self.formats = formats }
    var asked: Int { lock.withLock { count } }
    var availability: FormatAvailability {
      FormatAvailability {
        self.lock.withLock { self.count += 1 }
        return self.formats
      }
    }
  }

  func job(_ outputs: String) -> [UInt8] {
    Array(
      """
      version: 1
      output: out
      jobs:
        a:
          sources: a.jpg
          guide: {size: 64}
          outputs: [\(outputs)]

      """.utf8)
  }

  func testJPEGAndPNGAreNotProbed() {
    let counting = CountingFormats([.jpeg, .png])
    let result = JobFileLoader.load(
      bytes: job(#"{path: "{stem}.jpg"}, {path: "{stem}.png"}, {path: "x-{stem}.png", encode: {format: png}}"#),
      path: "job.yaml", formats: counting.availability)
    XCTAssertNotNil(result.jobFile, result.diagnostics.map(\.description).joined(separator: "\n"))
    XCTAssertEqual(counting.asked, 0, "validating JPEG and PNG outputs must not ask libvips")
  }

  func testOtherFormatsAreProbedOnceAndRefusedWhenMissing() {
    let counting = CountingFormats([.jpeg, .png, .webp])
    let result = JobFileLoader.load(
      bytes: job(#"{path: "{stem}.webp"}, {path: "{stem}.avif"}, {path: "b-{stem}.avif"}"#), path: "job.yaml",
      formats: counting.availability)
    XCTAssertEqual(counting.asked, 1, "one probe per job file")
    XCTAssertNil(result.jobFile)
    let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
    XCTAssertEqual(errors.count, 2, errors.joined(separator: "\n"))
    XCTAssertTrue(
      errors.allSatisfy { $0.contains("expected a format this build of libvips can write (jpeg, png, webp)") },
      errors.joined(separator: "\n"))
  }

  func testUncheckedAcceptsEveryFormat() {
    let result = JobFileLoader.load(bytes: job(#"{path: "{stem}.jxl"}, {path: "{stem}.avif"}"#), path: "job.yaml")
    XCTAssertNotNil(result.jobFile, result.diagnostics.map(\.description).joined(separator: "\n"))
  }

  struct Unknown: Error, CustomStringConvertible {
    var path: String
    var description: String { "KnownHeaders has no header for \(path)" }
  }

  /// A header reader that knows each file's header in advance (no image is opened).
  struct KnownHeaders: SourceHeaderReading {
    var headers: [String: SourceHeader]
    var engineVersion: String { "known-headers 1" }
    func start() {}
    func header(path: String) throws -> SourceHeader {
      guard let header = headers[(path as NSString).lastPathComponent] else { throw Unknown(path: path) }
      return header
    }
  }

  func testThePlannerUsesTheReaderItIsGiven() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["wide.jpg", "tall.jpg", "broken.jpg"] {
      XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
    }
    let text = """
      version: 1
      output: out
      jobs:
        a:
          sources: ["*.jpg"]
          guide: {size: 100}
          outputs: [{path: "{stem}.png"}]

      """
    let jobPath = folder.appendingPathComponent("job.yaml").path
    try text.write(toFile: jobPath, atomically: true, encoding: .utf8)
    let file = try XCTUnwrap(JobFileLoader.load(path: jobPath).jobFile)
    let reader = KnownHeaders(headers: [
      "wide.jpg": SourceHeader(
        format: .jpeg, storedWidth: 800, storedHeight: 400, orientation: 1, bands: 3, hasAlpha: false, pages: 1),
      // Stored sideways (EXIF 6): 300 wide, 900 high once upright.
      "tall.jpg": SourceHeader(
        format: .jpeg, storedWidth: 900, storedHeight: 300, orientation: 6, bands: 3, hasAlpha: false, pages: 1),
    ])
    let plan = Planner(headers: reader).plan(file)
    XCTAssertEqual(plan.engineVersion, "known-headers 1")
    let byName = Dictionary(uniqueKeysWithValues: plan.outputs.map { ($0.path, $0) })
    // Cover: the shorter side fills 100 px.
    XCTAssertEqual(try XCTUnwrap(byName["wide.png"]).geometry.scale, 100.0 / 400, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(byName["tall.png"]).geometry.scale, 100.0 / 300, accuracy: 1e-12)
    // JPEG shrink-on-load from the largest output: 1/4 of 400 px still covers 100 px.
    let wide = try XCTUnwrap(plan.sources.first { $0.path.hasSuffix("wide.jpg") })
    XCTAssertEqual(wide.loadShrink, 4)
    let broken = try XCTUnwrap(plan.sources.first { $0.path.hasSuffix("broken.jpg") })
    XCTAssertNil(broken.header)
    // The reader's own error reaches the plan, naming the file.
    let error = try XCTUnwrap(broken.error)
    XCTAssertTrue("\(error)".contains("KnownHeaders has no header for"), "\(error)")
    XCTAssertTrue("\(error)".contains("broken.jpg"), "\(error)")
    XCTAssertNil(byName["broken.png"])
  }
}
