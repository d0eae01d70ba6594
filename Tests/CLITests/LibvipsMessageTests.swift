import Foundation
import TestSupport
import XCTest

/// Nothing libvips logs reaches stderr raw: over damaged files, every line `cropjob plan` and
/// `cropjob run` print on stderr is one of cropjob's own, and the damage is reported against
/// the file it is in (docs/reliability.md, "Messages").
///
/// The damaged files: the corrupt and fuzz-found files of the corpora (jpeg-decoder's crash
/// and ICC files, PngSuite's `x*.png`, the fuzz fixtures), truncated copies of sample JPEGs,
/// and sample JPEGs with stray bytes before one of the markers their header is made of.
/// libjpeg reads those headers with a warning ("Corrupt JPEG data: 5 extraneous bytes before
/// marker 0xdb") that libvips keeps until the reader is closed, then logs as `read gave 1
/// warnings`: before the fix the header reader released the image after its capture had
/// ended, so those lines reached stderr as `(process:…): VIPS-WARNING **: …` and the files
/// passed the plan.
final class LibvipsMessageTests: XCTestCase {
  /// The header markers stray bytes are put before, and the marker byte libjpeg names.
  static let markers: [(name: String, bytes: [UInt8], code: String)] = [
    ("dqt", [0xFF, 0xDB], "0xdb"), ("sof", [0xFF, 0xC0], "0xc0"), ("dht", [0xFF, 0xC4], "0xc4"),
    ("sos", [0xFF, 0xDA], "0xda"),
  ]

  /// A scratch folder with the damaged files in `photos/`; returns the names of the ones with
  /// stray bytes, with the marker each must be reported with.
  func damagedFiles(in job: CLIJob) throws -> [(file: String, marker: String)] {
    let photos = URL(fileURLWithPath: job.path("photos"))
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    var corpus = Corpora.imageFiles().filter {
      $0.folder == "jpeg-decoder" || $0.name.hasPrefix("pngsuite/x")
    }.map { URL(fileURLWithPath: $0.path) }
    let fuzz = TestPaths.fixtures.appendingPathComponent("fuzz/image")
    corpus += try FileManager.default.contentsOfDirectory(atPath: fuzz.path).filter { $0.hasSuffix(".jpg") }.map {
      fuzz.appendingPathComponent($0)
    }
    for file in corpus {
      let name = file.deletingLastPathComponent().lastPathComponent + "-" + file.lastPathComponent
      try FileManager.default.copyItem(at: file, to: photos.appendingPathComponent(name))
    }
    var stray: [(String, String)] = []
    for sample in ["kite.jpg", "bridge.jpg", "nuthatch.jpg"] {
      let stem = (sample as NSString).deletingPathExtension
      let bytes = [UInt8](try Data(contentsOf: TestPaths.repoRoot.appendingPathComponent("samples/\(sample)")))
      for marker in Self.markers {
        let at = try XCTUnwrap(
          (0..<bytes.count - 1).first { bytes[$0] == marker.bytes[0] && bytes[$0 + 1] == marker.bytes[1] },
          "\(sample) has no \(marker.name) marker")
        let name = "\(stem)-junk-\(marker.name).jpg"
        try Data(bytes[..<at] + [0, 0, 0, 0, 0] + bytes[at...]).write(to: photos.appendingPathComponent(name))
        stray.append((name, marker.code))
      }
      for fraction in [2, 4] {
        try Data(bytes.prefix(bytes.count * (fraction - 1) / fraction)).write(
          to: photos.appendingPathComponent("\(stem)-cut-\(fraction).jpg"))
      }
    }
    try job.write(
      """
      version: 1
      output: out
      jobs:
        damaged:
          sources: ["photos/*"]
          guide: {shape: square, size: 32}
          outputs: [{path: "{stem}.png"}]
      """)
    return stray
  }

  /// Lines that are not cropjob's own: GLib's format, libvips' domain, or a blank line
  /// (GLib's default handler starts each message with one); or a libvips message no file's
  /// read captured (cropjob reports those, but none may be left unattributed here).
  func foreignLines(_ stderr: String) -> [String] {
    let own = ["progress: ", "failed: ", "warning: job ", "done: ", "failures:", "  "]
    return stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init).filter { line in
      line.contains("VIPS") || line.contains("**") || line.contains("(process:") || line.isEmpty
        || line.hasPrefix("warning: libvips")
        || !(own.contains { line.hasPrefix($0) } || line.contains(/^warning: [0-9]+ more .* not shown \(/))
    }
  }

  func testPlanPrintsNoLibvipsLinesAndRefusesEachDamagedHeader() throws {
    let job = CLIJob()
    defer { job.remove() }
    let stray = try damagedFiles(in: job)
    let result = try job.run(["plan", "job.yaml", "--format", "json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(foreignLines(result.stderr), [], "raw libvips output on stderr:\n\(result.stderr)")
    let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    let issues = (plan["issues"] as? [[String: Any]]) ?? []
    for (file, marker) in stray {
      let own = issues.filter { $0["source"] as? String == "photos/\(file)" && $0["severity"] as? String == "error" }
      XCTAssertEqual(own.count, 1, "\(file): \(own)")
      let message = own.first?["message"] as? String ?? ""
      XCTAssertTrue(message.contains("extraneous bytes before marker \(marker)"), "\(file): \(message)")
      XCTAssertTrue(message.contains(file), "\(file): \(message)")
    }
    // The corrupt PngSuite files whose header libpng warns about are refused here too.
    for name in ["pngsuite-xhdn0g08.png", "pngsuite-xdtn0g01.png", "pngsuite-xc1n0g08.png"] {
      XCTAssertTrue(
        issues.contains { $0["source"] as? String == "photos/\(name)" && $0["severity"] as? String == "error" },
        name)
    }
  }

  func testRunPrintsOnlyItsOwnLinesAndNamesEachDamagedFile() throws {
    let job = CLIJob()
    defer { job.remove() }
    let stray = try damagedFiles(in: job)
    let result = try job.run(["run", "job.yaml", "--jobs", "2"])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertEqual(result.stdout, "")
    XCTAssertEqual(foreignLines(result.stderr), [], "raw libvips output on stderr:\n\(result.stderr)")
    let failed = result.stderr.split(separator: "\n").filter { $0.hasPrefix("failed: ") }
    for (file, marker) in stray {
      let own = failed.filter { $0.contains("(from photos/\(file)):") }
      XCTAssertEqual(own.count, 1, "\(file): \(own)")
      XCTAssertTrue(own.first?.contains("extraneous bytes before marker \(marker)") ?? false, "\(file): \(own)")
    }
    // Every truncated copy fails alone, named.
    for stem in ["kite", "bridge", "nuthatch"] {
      for fraction in [2, 4] {
        XCTAssertTrue(failed.contains { $0.contains("(from photos/\(stem)-cut-\(fraction).jpg):") }, "\(stem)-cut")
      }
    }
  }
}
