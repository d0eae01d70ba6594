import CropKit
import Foundation
import TestSupport
import XCTest

/// Every file of the image corpora (Tests/Corpora) through `cropjob run`, one job per file,
/// each with a deadline: no crash, no hang; a failure is exit 1 with that file named in the
/// summary; a success writes outputs that decode at the requested sizes
/// (docs/reliability.md, "Corpus sweep").
final class CorpusSweepTests: XCTestCase {
  func testEveryCorpusFileRunsOrFailsAlone() throws {
    let files = Corpora.imageFiles()
    XCTAssertGreaterThan(files.count, 200)
    let folder = try TimedRunner.openFolder("sweep")
    defer { try? FileManager.default.removeItem(at: folder) }
    var succeeded: [String] = []
    var failed: [(String, String)] = []
    for (index, corpusFile) in files.enumerated() {
      let (file, name) = (corpusFile.path, corpusFile.name)
      let job = folder.appendingPathComponent("job-\(index).yaml").path
      let root = folder.appendingPathComponent("out-\(index)").path
      // The path is quoted as YAML: corpus names are plain ASCII.
      try """
      version: 1
      output: \(root)
      jobs:
        sweep:
          sources: ["\(file)"]
          guide: {shape: rect, width: 48, height: 32}
          place: {fit: contain, upscale: true}
          outputs:
            - path: "{stem}@{scale}x.png"
              scales: [1, 2]
              encode: {format: png}
      """.write(toFile: job, atomically: true, encoding: .utf8)
      let result = try TimedRunner.run(["run", job, "--json", "--jobs", "1"], cwd: folder, timeout: 30)
      XCTAssertFalse(result.timedOut, "\(name): hung (killed after 30 s)")
      XCTAssertFalse(result.signalled, "\(name): cropjob crashed: \(result.stderr)")
      let finished = TimedRunner.finished(result.stdout)
      XCTAssertNotNil(finished, "\(name): no summary: \(result.combined)")
      let failures = (finished?["failures"] as? [[String: Any]]) ?? []
      switch result.exitCode {
      case 0:
        XCTAssertTrue(failures.isEmpty, name)
        for (scale, size) in [(1, [48, 32]), (2, [96, 64])] {
          let stem = PathText.deletingPathExtension(PathText.lastComponent(file))
          let path = "\(root)/\(stem)@\(scale)x.png"
          do {
            let header = try SourceHeader.read(path: path)
            XCTAssertEqual([header.width, header.height], size, "\(name) @\(scale)x")
            _ = try DecodedSource.decode(path: path, header: header, shrink: 1)
          } catch {
            XCTFail("\(name) @\(scale)x: \(error)")
          }
        }
        succeeded.append(name)
      case 1:
        XCTAssertFalse(failures.isEmpty, "\(name): exit 1 without failures")
        for failure in failures {
          XCTAssertEqual(failure["source"] as? String, file, "\(name): failure names another file: \(failure)")
          XCTAssertFalse((failure["reason"] as? String ?? "").isEmpty, name)
        }
        // Nothing partial: a failed source leaves no output (only, at most, the manifest and
        // the state database).
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        XCTAssertTrue(
          left.allSatisfy { $0.hasPrefix("cropjob-manifest") || $0 == StateFiles.folderName }, "\(name) left \(left)")
        failed.append((name, failures.first?["reason"] as? String ?? ""))
      default:
        XCTFail("\(name): exit \(String(describing: result.exitCode)): \(result.combined)")
      }
      try? FileManager.default.removeItem(atPath: root)
    }
    // What must hold whatever the libvips version: the 14 corrupt PngSuite files fail, all
    // the others and every EXIF orientation photo succeed.
    let corruptPNG = failed.map(\.0).filter { $0.hasPrefix("pngsuite/x") }
    XCTAssertEqual(corruptPNG.count, 14, "\(corruptPNG)")
    XCTAssertTrue(
      failed.allSatisfy {
        !$0.0.hasPrefix("exif-orientation/") && !($0.0.hasPrefix("pngsuite/") && !$0.0.hasPrefix("pngsuite/x"))
      }, "\(failed)")
    print("CorpusSweepTests: \(files.count) files, \(succeeded.count) written, \(failed.count) refused")
    for (name, reason) in failed { print("  refused \(name): \(reason)") }
  }

  /// Truncated copies of the samples beside a whole one, through `cropjob run`. A cut that
  /// reaches decoded pixels fails that file alone and leaves no output (libvips with
  /// fail_on=truncated used to leave a partial file behind a non-atomic writer). A cut that
  /// only removes the end of a JPEG's last partial block row, which shrink-on-load never
  /// decodes, gives the intact file's output byte for byte: damaged files never make wrong
  /// outputs.
  func testTruncatedCopiesFailAloneOrGiveTheIntactOutput() throws {
    let folder = try TimedRunner.openFolder("truncated")
    defer { try? FileManager.default.removeItem(at: folder) }
    let samples = TestPaths.repoRoot.appendingPathComponent("samples")
    var broken: [String] = []
    for variant in ["photos", "intact"] {
      let photos = folder.appendingPathComponent(variant)
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: samples.appendingPathComponent("kite.jpg").path, toPath: photos.appendingPathComponent("whole.jpg").path
      )
      for name in ["bridge.jpg", "cat.png", "mountains.jpg", "coffee-alpha.png"] {
        let bytes = try Data(contentsOf: samples.appendingPathComponent(name))
        for (label, keep) in [("half", bytes.count / 2), ("short", bytes.count - 64)] {
          let target = "\(label)-\(name)"
          try (variant == "photos" ? bytes.prefix(keep) : bytes).write(to: photos.appendingPathComponent(target))
          if variant == "photos" { broken.append(target) }
        }
      }
      try """
      version: 1
      output: out-\(variant)
      jobs:
        t:
          sources: ["\(variant)/*"]
          guide: {shape: circle, size: 64}
          outputs:
            - path: "{stem}.png"
            - path: "{stem}.jpg"
      """.write(toFile: folder.appendingPathComponent("\(variant).yaml").path, atomically: true, encoding: .utf8)
    }
    let intact = try TimedRunner.run(["run", "intact.yaml", "--quiet"], cwd: folder, timeout: 60)
    XCTAssertEqual(intact.exitCode, 0, intact.combined)
    let result = try TimedRunner.run(["run", "photos.yaml", "--json"], cwd: folder, timeout: 60)
    XCTAssertEqual(result.exitCode, 1, result.combined)
    let failures = (TimedRunner.finished(result.stdout)?["failures"] as? [[String: Any]]) ?? []
    let failed = Set(failures.compactMap { ($0["source"] as? String).map(PathText.lastComponent) })
    XCTAssertTrue(failed.isSuperset(of: broken.filter { $0.hasPrefix("half-") || $0.hasSuffix(".png") }), "\(failed)")
    XCTAssertTrue(failed.isSubset(of: Set(broken)), "\(failed)")
    let out = folder.appendingPathComponent("out-photos")
    for name in try FileManager.default.contentsOfDirectory(atPath: out.path)
    where !name.hasPrefix("cropjob-manifest") && name != StateFiles.folderName {
      let stem = PathText.deletingPathExtension(name)
      XCTAssertFalse(
        failed.contains { PathText.deletingPathExtension($0) == stem }, "\(name) written for a failed source")
      XCTAssertEqual(
        try Data(contentsOf: out.appendingPathComponent(name)),
        try Data(contentsOf: folder.appendingPathComponent("out-intact/\(name)")),
        "\(name) differs from the intact file's output")
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("whole.png").path))
  }

}
