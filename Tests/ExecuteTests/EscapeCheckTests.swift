import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The planner's per-folder escape check gives exactly `OutputPaths.escapeProblem`'s answer
/// (nil or the same message) for every output, and its per-folder `standardizingPath` the
/// same path, over a tree of folders and files that are symlinks inside and outside the
/// root, relative and absolute, dangling and missing.
final class EscapeCheckTests: XCTestCase {
  func testAgreesWithEscapeProblem() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("escape-check-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: base) }
    let fm = FileManager.default
    for folder in ["root/real/deep", "outside/sub", "elsewhere"] {
      try fm.createDirectory(atPath: "\(base)/\(folder)", withIntermediateDirectories: true)
    }
    for file in ["root/real/file.jpg", "root/file.jpg", "outside/f.jpg", "outside/sub/f.jpg"] {
      XCTAssertTrue(fm.createFile(atPath: "\(base)/\(file)", contents: Data([1])))
    }
    let links: [(String, String)] = [
      ("root/inlink", "real"), ("root/abslink", "\(base)/root/real"), ("root/outlink", "../outside"),
      ("root/absout", "\(base)/outside"), ("root/dangdir", "nowhere"), ("root/real/fl", "\(base)/outside/f.jpg"),
      ("root/real/rl", "file.jpg"), ("root/real/dangling", "missing.jpg"), ("root/real/outrel", "../../outside/f.jpg"),
      ("rootlink", "root"), ("absrootlink", "\(base)/root"), ("root/real/deep/up", "../.."),
    ]
    for (link, target) in links { try fm.createSymbolicLink(atPath: "\(base)/\(link)", withDestinationPath: target) }
    let folders = [
      "", "real", "real/deep", "inlink", "abslink", "outlink", "absout", "dangdir", "missing", "missing/deeper",
      "real/missing", "outlink/missing", "absout/sub", "absout/missing", "real/../inlink", "real/..", "real/deep/up",
      "real/deep/up/real", "real/fl", "../elsewhere", "../outside", ".", "real/./deep", "real//deep", "real/", "/real",
    ]
    let names = ["file.jpg", "fl", "rl", "dangling", "outrel", "new.png", "f.jpg", "sub", "..", "."]
    var problems = Set<String>()
    var compared = 0
    for root in ["\(base)/root", "\(base)/rootlink", "\(base)/absrootlink", "\(base)/root/", "\(base)/root/real"] {
      var check = EscapeCheck(root: root)
      var paths = StandardPaths()
      for pass in 0..<2 {
        for folder in folders {
          for name in names {
            let path = ([root] + (folder.isEmpty ? [] : [folder]) + [name]).joined(separator: "/")
            let expected = OutputPaths.escapeProblem(path, root: root)
            XCTAssertEqual(check.problem(path), expected, "\(path) (root \(root), pass \(pass))")
            XCTAssertEqual(paths.standard(path), (path as NSString).standardizingPath, path)
            if let expected { problems.insert(expected.hasPrefix(base) ? "is a symlink" : String(expected.prefix(12))) }
            compared += 1
          }
        }
      }
    }
    XCTAssertGreaterThan(compared, 1000)
    // Every kind of answer was compared.
    XCTAssertTrue(problems.contains { $0.hasPrefix("resolves to") }, "\(problems)")
    XCTAssertTrue(problems.contains { $0.hasPrefix("the folder") }, "\(problems)")
    XCTAssertTrue(problems.contains("is a symlink"), "\(problems)")
  }

  /// The executor's check just before each write (issue 25: the root normalised once, each
  /// folder resolved once, one `lstat` per output): an output folder turned into a symlink out
  /// of the root after planning, and an output file turned into a symlink, are refused with
  /// `escapeProblem`'s reasons; nothing is written outside; the other outputs are written.
  func testExecutorRefusesOutputsThatEscapeAfterPlanning() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg", "bridge.jpg", "cat.png"],
      job: """
        version: 1
        output: out
        jobs:
          a:
            sources: ["photos/*.jpg", "photos/*.png"]
            guide: {shape: circle, size: 32}
            outputs:
              - path: "moved/{stem}.png"
              - path: "kept/{stem}.jpg"
        """)
    defer { harness.remove() }
    let fm = FileManager.default
    let root = harness.outputRoot
    let outside = harness.folder.appendingPathComponent("outside").path
    try fm.createDirectory(atPath: outside, withIntermediateDirectories: true)
    let file = try harness.load()
    let plan = try JobPlan.planned(file, planner: Planner())
    XCTAssertTrue(plan.stream.isRunnable)
    try fm.createDirectory(atPath: root + "/kept", withIntermediateDirectories: true)
    try fm.createSymbolicLink(atPath: root + "/moved", withDestinationPath: outside)
    try fm.createSymbolicLink(atPath: root + "/kept/cat.jpg", withDestinationPath: outside + "/cat.jpg")
    var options = RunOptions()
    options.jobs = 2
    options.overwrite = true
    let summary = JobRun(file, options: options).execute(plan, reporter: CollectingReporter())
    XCTAssertEqual(summary.written, 2, "\(summary.failures)")
    XCTAssertEqual(summary.failed, 4)
    let reasons = summary.failures.map { "\($0.output): \($0.reason)" }
    XCTAssertEqual(
      reasons.filter { $0.hasPrefix("moved/") && $0.contains("outside the output root") }.count, 3, "\(reasons)")
    XCTAssertEqual(
      reasons.filter { $0.hasPrefix("kept/cat.jpg") && $0.contains("cropjob does not write through symlinks") }.count,
      1, "\(reasons)")
    XCTAssertEqual(try fm.contentsOfDirectory(atPath: outside), [])
    XCTAssertTrue(fm.fileExists(atPath: root + "/kept/kite.jpg"))
    XCTAssertTrue(fm.fileExists(atPath: root + "/kept/bridge.jpg"))
  }
}
