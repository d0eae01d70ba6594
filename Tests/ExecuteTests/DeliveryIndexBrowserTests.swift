import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// A generated index page in a real browser: headless Chromium (Debian `chromium`), started by
/// the test, at two viewport widths and two device pixel ratios. A probe script added to the
/// page records, once every image has loaded, each image's `currentSrc`, `complete`,
/// `naturalWidth` and box, the boxes before any image loaded, and the layout shift total
/// (`PerformanceObserver` of type `layout-shift`, `buffered: true`). The candidate the browser
/// must pick is computed here by the HTML spec's rule: the first `<source>` of a type the
/// browser reads (AVIF, ahead of WebP and the JPEG fallback), and in it the smallest
/// candidate at least `sizes` (100vw) × DPR pixels wide, else the largest.
final class DeliveryIndexBrowserTests: XCTestCase {
  static let widths = [480, 800, 1200, 2000]
  /// (viewport width, device pixel ratio): each picks another candidate (800, 1200, 1200, 2000).
  static let views: [(width: Int, dpr: Int)] = [(500, 1), (500, 2), (900, 1), (900, 2)]

  static let probe = """
    <script>
    var images = Array.from(document.images);
    // The page's sources come in as data- attributes (see the test), so these boxes are
    // measured before any image has loaded; then the sources are given back, as written.
    var before = images.map(function (i) {
      var r = i.getBoundingClientRect(); return [r.width, r.height, i.complete && i.naturalWidth > 0];
    });
    document.querySelectorAll('[data-srcset]').forEach(function (e) { e.setAttribute('srcset', e.getAttribute('data-srcset')); });
    document.querySelectorAll('[data-src]').forEach(function (e) { e.setAttribute('src', e.getAttribute('data-src')); });
    var shift = 0;
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { shift += e.value; });
    }).observe({type: 'layout-shift', buffered: true});
    function done() {
      var after = images.map(function (i) {
        var r = i.getBoundingClientRect();
        return {src: i.currentSrc, complete: i.complete, naturalWidth: i.naturalWidth, box: [r.width, r.height]};
      });
      var out = document.createElement('pre');
      out.id = 'probe';
      out.textContent = JSON.stringify({before: before, after: after, shift: shift, innerWidth: innerWidth,
        dpr: devicePixelRatio});
      document.body.appendChild(out);
    }
    function poll() {
      if (images.every(function (i) { return i.complete; })) setTimeout(done, 100); else setTimeout(poll, 20);
    }
    poll();
    </script>

    """

  struct Probe: Decodable {
    struct Image: Decodable {
      var src: String
      var complete: Bool
      var naturalWidth: Int
      var box: [Double]
    }
    var before: [[JSONValue]]
    var after: [Image]
    var shift: Double
    var innerWidth: Int
    var dpr: Double
  }

  /// A number or a boolean of the probe's `before` rows.
  enum JSONValue: Decodable {
    case number(Double)
    case bool(Bool)
    init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else {
        self = .number(try container.decode(Double.self))
      }
    }
    var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
  }

  static var chromium: String? {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  func testBrowserPicksTheSpecsCandidateLoadsEveryImageAndNothingShifts() throws {
    guard let chromium = Self.chromium else { throw Skipped.because("chromium not installed") }
    let job = """
      version: 1
      output: out
      jobs:
        hero:
          sources: ["photos"]
          guide: {aspect: "16:9", width: 480}
          index: {path: "pages/all photos.html"}
          outputs:
            - {path: "img/{stem} \\"q\\" & co-{width}.avif", widths: \(Self.widths), encode: {format: avif, effort: 0}}
            - {path: "img/{stem} \\"q\\" & co-{width}.webp", widths: \(Self.widths)}
            - {path: "img/{stem} \\"q\\" & co-{width}.jpg", widths: \(Self.widths), placeholders: [dominant, lqip]}
      """
    let harness = try RunHarness(samples: ["kite.jpg", "bridge.jpg"], job: job)
    defer { harness.remove() }
    let (summary, _) = try harness.run()
    XCTAssertEqual(summary.failed, 0)
    let root = harness.outputRoot
    let index = try JSONDecoder().decode(
      DeliveryIndex.self, from: Data(contentsOf: URL(fileURLWithPath: root + "/pages/all photos.json")))
    XCTAssertEqual(index.images.count, 2)
    // The placeholder is the images' background while they load.
    for image in index.images {
      let placeholder = try XCTUnwrap(image.placeholder)
      XCTAssertNotNil(placeholder.dominant)
      XCTAssertTrue(image.html.contains("style=\"background: \(placeholder.dominant!) url(&quot;data:image/"))
    }
    let page = try String(contentsOfFile: root + "/pages/all photos.html", encoding: .utf8)
    let probePage = root + "/pages/probe.html"
    // The images' sources held back until the probe has measured their boxes: whether an
    // image from a local file has loaded by the time a script runs is a race.
    let deferred = page.replacingOccurrences(of: " srcset=\"", with: " data-srcset=\"")
      .replacingOccurrences(of: " src=\"", with: " data-src=\"")
    XCTAssertEqual(deferred.components(separatedBy: " data-src=\"").count - 1, index.images.count)
    try deferred.replacingOccurrences(of: "</body>", with: Self.probe + "</body>")
      .write(toFile: probePage, atomically: true, encoding: .utf8)
    let results = LockedBox([Int: Result<Probe, Error>]())
    DispatchQueue.concurrentPerform(iterations: Self.views.count) { k in
      let view = Self.views[k]
      let result = Result { try Self.load(probePage, chromium: chromium, width: view.width, dpr: view.dpr) }
      results.withLock { $0[k] = result }
    }
    let pageURL = URL(fileURLWithPath: probePage)
    var unloadedAtProbe = 0
    for (k, view) in Self.views.enumerated() {
      let probe = try XCTUnwrap(results.withLock { $0[k] }).get()
      let label = "viewport \(view.width) px, DPR \(view.dpr)"
      XCTAssertEqual(probe.innerWidth, view.width, label)
      XCTAssertEqual(probe.dpr, Double(view.dpr), label)
      // sizes="100vw": the browser needs innerWidth × DPR pixels.
      let needed = view.width * view.dpr
      let expected = Self.widths.first { $0 >= needed } ?? Self.widths.last!
      XCTAssertEqual(probe.after.count, 2, label)
      for (image, shown) in zip(index.images, probe.after) {
        // The first <source> whose type the browser supports: AVIF (Chromium reads it), ahead
        // of WebP and the JPEG fallback.
        XCTAssertEqual(image.formats.map(\.format), ["avif", "webp", "jpeg"], label)
        let avif = try XCTUnwrap(image.formats.first { $0.format == "avif" })
        let candidate = try XCTUnwrap(avif.candidates.first { $0.width == expected })
        let resolved = try XCTUnwrap(URL(string: candidate.url, relativeTo: pageURL)).absoluteURL.absoluteString
        XCTAssertEqual(shown.src, resolved, label)
        XCTAssertTrue(shown.complete && shown.naturalWidth > 0, "\(label): \(shown.src) did not load")
        print(
          "index in Chromium: \(label): needs \(needed) px, picked \(shown.src.split(separator: "/").last!), "
            + "loaded \(shown.complete) (\(shown.naturalWidth) px), layout shift \(probe.shift)")
      }
      XCTAssertEqual(probe.shift, 0, "\(label): layout shift")
      for (before, after) in zip(probe.before, probe.after) {
        XCTAssertEqual(before.compactMap(\.number), after.box, "\(label): the box changed when the image loaded")
        // The box had the image's aspect (width and height attributes) before it loaded.
        XCTAssertEqual(after.box[1], after.box[0] * 9 / 16, accuracy: 1, label)
      }
      unloadedAtProbe += probe.before.filter { $0.last?.bool == false }.count
    }
    // Every box was measured before its image loaded (the sources were held back).
    XCTAssertEqual(unloadedAtProbe, Self.views.count * index.images.count, "an image had loaded before the probe ran")
  }

  /// Loads `page` in headless Chromium at a viewport `width` wide (2000 high: every image in
  /// view) and `dpr`, and returns what the probe wrote into the DOM.
  static func load(_ page: String, chromium: String, width: Int, dpr: Int) throws -> Probe {
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("cropjob-chromium-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: profile) }
    let url = URL(fileURLWithPath: page).absoluteString
    let process = Process()
    process.executableURL = URL(fileURLWithPath: chromium)
    process.arguments = [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
      "--window-size=\(width),2000", "--force-device-scale-factor=\(dpr)", "--virtual-time-budget=10000",
      "--dump-dom", url,
    ]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A hung browser fails the test instead of holding it.
    let watchdog = DispatchWorkItem { process.terminate() }
    DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
    let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    watchdog.cancel()
    guard let start = dom.range(of: "<pre id=\"probe\">"),
      let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
    else {
      throw AtomicWriter.WriteError(
        path: page, message: "no probe result in Chromium's DOM (exit \(process.terminationStatus))")
    }
    let text = String(dom[start.upperBound..<end.lowerBound])
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
    return try JSONDecoder().decode(Probe.self, from: Data(text.utf8))
  }
}
