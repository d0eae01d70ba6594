import CropKit
import Foundation
import TestSupport
import XCTest

/// AVIF, HEIC, WebP and JPEG XL as Debian's independent encoders write them
/// (Tests/Corpora/phone-formats, its README lists each file): each one works, its pixels
/// checked by Pillow and numpy against the encoder's input or the encoder's own decoder within
/// 1 per 8-bit channel, or fails alone naming the file and the reason.
final class PhoneFormatTests: XCTestCase {
  static let corpus = Corpora.root.appendingPathComponent("phone-formats")

  /// Output stem → the expected image and how the file's HEIF properties turn it.
  static let works: [String: String] = [
    "avif-nclx-8bit-lossless": "ref-rgb.png:none",
    "avif-nclx-8bit-lossy": "expected-avif-nclx-8bit-lossy.png:none",
    "avif-nclx-10bit-lossless": "ref-rgb.png:none",
    "avif-nclx-12bit-lossless": "ref-rgb.png:none",
    "avif-alpha-lossless": "ref-rgba.png:none",
    "avif-icc-lossless": "ref-rgb.png:none",
    "avif-irot1": "ref-rgb.png:rot90",
    "avif-irot3": "ref-rgb.png:rot270",
    "avif-imir0": "ref-rgb.png:flipud",
    "avif-imir1": "ref-rgb.png:fliplr",
    "avif-grid-2x2": "ref-rgb.png:none",
    "heic-8bit-lossless": "ref-rgb.png:none",
    "heic-8bit-lossy": "expected-heic-8bit-lossy.png:none",
    "heic-10bit-lossless": "ref-rgb.png:none",
    "heic-alpha-lossless": "ref-rgba.png:none",
    "heic-icc-lossless": "ref-rgb.png:none",
    "webp-alpha-lossless": "ref-rgba.png:none",
    "webp-lossy": "expected-webp-lossy.png:none",
  ]

  /// Files that fail alone, with what the failure must say.
  static let fails: [String: String] = [
    "avif-animated.avif": "unsupported format (animated AVIF: an image sequence, not a still image)",
    "jpegxl-lossless.jxl": "unsupported format (JPEG XL)",
  ]

  func testEachFileWorksPixelForPixelOrFailsAloneWithItsReason() throws {
    let s = CLIJob()
    defer { s.remove() }
    let images = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
    let names = images.filter { [".avif", ".heic", ".webp", ".jxl"].contains(where: $0.hasSuffix) }
    // Every file of the corpus is judged: it works (by its stem) or fails.
    let stems = Set(names.filter { Self.fails[$0] == nil }.map { ($0 as NSString).deletingPathExtension })
    XCTAssertEqual(stems, Set(Self.works.keys))
    XCTAssertEqual(
      Set(names).subtracting(stems.flatMap { s in names.filter { $0.hasPrefix(s + ".") } }), Set(Self.fails.keys))
    try FileManager.default.createDirectory(atPath: s.path("photos"), withIntermediateDirectories: true)
    for name in names {
      try FileManager.default.copyItem(
        atPath: Self.corpus.appendingPathComponent(name).path, toPath: s.path("photos/\(name)"))
    }
    // At the photo's own size (scale 1): the output's pixels are the decoded photo's.
    try s.write(
      """
      version: 1
      output: out
      jobs:
        wide:
          sources: ["photos/*"]
          exclude: ["*irot*"]
          guide: {shape: rect, width: 192, aspect: "3:2"}
          outputs: [{path: "{stem}.png"}]
        tall:
          sources: ["photos/*irot*"]
          guide: {shape: rect, width: 128, aspect: "2:3"}
          outputs: [{path: "{stem}.png"}]
      """)
    let run = try s.run(["run", "job.yaml", "--json", "-j", "2"])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(run.stderr, "", "nothing from libvips reaches the terminal")
    let failed = CLIJob.events(run.stdout).filter { $0["event"] as? String == "failed" }
    XCTAssertEqual(Set(failed.compactMap { $0["source"] as? String }), Set(Self.fails.keys.map { "photos/\($0)" }))
    for event in failed {
      let source = try XCTUnwrap(event["source"] as? String)
      let reason = try XCTUnwrap(event["reason"] as? String)
      XCTAssertTrue(reason.contains(s.path(source)), "names the file: \(reason)")
      XCTAssertTrue(reason.contains(Self.fails[PathText.lastComponent(source)] ?? "?"), reason)
    }
    let pairs = Self.works.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let report = try tool(
      "/usr/bin/python3", [Self.corpus.appendingPathComponent("compare.py").path, s.path("out")] + pairs)
    let lines = report.split(separator: "\n")
    XCTAssertEqual(lines.count, Self.works.count, report)
    for line in lines {
      let fields = line.split(separator: " ")
      XCTAssertEqual(fields.count, 2, String(line))
      XCTAssertLessThanOrEqual(Int(fields.last ?? "") ?? 999, 1, "max |Δ| of \(line)")
    }
  }

  /// Each benign libvips warning of the policy is raised by a corpus file, which reads
  /// without it; and the policy keeps every other warning as damage.
  func testTheBenignWarningsAreRaisedByRealFilesAndNothingElseIsForgiven() throws {
    // The other entries are tested with the files that raise them by BenignWarningTests.
    XCTAssertEqual(VipsWarningPolicy.benign.first?.message, "heifload: ignoring nclx profile")
    XCTAssertEqual(VipsWarningPolicy.benign.count, 4)
    let path = Self.corpus.appendingPathComponent("avif-nclx-8bit-lossless.avif").path
    // libvips' own command line prints the warning for this file: it is raised.
    let raw = try Subprocess.run("/usr/bin/vipsheader", [path])
    XCTAssertTrue(raw.stderr.contains("heifload: ignoring nclx profile"), raw.stderr)
    let header = try SourceHeader.read(path: path)
    XCTAssertEqual(header.storedWidth, 192)
    XCTAssertNoThrow(try DecodedSource.decode(path: path, header: header, shrink: 1))
    XCTAssertEqual(
      VipsWarningPolicy.damage([
        "heifload: ignoring nclx profile", "heifload: ignoring nclx profile twice",
        "Corrupt JPEG data: premature end of data segment",
      ]),
      ["heifload: ignoring nclx profile twice", "Corrupt JPEG data: premature end of data segment"])
  }
}
