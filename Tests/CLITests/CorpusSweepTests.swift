import CropKit
import Foundation
import TestSupport
import XCTest

/// Every file of the image corpora (Tests/Corpora) through `cropjob run` in one batch, as a
/// user's folder would be: no crash, no hang; a file that fails is named in the summary and
/// fails its own outputs alone, leaving none; every other file is written at the requested
/// sizes, decodably (docs/reliability.md, "Corpus sweep"). When the batch crashes or hangs,
/// each file is run alone to name the one that did.
final class CorpusSweepTests: XCTestCase {
  func testEveryCorpusFileRunsOrFailsAlone() throws {
    let files = Corpora.imageFiles()
    XCTAssertGreaterThan(files.count, 200)
    let folder = try TimedRunner.openFolder("sweep")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Each file copied under a numbered name, so that stems never collide across corpora.
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    var names: [String: CorpusFile] = [:]
    for (index, corpusFile) in files.enumerated() {
      let copy = String(format: "%04d-", index) + PathText.lastComponent(corpusFile.path)
      try FileManager.default.copyItem(atPath: corpusFile.path, toPath: photos.appendingPathComponent(copy).path)
      names[copy] = corpusFile
    }
    try Self.writeJob(sources: "photos/*", root: "out", to: folder.appendingPathComponent("batch.yaml").path)
    let result = try TimedRunner.run(["run", "batch.yaml", "--json", "--jobs", "1"], cwd: folder, timeout: 600)
    guard !result.timedOut, !result.signalled, result.exitCode == 0 || result.exitCode == 1 else {
      XCTFail("the batch \(result.timedOut ? "hung" : "crashed or exited \(String(describing: result.exitCode))")")
      try Self.findTheFileAlone(files, in: folder)
      return
    }
    let finished = TimedRunner.finished(result.stdout)
    XCTAssertNotNil(finished, "no summary: \(result.combined)")
    let failures = (finished?["failures"] as? [[String: Any]]) ?? []
    XCTAssertEqual(result.exitCode == 1, !failures.isEmpty, "exit \(result.exitCode ?? -1): \(failures)")
    var reasons: [String: String] = [:]
    for failure in failures {
      let source = failure["source"] as? String ?? ""
      let copy = PathText.lastComponent(source)
      XCTAssertNotNil(names[copy], "a failure names no corpus file: \(failure)")
      XCTAssertFalse((failure["reason"] as? String ?? "").isEmpty, "\(failure)")
      reasons[copy] = failure["reason"] as? String ?? ""
    }
    let root = folder.appendingPathComponent("out").path
    let written = Set((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
    var failed: [(String, String)] = []
    for copy in names.keys.sorted() {
      let name = names[copy]!.name
      let stem = PathText.deletingPathExtension(copy)
      let outputs = [(1, [48, 32]), (2, [96, 64])].map { ("\(stem)@\($0.0)x.png", $0.1) }
      if let reason = reasons[copy] {
        // Nothing partial: a failed source leaves no output.
        XCTAssertTrue(outputs.allSatisfy { !written.contains($0.0) }, "\(name) failed but left an output")
        failed.append((name, reason))
        continue
      }
      for (output, size) in outputs {
        do {
          let path = "\(root)/\(output)"
          let header = try SourceHeader.read(path: path)
          XCTAssertEqual([header.width, header.height], size, "\(name): \(output)")
          _ = try DecodedSource.decode(path: path, header: header, shrink: 1)
        } catch {
          XCTFail("\(name): \(output): \(error)")
        }
      }
    }
    // What must hold whatever the libvips version: the 14 corrupt PngSuite files fail, all
    // the others and every EXIF orientation photo succeed.
    let corruptPNG = failed.map(\.0).filter { $0.hasPrefix("pngsuite/x") }
    XCTAssertEqual(corruptPNG.count, 14, "\(corruptPNG)")
    XCTAssertTrue(
      failed.allSatisfy {
        !$0.0.hasPrefix("exif-orientation/") && !($0.0.hasPrefix("pngsuite/") && !$0.0.hasPrefix("pngsuite/x"))
      }, "\(failed)")
    print("CorpusSweepTests: \(files.count) files, \(files.count - failed.count) written, \(failed.count) refused")
    for (name, reason) in failed { print("  refused \(name): \(reason)") }
  }

  typealias CorpusFile = Corpora.File

  /// The sweep's job: a 48x32 rect, contained and upscaled, PNG at 1x and 2x.
  static func writeJob(sources: String, root: String, to path: String) throws {
    // Paths are quoted as YAML: corpus names are plain ASCII.
    try """
    version: 1
    output: \(root)
    jobs:
      sweep:
        sources: ["\(sources)"]
        guide: {shape: rect, width: 48, height: 32}
        place: {fit: contain, upscale: true}
        outputs:
          - path: "{stem}@{scale}x.png"
            scales: [1, 2]
            encode: {format: png}
    """.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Each file alone, with a deadline, to name the ones that crash or hang.
  static func findTheFileAlone(_ files: [CorpusFile], in folder: URL) throws {
    for (index, corpusFile) in files.enumerated() {
      let job = folder.appendingPathComponent("alone-\(index).yaml").path
      try writeJob(sources: corpusFile.path, root: "alone-\(index)", to: job)
      let result = try TimedRunner.run(["run", job, "--json", "--jobs", "1"], cwd: folder, timeout: 30)
      XCTAssertFalse(result.timedOut, "\(corpusFile.name): hung (killed after 30 s)")
      XCTAssertFalse(result.signalled, "\(corpusFile.name): cropjob crashed: \(result.stderr)")
    }
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
