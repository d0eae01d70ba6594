import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import TestSupport
import XCTest

/// The planner: JSON snapshots of the sample jobs, cycles, collisions, shards, DOT.
final class PlannerTests: XCTestCase {
  // MARK: Snapshots

  static let fixtures = TestPaths.fixtures.appendingPathComponent("plans")

  /// `plan --format json` of a job file, with the checkout's location replaced by `$REPO`.
  func planJSON(_ jobFile: String) throws -> String {
    let path = TestPaths.jobs.appendingPathComponent(jobFile).path
    let loaded = JobFileLoader.load(path: path)
    let file = try XCTUnwrap(loaded.jobFile, loaded.diagnostics.map(\.description).joined(separator: "\n"))
    let plan = Planner().plan(file)
    return PlanRenderer.render(plan, format: .json).replacingOccurrences(of: TestPaths.repoRoot.path, with: "$REPO")
  }

  /// Compares the plans of jobs/*.yaml with Tests/Fixtures/plans/<job>.json,
  /// structurally (numbers within 1e-6; `key`, which names cropjob's and libvips' versions,
  /// only for its form).
  func testPlanSnapshotsOfSampleJobs() throws {
    let jobs = try FileManager.default.contentsOfDirectory(atPath: TestPaths.jobs.path).filter { $0.hasSuffix(".yaml") }
      .sorted()
    XCTAssertFalse(jobs.isEmpty)
    for job in jobs {
      let actual = try planJSON(job)
      let fixture = Self.fixtures.appendingPathComponent((job as NSString).deletingPathExtension + ".json")
      // No switch rewrites the fixtures from the code under test: a fixture is edited by hand
      // (and its geometry is checked against arithmetic done apart from the planner:
      // `testThumbnailSnapshotAgreesWithTheDocumentedArithmetic`).
      guard FileManager.default.fileExists(atPath: fixture.path) else {
        XCTFail("\(fixture.lastPathComponent) is missing: write it by hand from `cropjob plan --format json`, checked")
        continue
      }
      let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture))
      let got = try JSONSerialization.jsonObject(with: Data(actual.utf8))
      var differences: [String] = []
      Self.compare(expected, got, at: job, into: &differences)
      XCTAssertTrue(
        differences.isEmpty,
        "\(job): plan differs from \(fixture.lastPathComponent):\n"
          + differences.prefix(20).joined(separator: "\n"))
    }
  }

  /// The geometry in Tests/Fixtures/plans/thumbnails.json against the arithmetic of
  /// docs/geometry.md done here, apart from the planner, on the photo sizes Pillow reads (EXIF
  /// orientation applied): `fit: cover` scales by max(gw / W, gh / H) × zoom; the crop is the
  /// guide's preimage (gw / s × gh / s) around the focus point, moved the least to lie inside
  /// the photo; each width w scales the output by w / gw. Outputs with an upscale note are left
  /// to the snapshot.
  func testThumbnailSnapshotAgreesWithTheDocumentedArithmetic() throws {
    let python = try XCTUnwrap(TestPaths.python, "/usr/bin/python3 with Pillow is needed")
    let samples = TestPaths.repoRoot.appendingPathComponent("samples").path
    let sizes = try Subprocess.run(
      python,
      [
        "-c",
        """
        import os, sys
        from PIL import Image, ImageOps
        for name in sorted(os.listdir(sys.argv[1])):
            if name.endswith(('.jpg', '.png')):
                w, h = ImageOps.exif_transpose(Image.open(os.path.join(sys.argv[1], name))).size
                print(name, w, h)
        """, samples,
      ])
    XCTAssertEqual(sizes.status, 0, sizes.stderr)
    var size: [String: (Double, Double)] = [:]
    for line in sizes.stdout.split(separator: "\n") {
      let f = line.split(separator: " ")
      size[String(f[0])] = (Double(f[1])!, Double(f[2])!)
    }
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("thumbnails.json"))
    let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let outputs = try XCTUnwrap(plan["outputs"] as? [[String: Any]])
    var checked = 0
    for output in outputs {
      let path = try XCTUnwrap(output["path"] as? String)
      let source = ((output["source"] as? String ?? "") as NSString).lastPathComponent
      let (w, h) = try XCTUnwrap(size[source], source)
      if let notes = output["notes"] as? [String], notes.contains(where: { $0.contains("upscal") }) { continue }
      let square = output["job"] as? String == "square"
      let (gw, gh, zoom, fx, fy) = square ? (200.0, 200.0, 1.0, 0.5, 0.5) : (640.0, 360.0, 1.1, 0.5, 0.4)
      let s = max(gw / w, gh / h) * zoom
      let (cw, ch) = (gw / s, gh / s)
      let cx = min(max(fx * w, cw / 2), w - cw / 2)
      let cy = min(max(fy * h, ch / 2), h - ch / 2)
      let width = square ? Double(Int(path.split(separator: "-").last!.split(separator: ".").first!)!) : gw
      let k = width / gw
      func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }
      let crop = output["crop"] as? [String: Any] ?? [:]
      let centre = output["centre"] as? [String: Any] ?? [:]
      let expected: [(String, Double, Double)] = [
        ("width", number(output["width"]), width), ("height", number(output["height"]), (gh * k).rounded()),
        ("scale", number(output["scale"]), k * s), ("crop.x", number(crop["x"]), cx - cw / 2),
        ("crop.y", number(crop["y"]), cy - ch / 2), ("crop.width", number(crop["width"]), cw),
        ("crop.height", number(crop["height"]), ch), ("centre.x", number(centre["x"]), cx),
        ("centre.y", number(centre["y"]), cy),
      ]
      for (field, got, want) in expected {
        XCTAssertEqual(got, want, accuracy: 1e-6 * max(1, abs(want)), "\(path) \(field)")
      }
      checked += 1
    }
    XCTAssertGreaterThanOrEqual(checked, 30, "too few outputs checked")
  }

  static func compare(_ a: Any, _ b: Any, at path: String, into differences: inout [String]) {
    switch (a, b) {
    case (let x as [String: Any], let y as [String: Any]):
      for key in Set(x.keys).union(y.keys).sorted() {
        guard let xv = x[key], let yv = y[key] else {
          differences.append("\(path).\(key): only in \(x[key] == nil ? "actual" : "expected")")
          continue
        }
        if key == "key" {
          for v in [xv, yv] where !((v as? String).map { $0.count == 64 && $0.allSatisfy(\.isHexDigit) } ?? false) {
            differences.append("\(path).key: \(v) is not a SHA-256")
          }
          continue
        }
        compare(xv, yv, at: "\(path).\(key)", into: &differences)
      }
    case (let x as [Any], let y as [Any]):
      if x.count != y.count { differences.append("\(path): \(x.count) items expected, \(y.count) found") }
      for i in 0..<min(x.count, y.count) { compare(x[i], y[i], at: "\(path)[\(i)]", into: &differences) }
    case (let x as String, let y as String):
      if x != y { differences.append("\(path): expected \"\(x)\", found \"\(y)\"") }
    case (let x as NSNumber, let y as NSNumber):
      if abs(x.doubleValue - y.doubleValue) > 1e-6 * max(1, abs(x.doubleValue)) {
        differences.append("\(path): expected \(x), found \(y)")
      }
    case (is NSNull, is NSNull):
      break
    default:
      differences.append("\(path): expected \(a), found \(b)")
    }
  }

  func testPlanJSONHasEveryOutputWithCropSizePathAndKey() throws {
    let object = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(planJSON("thumbnails.yaml").utf8)) as? [String: Any])
    let outputs = try XCTUnwrap(object["outputs"] as? [[String: Any]])
    // 14 samples x 2 widths (square) + 9 JPEGs not sideways (banner).
    XCTAssertEqual(outputs.count, 28 + 9)
    XCTAssertEqual(object["decodes"] as? Int, 14)
    for output in outputs {
      for field in ["crop", "width", "height", "path", "key", "upToDate", "source", "job"] {
        XCTAssertNotNil(output[field], "\(field) missing in \(output)")
      }
      let crop = try XCTUnwrap(output["crop"] as? [String: Any])
      XCTAssertNotNil(crop["width"])
    }
    XCTAssertEqual(Set(outputs.compactMap { $0["key"] as? String }).count, outputs.count, "keys are distinct")
  }

  // MARK: Graph errors

  func testCycleIsAnErrorNamingTheCycle() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          a:
            from: c
            guide: {shape: square, size: 64}
            outputs: [{path: "a/{stem}.jpg"}]
          b:
            from: a
            guide: {shape: square, size: 32}
            outputs: [{path: "b/{stem}.jpg"}]
          c:
            from: b
            guide: {shape: square, size: 16}
            outputs: [{path: "c/{stem}.jpg"}]
        """)
    defer { harness.remove() }
    let result = JobFileLoader.load(path: harness.jobPath)
    XCTAssertNil(result.jobFile)
    let cycle = result.diagnostics.filter { $0.message.contains("cycle") }
    XCTAssertEqual(cycle.count, 1, result.diagnostics.map(\.description).joined(separator: "\n"))
    let message = try XCTUnwrap(cycle.first).message
    for name in ["a", "b", "c"] { XCTAssertTrue(message.contains(name), message) }
    XCTAssertTrue(message.contains("→"), message)
    XCTAssertGreaterThan(try XCTUnwrap(cycle.first).line, 0)
  }

  func testPathCollisionMakesThePlanUnrunnable() throws {
    let harness = try RunHarness(samples: ["kite.jpg", "bridge.jpg"], job: TestJobs.pathCollision)
    defer { harness.remove() }
    let plan = try harness.plan()
    XCTAssertFalse(plan.isRunnable)
    let collisions = plan.issues.filter { $0.message.contains("path collision") }
    XCTAssertEqual(collisions.count, 1, "\(plan.issues)")
    XCTAssertEqual(collisions.first?.output, "same/kite.jpg")
    XCTAssertTrue(collisions.first?.message.contains("job one") ?? false, "\(collisions)")
  }

  func testAnOutputMayNotOverwriteASource() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg"],
      job: """
        version: 1
        output: photos
        jobs:
          inplace:
            sources: ["photos/kite.jpg"]
            guide: {shape: square, size: 64}
            outputs: [{path: "{name}"}]
        """)
    defer { harness.remove() }
    let plan = try harness.plan()
    XCTAssertFalse(plan.isRunnable)
    XCTAssertTrue(plan.issues.contains { $0.message.contains("would overwrite the source") }, "\(plan.issues)")
  }

  func testUnreadableSourceIsFoundBeforeRunning() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          t:
            sources: ["photos"]
            guide: {shape: square, size: 64}
            outputs: [{path: "{stem}.jpg"}]
        """)
    defer { harness.remove() }
    try Data("not an image".utf8).write(to: harness.folder.appendingPathComponent("photos/broken.jpg"))
    let plan = try harness.plan()
    XCTAssertTrue(plan.isRunnable, "a bad source fails its own outputs only")
    XCTAssertEqual(plan.outputs.map(\.path), ["kite.jpg"])
    XCTAssertTrue(plan.issues.contains { $0.severity == .error && $0.source == "photos/broken.jpg" }, "\(plan.issues)")
  }

  func testOutputRootIsAbsoluteAndStandardised() throws {
    // A relative job-file path, as on the command line: from the checkout's root.
    let cwd = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(TestPaths.repoRoot.path) else {
      return XCTFail("cannot enter \(TestPaths.repoRoot.path)")
    }
    defer { XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(cwd), "cannot return to \(cwd)") }
    let file = try XCTUnwrap(JobFileLoader.load(path: "jobs/thumbnails.yaml").jobFile)
    let plan = Planner().plan(file)
    XCTAssertEqual(plan.outputRoot, TestPaths.repoRoot.appendingPathComponent("out/thumbnails").path)
    XCTAssertTrue(plan.sources.allSatisfy { $0.absolutePath.hasPrefix("/") && !$0.absolutePath.contains("..") })
  }

  // MARK: Stages

  func testFromJobsRunInALaterStageFromTheUpstreamOutput() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg", "bridge.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          small:
            from: big
            guide: {shape: circle, size: 32}
            outputs: [{path: "small/{stem}.png", encode: {format: png}}]
          big:
            sources: ["photos/*.jpg"]
            guide: {shape: square, size: 128}
            outputs:
              - {path: "big/{stem}-{width}.jpg", widths: [128, 256]}
        """)
    defer { harness.remove() }
    let plan = try harness.plan()
    XCTAssertTrue(plan.isRunnable, "\(plan.issues)")
    XCTAssertEqual(plan.outputs.filter { $0.job == "big" }.map(\.stage), [0, 0, 0, 0])
    let small = plan.outputs.filter { $0.job == "small" }
    XCTAssertEqual(small.map(\.stage), [1, 1])
    // The largest size of the upstream's first output entry is the source, named by its
    // path in the output root (not by an absolute path).
    XCTAssertEqual(small.map { plan.sources[$0.sourceIndex].path }, ["big/bridge-256.jpg", "big/kite-256.jpg"])
    XCTAssertEqual(small.map(\.path), ["small/bridge-256.png", "small/kite-256.png"])
  }

  // MARK: Shards

  func testShardsPartitionTheOutputsBySource() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg", "bridge.jpg", "cat.png", "astronaut.jpg", "ladybird.jpg", "nuthatch.jpg"],
      job: """
        version: 1
        output: out
        jobs:
          big:
            sources: ["photos"]
            guide: {shape: square, size: 64}
            outputs: [{path: "big/{stem}-{width}.jpg", widths: [64, 128]}]
          small:
            from: big
            guide: {shape: square, size: 16}
            outputs: [{path: "small/{stem}.jpg"}]
        """)
    defer { harness.remove() }
    let plan = try harness.plan()
    var seen: [Int: Int] = [:]
    for index in 0..<4 {
      let selected = plan.selectedOutputs(shard: Shard(index: index, count: 4))
      for i in selected { seen[i, default: 0] += 1 }
      // A source's outputs, and the outputs of what it feeds, stay in one shard.
      let roots = Set(selected.map { plan.rootSources()[plan.outputs[$0].sourceIndex] })
      for i in plan.outputs.indices where roots.contains(plan.rootSources()[plan.outputs[i].sourceIndex]) {
        XCTAssertTrue(selected.contains(i), "\(plan.outputs[i].path) is not with its source in shard \(index)")
      }
    }
    XCTAssertEqual(seen.count, plan.outputs.count, "the union is the whole plan")
    XCTAssertTrue(seen.values.allSatisfy { $0 == 1 }, "no output is in two shards")
  }

  func testShardIsStableAcrossProcesses() {
    // A fixed hash, not Swift's per-process seeded one: these values must not change within
    // a version, or workers of one batch built at different times would disagree. The
    // expected shards were computed by an independent Python implementation (FNV-1a 64,
    // MurmurHash3's fmix64, (hash × n) >> 64).
    XCTAssertEqual((0..<4).filter { Shard(index: $0, count: 4).contains("../samples/kite.jpg") }.count, 1)
    let paths = ["a", "b", "photos/kite.jpg", "../samples/bridge.jpg"]
    XCTAssertEqual(paths.map { p in (0..<4).first { Shard(index: $0, count: 4).contains(p) }! }, [2, 1, 2, 3])
    XCTAssertEqual(paths.map { Shard.index(of: $0, count: 100) }, [51, 43, 58, 77])
  }

  /// `expression` throws exactly `message`.
  func assertProblem<T>(
    _ expression: @autoclosure () throws -> T, _ message: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { error in
      XCTAssertEqual(String(describing: error), message, file: file, line: line)
    }
  }

  func testShardSelectionFromTheCommandLineAndTheEnvironment() throws {
    XCTAssertEqual(try ShardSelection.parse("2/4"), Shard(index: 2, count: 4))
    for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3"] {
      assertProblem(try ShardSelection.parse(bad), "--shard expects I/N with 0 ≤ I < N (e.g. 0/4), got \"\(bad)\"")
    }
    // Slurm: task ids relative to the array's first id.
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(
        ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil),
      Shard(index: 2, count: 4))
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil),
      Shard(index: 3, count: 4))
    assertProblem(
      try ShardSelection.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3"], count: nil),
      "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (or pass --shard-count)")
    // --array=0-6:2: ids 0, 2, 4, 6 with a step of 2.
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(
        [
          "SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2",
          "SLURM_ARRAY_TASK_COUNT": "4",
        ],
        count: nil),
      Shard(index: 3, count: 4))
    assertProblem(
      try ShardSelection.fromEnvironment(
        [
          "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2",
          "SLURM_ARRAY_TASK_COUNT": "4",
        ],
        count: nil),
      "the Slurm array (task 5, min 0, max ?, step 2, count 4) is not a regular range: pass --shard I/N")
    // --array=1,2,7 (what Slurm 22.05 sets): every task refuses, not only task 7.
    for id in ["1", "2", "7"] {
      assertProblem(
        try ShardSelection.fromEnvironment(
          [
            "SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7",
            "SLURM_ARRAY_TASK_STEP": "1",
            "SLURM_ARRAY_TASK_COUNT": "3",
          ], count: nil),
        "the Slurm array (task \(id), min 1, max 7, step 1, count 3) is not a regular range: pass --shard I/N")
    }
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(
        [
          "SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "13",
          "SLURM_ARRAY_TASK_STEP": "1",
          "SLURM_ARRAY_TASK_COUNT": "4",
        ], count: nil), Shard(index: 2, count: 4))
    assertProblem(
      try ShardSelection.fromEnvironment(
        ["SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil),
      "SLURM_ARRAY_TASK_ID gives shard 4 of 4, outside 0..<4")
    // Kubernetes Indexed Jobs and AWS Batch give only an index: the count comes from --shard-count.
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(["JOB_COMPLETION_INDEX": "1"], count: 3), Shard(index: 1, count: 3))
    assertProblem(
      try ShardSelection.fromEnvironment(["JOB_COMPLETION_INDEX": "1"], count: nil),
      "JOB_COMPLETION_INDEX is set: pass --shard-count N (the number of workers)")
    assertProblem(
      try ShardSelection.fromEnvironment(["JOB_COMPLETION_INDEX": "3"], count: 3),
      "JOB_COMPLETION_INDEX gives shard 3 of 3, outside 0..<3")
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "0"], count: 2), Shard(index: 0, count: 2))
    assertProblem(
      try ShardSelection.fromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "x"], count: 2),
      "AWS_BATCH_JOB_ARRAY_INDEX=x is not an integer")
    // AWS Batch also gives the array's size; Cloud Run and Google Cloud Batch always give both.
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(
        ["AWS_BATCH_JOB_ARRAY_INDEX": "2", "AWS_BATCH_JOB_ARRAY_SIZE": "3"], count: nil), Shard(index: 2, count: 3))
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(["CLOUD_RUN_TASK_INDEX": "3", "CLOUD_RUN_TASK_COUNT": "4"], count: nil),
      Shard(index: 3, count: 4))
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(["BATCH_TASK_INDEX": "0", "BATCH_TASK_COUNT": "2"], count: 2),
      Shard(index: 0, count: 2))
    assertProblem(
      try ShardSelection.fromEnvironment(["CLOUD_RUN_TASK_INDEX": "1"], count: nil),
      "CLOUD_RUN_TASK_INDEX is set but CLOUD_RUN_TASK_COUNT is not (or pass --shard-count)")
    assertProblem(
      try ShardSelection.fromEnvironment(["BATCH_TASK_COUNT": "4"], count: nil),
      "BATCH_TASK_COUNT is set but BATCH_TASK_INDEX is not: pass --shard I/N")
    assertProblem(
      try ShardSelection.fromEnvironment(["AWS_BATCH_JOB_ARRAY_SIZE": "4"], count: 4),
      "AWS_BATCH_JOB_ARRAY_SIZE is set but AWS_BATCH_JOB_ARRAY_INDEX is not: pass --shard I/N")
    assertProblem(
      try ShardSelection.fromEnvironment(["BATCH_TASK_INDEX": "4", "BATCH_TASK_COUNT": "4"], count: nil),
      "BATCH_TASK_INDEX gives shard 4 of 4, outside 0..<4")
    assertProblem(
      try ShardSelection.fromEnvironment(["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "four"], count: nil),
      "CLOUD_RUN_TASK_COUNT=four is not an integer")
    // Conflicts: --shard-count against the engine's own count, and two engines at once.
    assertProblem(
      try ShardSelection.fromEnvironment(["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "8"], count: 4),
      "--shard-count 4 disagrees with CLOUD_RUN_TASK_COUNT=8: drop --shard-count")
    assertProblem(
      try ShardSelection.fromEnvironment(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"], count: 2),
      "--shard-count 2 disagrees with SLURM_ARRAY_TASK_COUNT=4: drop --shard-count")
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(["BATCH_TASK_INDEX": "1", "BATCH_TASK_COUNT": "4"], count: 4),
      Shard(index: 1, count: 4))
    assertProblem(
      try ShardSelection.fromEnvironment(
        ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "JOB_COMPLETION_INDEX": "1"], count: 4),
      "SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set at once: two batch engines give a shard; pass --shard I/N")
    assertProblem(
      try ShardSelection.fromEnvironment(
        [
          "CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "2", "BATCH_TASK_INDEX": "0",
          "BATCH_TASK_COUNT": "2",
        ], count: nil),
      "CLOUD_RUN_TASK_INDEX and BATCH_TASK_INDEX are set at once: two batch engines give a shard; pass --shard I/N")
    XCTAssertNil(try ShardSelection.fromEnvironment(["HOME": "/root"], count: nil))
    // A count without an index is refused, naming every variable read.
    XCTAssertThrowsError(try ShardSelection.fromEnvironment(["HOME": "/root"], count: 4)) { error in
      let text = String(describing: error)
      for name in [
        "--shard-count 4", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX",
        "CLOUD_RUN_TASK_INDEX", "BATCH_TASK_INDEX",
      ] {
        XCTAssertTrue(text.contains(name), text)
      }
    }
  }

  // MARK: Renderers

  func testTextSummaryCountsDecodesAndIssues() throws {
    let file = try XCTUnwrap(
      JobFileLoader.load(path: TestPaths.jobs.appendingPathComponent("thumbnails.yaml").path).jobFile)
    let text = PlanRenderer.render(Planner().plan(file), format: .text)
    XCTAssertTrue(text.contains("job square: 14 sources, 28 outputs"), text)
    XCTAssertTrue(text.contains("job banner: 9 sources, 9 outputs"), text)
    XCTAssertTrue(text.contains("Total: 37 outputs from 14 decodes"), text)
    XCTAssertTrue(text.hasSuffix("Runnable."), text)
  }

  func testDotIsWellFormedGraphviz() throws {
    let harness = try RunHarness(
      samples: ["kite.jpg", "cat.png"],
      job: """
        version: 1
        output: out
        jobs:
          big:
            sources: ["photos"]
            guide: {shape: square, size: 64}
            outputs: [{path: "big/{stem} \\"q\\"-{width}.jpg", widths: [64, 128]}]
          small:
            from: big
            guide: {shape: square, size: 16}
            outputs: [{path: "small/{stem}.jpg"}]
        """)
    defer { harness.remove() }
    let dot = PlanRenderer.render(try harness.plan(), format: .dot)
    DotChecks.assertWellFormed(dot)
    XCTAssertTrue(dot.contains("subgraph \"cluster_big\""), dot)
    XCTAssertTrue(dot.contains("[style=dashed]"), "from: edges")
    XCTAssertEqual(dot.components(separatedBy: "[shape=box").count - 1, 4, "one decode node per source")
    XCTAssertEqual(dot.components(separatedBy: "[shape=note").count - 1, 6, "one node per output")
  }
}

/// Structural checks of DOT text: one digraph, balanced braces, every statement ended,
/// quoted strings closed, edges between declared nodes. (Graphviz itself is not needed.)
enum DotChecks {
  static func assertWellFormed(_ dot: String, file: StaticString = #filePath, line: UInt = #line) {
    let lines = dot.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(lines.first, "digraph cropjob {", file: file, line: line)
    XCTAssertEqual(lines.last, "}", file: file, line: line)
    var depth = 0
    var nodes = Set<String>()
    var edges: [(String, String)] = []
    for text in lines {
      // Split into quoted strings and the rest.
      var quoted: [String] = []
      var bare = ""
      var current = ""
      var inQuote = false
      var escaped = false
      for c in text {
        if inQuote {
          if escaped {
            escaped = false
            current.append(c)
          } else if c == "\\" {
            escaped = true
          } else if c == "\"" {
            inQuote = false
            quoted.append(current)
            current = ""
            bare += "\"\""
          } else {
            current.append(c)
          }
        } else if c == "\"" {
          inQuote = true
        } else {
          bare.append(c)
        }
      }
      XCTAssertFalse(inQuote, "unclosed quote: \(text)", file: file, line: line)
      depth += bare.filter { $0 == "{" }.count - bare.filter { $0 == "}" }.count
      XCTAssertGreaterThanOrEqual(depth, 0, file: file, line: line)
      let trimmed = bare.trimmingCharacters(in: .whitespaces)
      XCTAssertTrue(
        trimmed.hasSuffix(";") || trimmed.hasSuffix("{") || trimmed == "}", "statement not ended: \(text)", file: file,
        line: line)
      if trimmed.hasPrefix("\"\" -> \"\""), quoted.count >= 2 {
        edges.append((quoted[0], quoted[1]))
      } else if trimmed.hasPrefix("\"\" ["), let id = quoted.first {
        nodes.insert(id)
      }
    }
    XCTAssertEqual(depth, 0, "unbalanced braces", file: file, line: line)
    for (from, to) in edges {
      XCTAssertTrue(nodes.contains(to), "edge to undeclared node \(to)", file: file, line: line)
      XCTAssertTrue(nodes.contains(from), "edge from undeclared node \(from)", file: file, line: line)
    }
  }
}
