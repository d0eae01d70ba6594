import Foundation
import TestSupport
import XCTest

/// `cropjob run` and `cropjob plan` end to end: decode counts, incremental re-runs, exit
/// codes, determinism, shards (flags and batch-engine variables), SIGINT, NDJSON, DOT.
final class RunCommandTests: XCTestCase {
  static let photos = ["kite.jpg", "bridge.jpg", "cat.png", "portrait-sideways-8.jpg", "coffee-alpha.png"]

  func scratch(_ name: String = #function, job: String = TestJobs.thumbsAndTiny()) throws -> CLIJob {
    let scratch = CLIJob(name)
    try scratch.copySamples(Self.photos)
    try scratch.write(job)
    return scratch
  }

  func finished(_ events: [[String: Any]]) throws -> [String: Any] {
    let last = try XCTUnwrap(events.last)
    XCTAssertEqual(last["event"] as? String, "finished")
    return last
  }

  // MARK: Decodes and incremental runs

  func testJSONEventsCountOneDecodePerSourceThenNothingOnTheSecondRun() throws {
    let s = try scratch()
    defer { s.remove() }
    let first = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(first.status, 0, first.stderr)
    let events = CLIJob.events(first.stdout)
    XCTAssertEqual(events.first?["event"] as? String, "started")
    XCTAssertEqual(events.first?["total"] as? Int, 20)
    let summary = try finished(events)
    // 5 photos x 3 outputs + 5 tiny avatars; 5 photos + 5 upstream thumbnails decoded.
    XCTAssertEqual(summary["planned"] as? Int, 20)
    XCTAssertEqual(summary["written"] as? Int, 20)
    XCTAssertEqual(summary["decodes"] as? Int, 10)
    let decoded = events.filter { $0["event"] as? String == "decoded" }.compactMap { $0["source"] as? String }
    XCTAssertEqual(decoded.count, 10)
    XCTAssertEqual(Set(decoded).count, 10)
    XCTAssertEqual(events.filter { $0["event"] as? String == "wrote" }.count, 20)

    let second = try s.run(["run", "job.yaml", "--json"])
    XCTAssertEqual(second.status, 0, second.stderr)
    let again = CLIJob.events(second.stdout)
    let summary2 = try finished(again)
    XCTAssertEqual(summary2["decodes"] as? Int, 0)
    XCTAssertEqual(summary2["written"] as? Int, 0)
    XCTAssertEqual(summary2["upToDate"] as? Int, 20)
    XCTAssertEqual(again.filter { $0["event"] as? String == "up-to-date" }.count, 20)

    let text = try s.run(["run", "job.yaml", "--stats"])
    XCTAssertEqual(text.status, 0)
    XCTAssertTrue(text.stderr.contains("done: 0 written, 20 up to date, 0 failed"), text.stderr)
    XCTAssertTrue(text.stderr.contains("decodes 0"), text.stderr)
  }

  func testStatsCountsDecodesOfTheSampleAvatarsJob() throws {
    let s = CLIJob()
    defer { s.remove() }
    let result = try s.run(
      ["run", "jobs/avatars.yaml", "--output", s.path("out"), "--stats", "-q"], cwd: TestPaths.repoRoot)
    XCTAssertEqual(result.status, 0, result.stderr)
    let samples = try FileManager.default.contentsOfDirectory(
      atPath: TestPaths.repoRoot.appendingPathComponent("samples").path
    )
    .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.count
    // Three outputs per photo (1x and 2x PNG, a JPEG), one decode each.
    XCTAssertTrue(result.stderr.contains("planned \(3 * samples),"), result.stderr)
    XCTAssertTrue(result.stderr.contains("decodes \(samples),"), result.stderr)
  }

  /// `--force` reaches the run: everything is written again (what a quality change or
  /// `force` rebuilds is ExecuteTests' `ExecutorTests`).
  func testForceRebuildsEverything() throws {
    let s = try scratch()
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    let forced = CLIJob.events(try s.run(["run", "job.yaml", "--json", "--force"]).stdout)
    XCTAssertEqual(try finished(forced)["written"] as? Int, 20)
    XCTAssertEqual(try finished(forced)["decodes"] as? Int, 10)
  }

  func testStaleOutputsAreReportedAndPruneDeletesThem() throws {
    let s = try scratch(job: TestJobs.thumbsAndTiny(extraEntry: true))
    defer { s.remove() }
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: s.path("out/extra/kite.png")))
    try s.write(TestJobs.thumbsAndTiny())
    let report = try s.run(["run", "job.yaml"])
    XCTAssertEqual(report.status, 0, report.stderr)
    XCTAssertTrue(report.stderr.contains("no longer produced: extra/kite.png (use --prune to delete)"), report.stderr)
    XCTAssertTrue(report.stderr.contains("5 no longer produced"), report.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: s.path("out/extra/kite.png")))
    let prune = try s.run(["run", "job.yaml", "--prune"])
    XCTAssertEqual(prune.status, 0, prune.stderr)
    XCTAssertTrue(prune.stderr.contains("pruned: extra/kite.png"), prune.stderr)
    XCTAssertTrue(prune.stderr.contains("5 pruned"), prune.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out/extra/kite.png")))
    let after = try s.run(["run", "job.yaml"])
    XCTAssertFalse(after.stderr.contains("no longer produced"), after.stderr)
  }

  // MARK: Errors and exit codes

  func testCycleIsAnInvalidJobFile() throws {
    let s = try scratch(
      job: """
        version: 1
        output: out
        jobs:
          a:
            from: b
            guide: {shape: square, size: 64}
            outputs: [{path: "a/{stem}.jpg"}]
          b:
            from: a
            guide: {shape: square, size: 32}
            outputs: [{path: "b/{stem}.jpg"}]
        """)
    defer { s.remove() }
    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("job.yaml:"), run.stderr)
    XCTAssertTrue(run.stderr.contains("cycle"), run.stderr)
    XCTAssertTrue(run.stderr.contains("a → b → a") || run.stderr.contains("b → a → b"), run.stderr)
    XCTAssertEqual(try s.run(["plan", "job.yaml"]).status, 2)
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out")))
  }

  func testPathCollisionStopsTheRunBeforeAnythingIsWritten() throws {
    let s = try scratch(job: TestJobs.pathCollision)
    defer { s.remove() }
    let run = try s.run(["run", "job.yaml"])
    XCTAssertEqual(run.status, 2, run.stderr)
    XCTAssertTrue(run.stderr.contains("path collision: also written by job one"), run.stderr)
    XCTAssertTrue(run.stderr.contains("same/kite.jpg"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out")), "nothing written")
    let plan = try s.run(["plan", "job.yaml"])
    XCTAssertEqual(plan.status, 2)
    XCTAssertTrue(plan.stdout.contains("Not runnable"), plan.stdout)
    let dry = try s.run(["run", "job.yaml", "--dry-run"])
    XCTAssertEqual(dry.status, 2)
  }

  func testBadSourceFailsOnlyItsOwnOutputsAndTheSummaryNamesIt() throws {
    let s = try scratch()
    defer { s.remove() }
    let kite = try Data(contentsOf: URL(fileURLWithPath: s.path("photos/kite.jpg")))
    try kite.prefix(kite.count / 2).write(to: URL(fileURLWithPath: s.path("photos/kite-corrupt.jpg")))
    let result = try s.run(["run", "job.yaml"])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("20 written"), result.stderr)
    let failures = try XCTUnwrap(result.stderr.components(separatedBy: "failures:\n").last)
    XCTAssertTrue(failures.contains("thumbs/kite-corrupt-96.jpg (from photos/kite-corrupt.jpg)"), failures)
    XCTAssertTrue(failures.contains("webp/kite-corrupt.webp (from photos/kite-corrupt.jpg)"), failures)
    XCTAssertFalse(failures.contains("(from photos/kite.jpg)"), failures)
    // The summary's failures in `--json`'s finished event name their sources (the next run
    // retrying only the bad one: ExecuteTests' `ExecutorTests`).
    let again = CLIJob.events(try s.run(["run", "job.yaml", "--json"]).stdout)
    let failedSources = Set((try finished(again)["failures"] as? [[String: String]] ?? []).compactMap { $0["source"] })
    XCTAssertEqual(failedSources, ["photos/kite-corrupt.jpg", "thumbs/kite-corrupt-192.jpg"])
  }

  func testUnreadableSourceIsAFailureOfTheRun() throws {
    let s = try scratch()
    defer { s.remove() }
    try Data("not a photo".utf8).write(to: URL(fileURLWithPath: s.path("photos/notes.jpg")))
    let result = try s.run(["run", "job.yaml", "-q"])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("(from photos/notes.jpg)"), result.stderr)
  }

  func testFailFastStopsAtTheFirstFailure() throws {
    let s = try scratch()
    defer { s.remove() }
    let kite = try Data(contentsOf: URL(fileURLWithPath: s.path("photos/kite.jpg")))
    try kite.prefix(kite.count / 2).write(to: URL(fileURLWithPath: s.path("photos/aaa-corrupt.jpg")))
    let result = try s.run(["run", "job.yaml", "--fail-fast", "-j1", "--json"])
    XCTAssertEqual(result.status, 1, result.stderr)
    let summary = try finished(CLIJob.events(result.stdout))
    XCTAssertEqual(summary["written"] as? Int, 0)
    XCTAssertGreaterThan(summary["failed"] as? Int ?? 0, 0)
  }

  // MARK: Determinism

  /// `cropjob plan` of every sample job in every format is the same text in every process
  /// (Swift seeds its hashing per process, so output that followed a Dictionary's or a Set's
  /// order would differ between runs).
  func testPlanIsTheSameInEveryProcess() throws {
    let jobs = try FileManager.default.contentsOfDirectory(
      atPath: TestPaths.repoRoot.appendingPathComponent("jobs").path
    ).filter { $0.hasSuffix(".yaml") }.sorted()
    XCTAssertGreaterThanOrEqual(jobs.count, 4)
    for job in jobs {
      for format in ["text", "json", "dot"] {
        let printed = try CLIRunner.stdoutOfSeparateProcesses(["plan", "jobs/\(job)", "--format", format])
        XCTAssertFalse(printed[0].isEmpty, "\(job) \(format)")
        XCTAssertEqual(Set(printed).count, 1, "\(job) \(format): \(Set(printed).count) different plans")
      }
    }
  }

  // MARK: Shards

  /// Four shards of jobs/thumbnails.yaml, given one way, write disjoint sets whose union
  /// is byte for byte the unsharded run.
  /// The outputs `plan --format json` lists for shard `index` of 4 chosen by `shard(index)`
  /// (arguments and batch-engine variables).
  func plannedShard(
    _ s: CLIJob, _ index: Int, _ shard: (Int) -> (arguments: [String], env: [String: String])
  ) throws -> [String] {
    let (arguments, env) = shard(index)
    let plan = try s.run(
      ["plan", "jobs/thumbnails.yaml", "--format", "json", "--output", s.path("whole")] + arguments,
      cwd: TestPaths.repoRoot, environment: env)
    XCTAssertEqual(plan.status, 0, "shard \(index) \(arguments) \(env): \(plan.stderr)")
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
    return try XCTUnwrap(object["outputs"] as? [[String: Any]]).compactMap { $0["path"] as? String }
  }

  /// `--shard I/N` and each batch engine's variables pick the same shards; the flag's four
  /// shards, run, write the unsharded run's files (each once; what shards write in general is
  /// ExecuteTests' `ExecutorTests`); wrong or partial variables are usage errors.
  func testShardsFromFlagsAndBatchEnginesTogetherEqualTheUnshardedRun() throws {
    let s = CLIJob()
    defer { s.remove() }
    let run = try s.run(["run", "jobs/thumbnails.yaml", "--output", s.path("whole"), "-q"], cwd: TestPaths.repoRoot)
    XCTAssertEqual(run.status, 0, run.stderr)
    let whole = try s.tree("whole")
    XCTAssertEqual(whole.count, 38)
    var written: [String: Int] = [:]
    for index in 0..<4 {
      let result = try s.run(
        ["run", "jobs/thumbnails.yaml", "--output", s.path("flag"), "--json", "--shard", "\(index)/4"],
        cwd: TestPaths.repoRoot)
      XCTAssertEqual(result.status, 0, "shard \(index): \(result.stderr)")
      let events = CLIJob.events(result.stdout)
      XCTAssertEqual(try finished(events)["upToDate"] as? Int, 0, "shard \(index) saw another shard's outputs")
      for path in events.filter({ $0["event"] as? String == "wrote" }).compactMap({ $0["path"] as? String }) {
        written[path, default: 0] += 1
      }
      XCTAssertTrue(
        FileManager.default.fileExists(atPath: s.path("flag/cropjob-manifest.shard-\(index)-of-4.json")), "\(index)")
    }
    XCTAssertEqual(written.count, whole.count - 1)
    XCTAssertTrue(written.values.allSatisfy { $0 == 1 }, "overlap \(written.filter { $0.value > 1 })")
    assertSameTree(whole, try s.tree("flag"), ignoring: { $0.hasPrefix("cropjob-manifest") })
    // Each engine's variables pick the flag's shard.
    let engines: [(String, (Int) -> (arguments: [String], env: [String: String]))] = [
      // Slurm job arrays number tasks from the array's first index (here --array=10-13).
      (
        "slurm",
        { ([], ["SLURM_ARRAY_TASK_ID": "\(10 + $0)", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4"]) }
      ),
      ("k8s", { (["--shard-count", "4"], ["JOB_COMPLETION_INDEX": "\($0)"]) }),
      ("aws", { (["--shard-count", "4"], ["AWS_BATCH_JOB_ARRAY_INDEX": "\($0)"]) }),
      ("aws-size", { ([], ["AWS_BATCH_JOB_ARRAY_INDEX": "\($0)", "AWS_BATCH_JOB_ARRAY_SIZE": "4"]) }),
      ("cloud-run", { ([], ["CLOUD_RUN_TASK_INDEX": "\($0)", "CLOUD_RUN_TASK_COUNT": "4"]) }),
      ("gcp-batch", { (["--shard-count", "4"], ["BATCH_TASK_INDEX": "\($0)", "BATCH_TASK_COUNT": "4"]) }),
    ]
    for index in 0..<4 {
      let flag = try plannedShard(s, index) { (["--shard", "\($0)/4"], [:]) }
      XCTAssertFalse(flag.isEmpty, "shard \(index) plans nothing")
      for (name, shard) in engines {
        XCTAssertEqual(try plannedShard(s, index, shard), flag, "\(name) shard \(index)")
      }
    }
    // The variables alone, without a count, are a usage error.
    let missing = try s.run(
      ["run", "jobs/thumbnails.yaml", "--output", s.path("x")], cwd: TestPaths.repoRoot,
      environment: ["JOB_COMPLETION_INDEX": "1"])
    XCTAssertEqual(missing.status, 64, missing.stderr)
    XCTAssertTrue(missing.stderr.contains("--shard-count"), missing.stderr)
    // Conflicting or partial variables are refused the same way, naming them; nothing is written.
    let refusals: [([String], [String: String], String)] = [
      (["--shard-count", "2"], ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "4"], "CLOUD_RUN_TASK_COUNT=4"),
      ([], ["BATCH_TASK_COUNT": "4"], "BATCH_TASK_INDEX is not"),
      ([], ["AWS_BATCH_JOB_ARRAY_INDEX": "1"], "AWS_BATCH_JOB_ARRAY_SIZE is not"),
      (
        [], ["JOB_COMPLETION_INDEX": "0", "CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "4"],
        "JOB_COMPLETION_INDEX and CLOUD_RUN_TASK_INDEX are set at once"
      ),
    ]
    for (arguments, environment, message) in refusals {
      let refused = try s.run(
        ["run", "jobs/thumbnails.yaml", "--output", s.path("refused")] + arguments, cwd: TestPaths.repoRoot,
        environment: environment)
      XCTAssertEqual(refused.status, 64, refused.stderr)
      XCTAssertTrue(refused.stderr.contains(message), "\(message): \(refused.stderr)")
      XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("refused")), message)
    }
    // The reverse, a count with no index, would run the whole batch on every worker: refused
    // by `run` and `plan`, naming the variables read. Nothing is written.
    for command in ["run", "plan"] {
      let countOnly = try s.run(
        [command, "jobs/thumbnails.yaml", "--output", s.path("count-only"), "--shard-count", "4"],
        cwd: TestPaths.repoRoot)
      XCTAssertEqual(countOnly.status, 64, countOnly.stderr)
      for name in [
        "--shard-count 4", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX",
        "CLOUD_RUN_TASK_INDEX", "BATCH_TASK_INDEX",
      ] {
        XCTAssertTrue(countOnly.stderr.contains(name), "\(command): \(countOnly.stderr)")
      }
      XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("count-only")), command)
    }
    // The plan of a shard lists that shard's outputs only.
    var planned = 0
    for index in 0..<4 {
      let plan = try s.run(
        ["plan", "jobs/thumbnails.yaml", "--format", "json", "--shard", "\(index)/4"], cwd: TestPaths.repoRoot)
      let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
      planned += (object["outputs"] as? [Any])?.count ?? 0
    }
    XCTAssertEqual(planned, 37)
  }

  // MARK: Interruption

  /// Starts a run, sends SIGINT after `after` files were written, and returns its result.
  func interruptedRun(_ s: CLIJob, after: Int) throws -> (status: Int32, events: [[String: Any]], stderr: String) {
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["run", "job.yaml", "--json", "-j2"]
    process.currentDirectoryURL = s.folder
    process.environment = CLIJob.environment([:])
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = LockedData()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errData.set(err.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
    var buffer = Data()
    var signalled = false
    while true {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      let wrote = String(decoding: buffer, as: UTF8.self).components(separatedBy: "\"event\":\"wrote\"").count - 1
      if !signalled && wrote >= after {
        kill(process.processIdentifier, SIGINT)
        signalled = true
      }
    }
    group.wait()
    process.waitUntilExit()
    return (
      process.terminationStatus, CLIJob.events(String(decoding: buffer, as: UTF8.self)),
      String(decoding: errData.get(), as: UTF8.self)
    )
  }

  func testSIGINTStopsWith130AndTheNextRunFinishesTheSameOutputs() throws {
    var copies = 3
    for attempt in 1...4 {
      let s = CLIJob("sigint\(attempt)")
      defer { s.remove() }
      try s.copySamples(copies: copies)
      try s.write(TestJobs.thumbsAndTiny())
      let total = 4 * 14 * copies
      let (status, events, stderr) = try interruptedRun(s, after: 5)
      if status == 0 {
        // Finished before the signal arrived: try again with a bigger batch.
        copies *= 2
        continue
      }
      XCTAssertEqual(status, 130, stderr)
      let summary = try finished(events)
      XCTAssertEqual(summary["interrupted"] as? Bool, true)
      let done = summary["written"] as? Int ?? -1
      XCTAssertGreaterThanOrEqual(done, 5)
      XCTAssertLessThan(done, total, "attempt \(attempt)")
      // Nothing partial: every file is whole and listed in the manifest.
      let files = try s.tree("out")
      XCTAssertFalse(files.keys.contains { $0.contains(".cropjob-tmp") }, "\(files.keys)")
      let manifest = try XCTUnwrap(
        try JSONSerialization.jsonObject(with: XCTUnwrap(files["cropjob-manifest.json"])) as? [String: Any])
      XCTAssertEqual((manifest["outputs"] as? [Any])?.count, done)
      XCTAssertEqual(files.count, done + 1)

      let resumed = try s.run(["run", "job.yaml", "--json"])
      XCTAssertEqual(resumed.status, 0, resumed.stderr)
      let summary2 = try finished(CLIJob.events(resumed.stdout))
      XCTAssertEqual(summary2["upToDate"] as? Int, done)
      XCTAssertEqual(summary2["written"] as? Int, total - done)

      XCTAssertEqual(try s.run(["run", "job.yaml", "-q", "--output", "reference"]).status, 0)
      assertSameTree(try s.tree("reference"), try s.tree("out"), "interrupted + resumed vs uninterrupted")
      return
    }
    XCTFail("every run finished before SIGINT arrived")
  }

  // MARK: Plan output

  func testDryRunWritesNothing() throws {
    let s = try scratch()
    defer { s.remove() }
    for format in ["text", "json", "dot"] {
      let result = try s.run(["run", "job.yaml", "--dry-run", "--format", format])
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertFalse(result.stdout.isEmpty)
    }
    let text = try s.run(["run", "job.yaml", "-n"])
    XCTAssertTrue(text.stdout.contains("Total: 20 outputs from 10 decodes"), text.stdout)
    XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out")), "a dry run creates nothing")
  }

  func testPlanJSONSaysWhatIsUpToDate() throws {
    let s = try scratch()
    defer { s.remove() }
    func upToDate() throws -> [Bool] {
      let plan = try s.run(["plan", "job.yaml", "--format", "json"])
      XCTAssertEqual(plan.status, 0, plan.stderr)
      let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
      return try XCTUnwrap(object["outputs"] as? [[String: Any]]).map { $0["upToDate"] as? Bool ?? false }
    }
    XCTAssertEqual(try upToDate(), Array(repeating: false, count: 20))
    XCTAssertEqual(try s.run(["run", "job.yaml", "-q"]).status, 0)
    XCTAssertEqual(try upToDate(), Array(repeating: true, count: 20))
  }

  func testPlanDotIsGraphviz() throws {
    let s = try scratch()
    defer { s.remove() }
    let result = try s.run(["plan", "job.yaml", "--format", "dot"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "digraph cropjob {")
    XCTAssertEqual(lines.last, "}")
    var depth = 0
    for line in lines {
      // Outside quoted strings: braces balance and every statement ends.
      var bare = ""
      var inQuote = false
      var escaped = false
      for c in line {
        if escaped {
          escaped = false
        } else if c == "\\" && inQuote {
          escaped = true
        } else if c == "\"" {
          inQuote.toggle()
        } else if !inQuote {
          bare.append(c)
        }
      }
      XCTAssertFalse(inQuote, line)
      depth += bare.filter { $0 == "{" }.count - bare.filter { $0 == "}" }.count
      let t = bare.trimmingCharacters(in: .whitespaces)
      XCTAssertTrue(t.hasSuffix(";") || t.hasSuffix("{") || t == "}", line)
    }
    XCTAssertEqual(depth, 0)
    XCTAssertEqual(lines.filter { $0.contains("[shape=note") }.count, 20)
    XCTAssertEqual(lines.filter { $0.contains("[shape=box") }.count, 10)
    XCTAssertEqual(lines.filter { $0.contains("[style=dashed]") }.count, 5)
    // Graphviz parses it (scripts/install-deps.sh installs it: missing, the check fails).
    let dot = "/usr/bin/dot"
    XCTAssertTrue(FileManager.default.isExecutableFile(atPath: dot), "\(dot) is not installed (Debian graphviz)")
    if FileManager.default.isExecutableFile(atPath: dot) {
      let graphviz = try Subprocess.run(dot, ["-Tsvg", "-o", "/dev/null"], input: Data(result.stdout.utf8))
      XCTAssertEqual(graphviz.status, 0, "graphviz rejects the plan: \(graphviz.stderr)")
    }
  }
}
