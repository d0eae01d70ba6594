import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Issue 40, point 7: what an index page shows. Its CSS gives each image the width its
/// `sizes` says (in Chromium: at 1,400 px, `(min-width: 800px) 800px, 100vw` shows the image
/// 800 px wide, not the largest file's 1,200), and it names no folder of the sources (an
/// absolute path on the server included) in its comments or title.
final class DeliveryIndexPageTests: XCTestCase {
  func harness(sizes: String) throws -> RunHarness {
    let job = """
      version: 1
      output: out
      jobs:
        hero:
          sources: ["photos/kite.jpg"]
          guide: {aspect: "16:9", width: 400}
          index: {path: "pages/{stem}.html", sizes: "\(sizes)"}
          outputs:
            - {path: "img/{stem}-{width}.jpg", widths: [400, 800, 1200]}
      """
    let harness = try RunHarness(samples: ["kite.jpg"], job: job)
    // The sources named by their absolute paths, as a server's job file would.
    try harness.writeJob(
      job.replacingOccurrences(of: "\"photos/kite.jpg\"", with: "\"\(harness.folder.path)/photos/kite.jpg\""))
    return harness
  }

  func testThePageNamesNoFolderOfItsSources() throws {
    let harness = try harness(sizes: "100vw")
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let page = try String(contentsOfFile: harness.outputRoot + "/pages/kite.html", encoding: .utf8)
    XCTAssertFalse(page.contains(harness.folder.path), page)
    XCTAssertTrue(page.contains("<title>hero: kite.jpg</title>"), page)
    XCTAssertTrue(page.contains("<!-- kite.jpg -->"), page)
  }

  func testTheImageIsShownAtTheWidthItsSizesSays() throws {
    guard let chromium = DeliveryIndexBrowserTests.chromium else { throw Skipped.because("chromium not installed") }
    let harness = try harness(sizes: "(min-width: 800px) 800px, (min-width: 700px) calc(50vw + 10px), 100vw")
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0, "\(summary.failures)")
    let root = harness.outputRoot
    let page = try String(contentsOfFile: root + "/pages/kite.html", encoding: .utf8)
    let probePage = root + "/pages/probe.html"
    try page.replacingOccurrences(of: " srcset=\"", with: " data-srcset=\"")
      .replacingOccurrences(of: " src=\"", with: " data-src=\"")
      .replacingOccurrences(of: "</body>", with: DeliveryIndexBrowserTests.probe + "</body>")
      .write(toFile: probePage, atomically: true, encoding: .utf8)
    // (viewport, the width `sizes` gives): the first matching entry, else the last.
    // At 500 px (headless Chromium's narrowest window), 100vw is capped by max-width: 100%
    // of the body (8 px margins): 484.
    for (viewport, width) in [(1400, 800.0), (750, 385.0), (500, 484.0)] {
      let probe = try DeliveryIndexBrowserTests.load(probePage, chromium: chromium, width: viewport, dpr: 1)
      let box = try XCTUnwrap(probe.after.first?.box)
      XCTAssertEqual(box[0], width, accuracy: 0.5, "viewport \(viewport): the image's CSS width")
      XCTAssertEqual(box[1], box[0] * 9 / 16, accuracy: 1, "viewport \(viewport): its aspect")
    }
  }
}
