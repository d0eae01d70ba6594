import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 40, point 6: messages a user reads say what the input is.
final class ReportWordingTests: XCTestCase {
  /// `cropjob run photo.jpg`: an image given where the job file goes.
  func testAnImageGivenAsTheJobFileIsNamedAnImage() throws {
    for name in ["kite.jpg", "cat.png"] {
      let result = JobFileLoader.load(path: TestPaths.sample(name))
      XCTAssertNil(result.jobFile)
      let message = result.diagnostics.map(\.description).joined(separator: "\n")
      XCTAssertTrue(message.contains("this is an image ("), message)
      XCTAssertTrue(message.contains("not a job file"), message)
      XCTAssertFalse(message.contains("UTF-8"), message)
    }
  }

  /// A number a `Double` cannot hold is an out-of-range number, not a string.
  func testAnOverflowingNumberIsReportedAsOutOfRange() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("job.json").path
    try """
    {"version": 1, "output": "out", "jobs": {"a": {"sources": ["p"], "guide": {"shape": "square", "size": 64},
     "place": {"zoom": 1e999}, "outputs": [{"path": "{stem}.jpg"}]}}}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let message = JobFileLoader.load(path: path).diagnostics.map(\.description).joined(separator: "\n")
    XCTAssertTrue(message.contains("the number 1e999, out of range"), message)
    XCTAssertFalse(message.contains("the string \"1e999\""), message)
  }
}
