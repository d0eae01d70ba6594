import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// The decide room (`Sources/CropStore/Decide`): `run`'s first pass gives each output a
/// verdict from one read of the state (`VerdictPass`), and the run settles a window's
/// verdicts against its sources as they are when it reaches them (`WindowVerdicts.settle`),
/// reading the state no more.
final class DecideTests: XCTestCase {
  let job = """
    version: 1
    output: out
    jobs:
      t:
        sources: ["photos/*.jpg"]
        guide: {shape: square, size: 64}
        outputs:
          - path: "{stem}-a.jpg"
          - path: "{stem}-b.png"
    """

  /// `run`'s verdicts on a window of one photo each (the first pass over the output root's
  /// state, through its header cache, as `JobPlan` makes it).
  func verdicts(_ h: RunHarness) throws -> [String: (window: PlanWindow, verdicts: WindowVerdicts)] {
    let file = try h.load()
    let state = try StateReader.open(root: h.outputRoot)
    let pass = VerdictPass(state: state, jobs: file.jobs, exact: false)
    let stream = PlanStream.make(file, planner: Planner(state: state), window: 1, inspect: pass.inspect)
    var result: [String: (PlanWindow, WindowVerdicts)] = [:]
    let skip = { (number: Int) in pass.upToDate[number] != nil }
    stream.forEachRunWindow(skipping: skip) { window in
      result[window.plan.sources[0].path] = (window, pass.verdicts(of: window))
    }
    return result
  }

  func testAPhotoChangedBetweenThePassesHasItsUpToDateOutputsWrittenAfterAll() throws {
    let h = try RunHarness(samples: ["kite.jpg", "ladybird.jpg"], job: job)
    defer { h.remove() }
    try h.run()
    try FileManager.default.removeItem(atPath: h.outputRoot + "/kite-b.png")
    let windows = try verdicts(h)
    XCTAssertEqual(Array(windows.keys), ["photos/kite.jpg"], "ladybird's window is up to date, not planned again")
    let (window, verdicts) = try XCTUnwrap(windows["photos/kite.jpg"])
    let outputs = window.selected
    XCTAssertEqual(outputs.map { verdicts.verdict($0) }, [.upToDate, .toBuild])
    XCTAssertEqual(outputs.map { verdicts.isRecorded($0) }, [true, true])
    XCTAssertEqual(verdicts.toClaim(outputs), [])
    var settled = try verdicts.settle(outputs, plan: window.plan)
    XCTAssertEqual(settled.upToDate, [outputs[0]])
    XCTAssertEqual(settled.toBuild.map(\.output), [outputs[1]])
    XCTAssertEqual(settled.source?.hashed, false, "the hash the plan found recorded")
    // The photo is replaced after the first pass: its verdicts no longer hold.
    let kite = h.folder.appendingPathComponent("photos/kite.jpg").path
    try FileManager.default.removeItem(atPath: kite)
    try FileManager.default.copyItem(atPath: TestPaths.sample("ladybird.jpg"), toPath: kite)
    settled = try verdicts.settle(outputs, plan: window.plan)
    XCTAssertEqual(settled.upToDate, [])
    XCTAssertEqual(settled.toBuild.map(\.output), outputs)
    XCTAssertEqual(settled.source?.hashed, true)
  }

  func testATouchedPhotoIsKeyedAndSettledUpToDateByItsHash() throws {
    let h = try RunHarness(samples: ["kite.jpg", "ladybird.jpg"], job: job)
    defer { h.remove() }
    try h.run()
    let kite = h.folder.appendingPathComponent("photos/kite.jpg").path
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: kite)
    let (window, verdicts) = try XCTUnwrap(try verdicts(h)["photos/kite.jpg"])
    XCTAssertEqual(window.selected.map { verdicts.verdict($0) }, [.keyed, .keyed], "its hash is not known yet")
    let settled = try verdicts.settle(window.selected, plan: window.plan)
    XCTAssertEqual(settled.upToDate, window.selected, "same content: the recorded keys")
    XCTAssertEqual(settled.source?.hashed, true)
    // The run agrees: nothing written, the photo's new facts recorded.
    let (summary, reporter) = try h.run()
    XCTAssertEqual(summary.written, 0)
    XCTAssertEqual(summary.upToDate, 4)
    XCTAssertEqual(reporter.decoded, [])
  }

  func testAFileCropjobDidNotWriteIsForeignAndTheOthersAreClaimed() throws {
    let h = try RunHarness(samples: ["kite.jpg"], job: job)
    defer { h.remove() }
    try FileManager.default.createDirectory(atPath: h.outputRoot, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: h.outputRoot + "/kite-a.jpg"))
    let file = try h.load()
    let state = try StateReader.open(root: h.outputRoot)
    let pass = VerdictPass(state: state, jobs: file.jobs, exact: false)
    let stream = PlanStream.make(file, planner: Planner(state: state), inspect: pass.inspect)
    XCTAssertEqual(pass.conflicts.map(\.path), ["kite-a.jpg"])
    XCTAssertEqual(
      pass.conflicts.map(\.message), ["would overwrite a file cropjob did not write: \(h.outputRoot)/kite-a.jpg"])
    stream.forEachRunWindow { window in
      let verdicts = pass.verdicts(of: window)
      XCTAssertEqual(window.selected.map { verdicts.verdict($0) }, [.foreign, .toBuild])
      XCTAssertEqual(verdicts.toClaim(window.selected), window.selected)
    }
  }

  /// The library refuses, once and before anything is written, an output and an index file
  /// in the way alike (`RunRefusal.filesInTheWay`); `plan`'s composition (`JobPlan`, to
  /// print) names the same files and the same refusal.
  func testJobRunRefusesAnIndexFileInTheWayAsAnOutputBeforeWriting() throws {
    let h = try RunHarness(
      samples: ["kite.jpg"],
      job: job + """

            index: {path: "gallery.html"}
        """)
    defer { h.remove() }
    try FileManager.default.createDirectory(atPath: h.outputRoot, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: h.outputRoot + "/gallery.html"))
    try Data("mine".utf8).write(to: URL(fileURLWithPath: h.outputRoot + "/kite-b.png"))
    let job = JobRun(try h.load())
    let printed = try JobPlan.make(job, for: .print).get()
    XCTAssertEqual(printed.filesInTheWay.map(\.path), ["kite-b.png", "gallery.html"])
    XCTAssertEqual(printed.filesInTheWay.map(\.kind), [.output, .index])
    let reporter = CollectingReporter()
    switch job.run(reporter: reporter) {
    case .success(let summary): XCTFail("ran: \(summary)")
    case .failure(let refusal):
      guard case .filesInTheWay(let files) = refusal else { return XCTFail("\(refusal)") }
      XCTAssertEqual(files, printed.filesInTheWay)
      // The same refusal as values a program switches on (`CropError.fileInTheWay`).
      let named = refusal.errors.compactMap { error -> String? in
        guard case .fileInTheWay(let path, _, _) = error else { return nil }
        return path
      }
      XCTAssertEqual(named, ["kite-b.png", "gallery.html"])
      XCTAssertEqual(
        refusal.description,
        """
        would overwrite a file cropjob did not write: \(h.outputRoot)/kite-b.png
        would overwrite a file cropjob did not write: \(h.outputRoot)/gallery.html (an index file)
        nothing was written; --overwrite replaces these files
        """)
    }
    XCTAssertTrue(reporter.events.isEmpty, "the run did not start")
    let left = try FileManager.default.contentsOfDirectory(atPath: h.outputRoot).filter { $0 != ".cropjob" }.sorted()
    XCTAssertEqual(left, ["gallery.html", "kite-b.png"])
  }

  /// A plan that cannot run is refused with one value per problem (`RunRefusal.errors`),
  /// each naming its job, output and source: a job with nothing to do, a collision with
  /// another job's output, an output over its own source. The refusal's text is the plan's,
  /// which `cropjob run` prints; a run of the plan reports one failure per problem.
  func testAPlanThatCannotRunIsRefusedWithOneErrorPerProblem() throws {
    let h = try RunHarness(
      samples: ["kite.jpg", "ladybird.jpg"],
      job: """
        version: 1
        output: .
        jobs:
          a:
            sources: ["photos/*.jpg"]
            guide: {shape: square, size: 64}
            outputs: [{path: "out/{stem}.jpg"}]
          b:
            sources: ["photos/kite.jpg"]
            guide: {shape: square, size: 64}
            outputs: [{path: "out/{stem}.jpg"}, {path: "photos/{stem}.jpg"}]
          c:
            sources: ["nothing/*.jpg"]
            guide: {shape: square, size: 64}
            outputs: [{path: "c/{stem}.jpg"}]
        """)
    defer { h.remove() }
    let expected: [CropError] = [
      .plan(
        job: "c", output: nil, source: nil,
        message: "no file matches \"nothing/*.jpg\": the job cannot produce anything"
          + " (a folder that is sometimes empty needs allow_empty: true)"),
      .plan(
        job: "b", output: "out/kite.jpg", source: "photos/kite.jpg",
        message: "path collision: also written by job a from photos/kite.jpg"),
      .plan(
        job: "b", output: "photos/kite.jpg", source: "photos/kite.jpg",
        message: "path collision: would overwrite the source photos/kite.jpg"),
    ]
    let job = JobRun(try h.load())
    let reporter = CollectingReporter()
    switch job.run(reporter: reporter) {
    case .success(let summary): XCTFail("ran: \(summary)")
    case .failure(let refusal):
      guard case .notRunnable(let text, _) = refusal else { return XCTFail("\(refusal)") }
      XCTAssertEqual(refusal.errors, expected)
      XCTAssertEqual(refusal.description, text)
      XCTAssertTrue(text.hasSuffix("Not runnable: fix the errors above."), text)
      XCTAssertEqual(
        refusal.errors.map(\.description).last,
        "job b: photos/kite.jpg → photos/kite.jpg: path collision: would overwrite the source photos/kite.jpg")
    }
    XCTAssertTrue(reporter.events.isEmpty, "the run did not start")
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.folder.appendingPathComponent("out").path))
    // Executed all the same, the refused plan is a run that did not start, a failure per problem.
    let plan = try JobPlan.make(job).get()
    let summary = job.execute(plan, reporter: CollectingReporter())
    XCTAssertEqual(summary.failures.map(\.error), expected)
    XCTAssertEqual(summary.failures.map(\.output), ["", "out/kite.jpg", "photos/kite.jpg"])
    XCTAssertEqual(summary.written, 0)
  }
}
