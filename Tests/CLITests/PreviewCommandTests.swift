import Foundation
import TestSupport
import XCTest

/// `cropjob preview`: every source gets a tile, the HTML opens with no missing file and no
/// network, and nothing is written into (or refused inside) the job's output root.
final class PreviewCommandTests: XCTestCase {
  func scratch(_ name: String = #function) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cropjob-preview-\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Every `src="…"` and `href="…"` of the page.
  func links(_ html: String) -> [String] {
    var result: [String] = []
    for attribute in ["src=\"", "href=\""] {
      var rest = Substring(html)
      while let start = rest.range(of: attribute) {
        rest = rest[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { break }
        result.append(String(rest[..<end]))
        rest = rest[end...]
      }
    }
    return result
  }

  func testAvatarsSheetHasEverySourceAndOpensWithNoMissingFile() throws {
    let folder = scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("sheet")
    let root = folder.appendingPathComponent("root")
    let result = try CLIRunner.run([
      "preview", "jobs/avatars.yaml", "--out", out.path, "--output", root.path, "--tile", "96",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("preview: 14 photos, 2 pages"), result.stdout)

    let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
    let samples = try FileManager.default.contentsOfDirectory(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples").path
    )
    .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }
    XCTAssertEqual(samples.count, 14)
    XCTAssertEqual(html.components(separatedBy: "<figure").count - 1, samples.count, "one tile per source")
    for name in samples { XCTAssertTrue(html.contains("<b>\(name)</b>"), "\(name) has no tile") }

    let references = links(html)
    XCTAssertEqual(references.filter { $0.hasPrefix("tiles/") }.count, samples.count)
    for link in references {
      XCTAssertFalse(link.contains(":"), "not a relative link: \(link)")
      XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(link).path), "missing \(link)")
    }
    XCTAssertFalse(html.lowercased().contains("http://") || html.lowercased().contains("https://"), "no network")
    XCTAssertTrue(html.contains("smart-crop point"))
    // The astronaut's override has upscaling warnings; they are listed under its tile.
    XCTAssertTrue(html.contains("upscaling"), "warnings under the tiles")

    let pages = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix("page-") }.sorted()
    XCTAssertEqual(pages, ["page-001.png", "page-002.png"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: root.path), "nothing written into the output root")
  }

  func testDefaultFolderIsPreviewInTheCurrentFolder() throws {
    let folder = scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let job = TestPaths.repoRoot.appendingPathComponent("jobs/thumbnails.yaml").path
    let root = folder.appendingPathComponent("root")
    let result = try CLIRunner.run(
      ["preview", job, "--output", root.path, "--job", "banner", "--limit", "3", "--tile", "64"], cwd: folder)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("preview: 3 photos, 1 page"), result.stdout)
    let html = try String(contentsOf: folder.appendingPathComponent("preview/index.html"), encoding: .utf8)
    XCTAssertEqual(html.components(separatedBy: "<figure").count - 1, 3)
    XCTAssertFalse(html.contains("job square"), "--job banner only")
    XCTAssertFalse(FileManager.default.fileExists(atPath: root.path))
  }

  func testRefusesAFolderInsideTheOutputRoot() throws {
    let folder = scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("root")
    for out in [root.path, root.appendingPathComponent("preview").path] {
      let result = try CLIRunner.run(["preview", "jobs/avatars.yaml", "--output", root.path, "--out", out])
      XCTAssertEqual(result.status, 64, result.stderr)
      XCTAssertTrue(result.stderr.contains("inside the job's output root"), result.stderr)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: root.path))
  }

  func testUsageErrors() throws {
    let unknown = try CLIRunner.run(["preview", "jobs/avatars.yaml", "--job", "nope", "--out", scratch().path])
    XCTAssertEqual(unknown.status, 64)
    XCTAssertTrue(unknown.stderr.contains("no job named \"nope\"; the jobs are: avatar"), unknown.stderr)
    let tile = try CLIRunner.run(["preview", "jobs/avatars.yaml", "--tile", "5"])
    XCTAssertEqual(tile.status, 64)
    let help = try CLIRunner.run(["--help"])
    XCTAssertTrue(help.stdout.contains("preview"), help.stdout)
  }
}
