import Foundation
import TestSupport
import XCTest

/// `cropjob run` and `plan` over photos in S3 (moto on loopback, one server for the class;
/// requests counted at the fault proxy in front of it): the outputs are those of the same
/// job over the same files on disk, byte for byte; a no-op and a plan after a run only
/// LIST; an object rewritten with the same size is rebuilt; failed requests are retried and
/// reported.
final class S3SourceRunTests: XCTestCase {
  nonisolated(unsafe) static var shared: S3SourceJob?
  nonisolated(unsafe) static var proxy: FaultProxy?

  override class func setUp() {
    super.setUp()
    shared = try? S3SourceJob(name: "S3SourceRunTests")
    if let shared {
      proxy = try? FaultProxy(upstreamPort: shared.moto.service.port, plan: [:], folder: shared.folder)
    }
  }

  override class func tearDown() {
    proxy?.stop()
    shared?.moto.stop()
    super.tearDown()
  }

  func setting() throws -> (S3SourceJob, FaultProxy) {
    let job = try XCTUnwrap(Self.shared, "moto did not start (run scripts/install-deps.sh)")
    return (job, try XCTUnwrap(Self.proxy, "the fault proxy did not start"))
  }

  /// The requests the proxy saw during `body`, by operation (LIST, GET, HEAD, PUT).
  func operations(_ proxy: FaultProxy, _ body: () throws -> Void) throws -> [String: Int] {
    let before = try proxy.stats().operations
    try body()
    return try proxy.stats().operations.merging(before) { $0 - $1 }.filter { $0.value != 0 }
  }

  func testAJobOverS3EqualsTheJobOnDiskAndANoOpOnlyLists() throws {
    let (job, proxy) = try setting()
    let local = try job.jobFile("local", source: "local", output: "out-local")
    let direct = job.environment(endpoint: job.moto.endpoint)
    XCTAssertEqual(try job.cropjob(["run", "--jobs", "1", local.path], environment: direct).status, 0)
    let expected = S3SourceJob.files(job.folder.appendingPathComponent("out-local"))
    XCTAssertEqual(expected.count, 7, "6 outputs and the manifest")
    for workers in ["1", "2"] {
      let s3 = try job.jobFile("s3-\(workers)", source: "s3://photos-in/in", output: "out-s3-\(workers)")
      let result = try job.cropjob(["run", "--jobs", workers, s3.path], environment: direct)
      XCTAssertEqual(result.status, 0, result.stderr)
      var written = S3SourceJob.files(job.folder.appendingPathComponent("out-s3-\(workers)"))
      XCTAssertEqual(
        S3SourceJob.comparableManifest(written.removeValue(forKey: "cropjob-manifest.json")),
        S3SourceJob.comparableManifest(expected["cropjob-manifest.json"]), "workers \(workers)")
      XCTAssertEqual(written, expected.filter { $0.key != "cropjob-manifest.json" }, "workers \(workers)")
    }
    // Through the proxy: the no-op lists the folder (a key, then the prefix) and reads nothing.
    let s3 = job.folder.appendingPathComponent("s3-1.yaml")
    let counted = job.environment(endpoint: proxy.endpoint)
    var noOp: Subprocess.Result?
    XCTAssertEqual(
      try operations(proxy) { noOp = try job.cropjob(["run", s3.path], environment: counted) }, ["LIST": 2])
    XCTAssertTrue(noOp?.stderr.contains("0 written, 6 up to date") ?? false, noOp?.stderr ?? "")
    // Planning again reads the headers the run recorded by their ETags: no GET either.
    XCTAssertEqual(try operations(proxy) { _ = try job.cropjob(["plan", s3.path], environment: counted) }, ["LIST": 2])
    // `validate` makes no request at all.
    XCTAssertEqual(
      try operations(proxy) {
        XCTAssertEqual(try job.cropjob(["validate", s3.path], environment: counted).status, 0)
      }, [:])
    // The same size, other bytes: a new ETag, so the photo is read (head, then whole) and rebuilt.
    var bytes = try Data(contentsOf: job.local.appendingPathComponent("astronaut.jpg"))
    bytes[bytes.count - 3] ^= 1
    let changed = job.folder.appendingPathComponent("changed.jpg")
    try bytes.write(to: changed)
    try job.moto.client(["put", "photos-in", "in/astronaut.jpg", changed.path])
    var rerun: Subprocess.Result?
    XCTAssertEqual(
      try operations(proxy) { rerun = try job.cropjob(["run", s3.path], environment: counted) }, ["LIST": 2, "GET": 2])
    XCTAssertTrue(rerun?.stderr.contains("2 written, 4 up to date") ?? false, rerun?.stderr ?? "")
  }

  func testFailedRequestsAreRetriedReportedAndEveryOutputIsRight() throws {
    let (job, _) = try setting()
    // 5 % of requests fail at random, and three for sure: a 503 on the listing, a reset
    // before a header's GET reaches the server, a 503 on a photo's GET.
    let faulty = try FaultProxy(
      upstreamPort: job.moto.service.port,
      plan: [
        "rate": 0.05, "faults": ["503", "reset"], "seed": 7, "schedule": ["1": "503", "4": "reset", "8": "503"],
      ],
      folder: job.folder)
    defer { faulty.stop() }
    let local = try job.jobFile("local-f", source: "local", output: "out-local-f")
    XCTAssertEqual(try job.cropjob(["run", local.path], environment: [:]).status, 0)
    let s3 = try job.jobFile("s3-f", source: "s3://photos-in/in/", output: "out-s3-f")
    let result = try job.cropjob(
      ["run", "--jobs", "2", s3.path], environment: job.environment(endpoint: faulty.endpoint))
    XCTAssertEqual(result.status, 0, result.stderr)
    let stats = try faulty.stats()
    XCTAssertGreaterThanOrEqual(stats.faults.values.reduce(0, +), 3)
    let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("retrying") }
    XCTAssertEqual(warnings.count, stats.faults.values.reduce(0, +), result.stderr)
    var written = S3SourceJob.files(job.folder.appendingPathComponent("out-s3-f"))
    written["cropjob-manifest.json"] = nil
    var expected = S3SourceJob.files(job.folder.appendingPathComponent("out-local-f"))
    expected["cropjob-manifest.json"] = nil
    XCTAssertEqual(written, expected)
  }

  /// `overrides_from: s3://…` is read (one ranged GET) by `plan`, not by `validate`: a bad
  /// row is found at its line only by the command that reads it.
  func testACropTableInS3IsReadByPlanAndNotByValidate() throws {
    let (job, proxy) = try setting()
    let table = job.folder.appendingPathComponent("crops.csv")
    try "source,x,y,width,height\ns3://photos-in/in/astronaut.jpg,10,20,-300,200\n".write(
      to: table, atomically: true, encoding: .utf8)
    try job.moto.client(["put", "photos-in", "tables/crops.csv", table.path])
    let file = job.folder.appendingPathComponent("table.yaml")
    try String(
      contentsOf: try job.jobFile("table-base", source: "s3://photos-in/in/", output: "out-table"), encoding: .utf8
    )
    .replacingOccurrences(of: "jobs:", with: "overrides_from: s3://photos-in/tables/crops.csv\njobs:")
    .write(to: file, atomically: true, encoding: .utf8)
    let environment = job.environment(endpoint: proxy.endpoint)
    var validate: Subprocess.Result?
    XCTAssertEqual(
      try operations(proxy) { validate = try job.cropjob(["validate", file.path], environment: environment) }, [:])
    XCTAssertEqual(validate?.status, 0, validate?.stderr ?? "")
    var plan: Subprocess.Result?
    let planned = try operations(proxy) { plan = try job.cropjob(["plan", file.path], environment: environment) }
    XCTAssertEqual(planned["GET"], 1, "the table, read once (the photos' heads are not read: the plan stops)")
    XCTAssertEqual(plan?.status, 2, plan?.stderr ?? "")
    XCTAssertTrue(plan?.stderr.contains("s3://photos-in/tables/crops.csv:2:") ?? false, plan?.stderr ?? "")
  }
}
