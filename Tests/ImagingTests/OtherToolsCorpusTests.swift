import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 40: files other tools wrote (Tests/Corpora/other-tools, taken from other projects'
/// test suites, and three files other tools derive from them: `other_tools_oracle.py`). Each
/// either decodes to the pixels Pillow + LittleCMS (or libvips' CLI) give, alpha included,
/// or fails alone with the reason `expected.json` names, which docs/decoding.md lists.
final class OtherToolsCorpusTests: XCTestCase {
  /// What `Tests/Corpora/other-tools/expected.json` says of one file.
  struct Expected: Decodable {
    /// Relative to Tests/Corpora/other-tools, or `derived/NAME` for a file the oracle makes.
    var file: String
    /// The failure's reason, when the file is refused (a part of its message).
    var fails: String?
    /// "pillow" (default) or "vips": which independent decoder gives the expected pixels.
    var oracle: String?
  }

  struct Tolerance: Decodable {
    /// Mean absolute difference of the colour channels (0...255).
    var mean: Double
    /// The 99.9th percentile of the colour differences.
    var p999: Double
    /// Largest alpha difference.
    var alpha: Int
  }

  struct ExpectedFile: Decodable {
    var tolerance: Tolerance
    var files: [Expected]
  }

  struct Result: Decodable {
    var name: String
    var error: String?
    var mean: Double?
    var p999: Double?
    var max: Double?
    var alphaMax: Int?
    var alphaMeanExpected: Double?
    var alphaMeanActual: Double?

    enum CodingKeys: String, CodingKey {
      case name, error, mean, p999, max
      case alphaMax = "alpha_max"
      case alphaMeanExpected = "alpha_mean_expected"
      case alphaMeanActual = "alpha_mean_actual"
    }
  }

  static let folder = Corpora.root.appendingPathComponent("other-tools")

  /// Decodes `path` as `run` does (header, then the pixels at full size in sRGB).
  static func decode(_ path: String) throws -> Raster {
    let header = try SourceHeader.read(path: path)
    return try DecodedSource.decode(path: path, header: header, shrink: 1).raster()
  }

  /// Makes the derived files into `work`.
  func makeDerived(_ python: String, work: URL) throws {
    try tool(python, [TestPaths.oracle("other_tools_oracle.py"), "make", Corpora.root.path, work.path])
  }

  func compare(_ python: String, cases: [[String: String]], work: URL) throws -> [String: Result] {
    let casesPath = work.appendingPathComponent("cases.json")
    try JSONSerialization.data(withJSONObject: cases).write(to: casesPath)
    let output = try tool(python, [TestPaths.oracle("other_tools_oracle.py"), "compare", casesPath.path])
    let results = try JSONDecoder().decode([Result].self, from: Data(output.utf8))
    return Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
  }

  func testEveryFileDecodesRightOrFailsWithItsNamedReason() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let expected = try JSONDecoder().decode(
      ExpectedFile.self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
    let work = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: work) }
    try makeDerived(python, work: work)
    // Every image file of the folder is listed, so that a file added is also checked.
    let listed = Set(expected.files.map(\.file))
    let present = try FileManager.default.subpathsOfDirectory(atPath: Self.folder.path).filter { path in
      [".jpg", ".png", ".webp", ".gif", ".tif", ".avif"].contains { path.hasSuffix($0) }
    }
    XCTAssertEqual(Set(present).subtracting(listed), [], "files of the corpus that expected.json does not list")
    var cases: [[String: String]] = []
    var lines: [String] = []
    for file in expected.files {
      let path =
        file.file.hasPrefix("derived/")
        ? work.appendingPathComponent(String(file.file.dropFirst("derived/".count))).path
        : Self.folder.appendingPathComponent(file.file).path
      do {
        let raster = try Self.decode(path)
        if let reason = file.fails {
          XCTFail("\(file.file): decoded, expected to fail with \"\(reason)\"")
          continue
        }
        let actual = work.appendingPathComponent(file.file.replacingOccurrences(of: "/", with: "_") + ".png")
        try Data(try raster.pngBytes()).write(to: actual)
        cases.append(["name": file.file, "source": path, "actual": actual.path, "oracle": file.oracle ?? "pillow"])
      } catch {
        let message = "\(error)"
        lines.append("\(file.file): fails: \(message)")
        guard let reason = file.fails else {
          XCTFail("\(file.file): \(message)")
          continue
        }
        XCTAssertTrue(message.contains(reason), "\(file.file): \(message), expected \"\(reason)\"")
        XCTAssertTrue(message.contains(path), "\(file.file): the failure names its file: \(message)")
      }
    }
    let results = try compare(python, cases: cases, work: work)
    let tolerance = expected.tolerance
    for file in expected.files where file.fails == nil {
      guard let result = results[file.file] else { continue }
      if let error = result.error {
        XCTFail("\(file.file): \(error)")
        continue
      }
      let (mean, p999, alpha) = (result.mean ?? .infinity, result.p999 ?? .infinity, result.alphaMax ?? .max)
      lines.append(
        "\(file.file): works: mean \(String(format: "%.3f", mean)), p99.9 \(p999), max \(result.max ?? -1), "
          + "alpha max \(alpha) (mean \(result.alphaMeanActual ?? -1) vs \(result.alphaMeanExpected ?? -1))")
      XCTAssertLessThanOrEqual(mean, tolerance.mean, "\(file.file): mean colour difference")
      XCTAssertLessThanOrEqual(p999, tolerance.p999, "\(file.file): 99.9th percentile colour difference")
      XCTAssertLessThanOrEqual(alpha, tolerance.alpha, "\(file.file): alpha difference")
    }
    print("other-tools corpus:\n" + lines.joined(separator: "\n"))
  }
}
