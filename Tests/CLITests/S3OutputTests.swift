import Foundation
import TestSupport
import XCTest

/// `cropjob run` with an `s3://` output against moto on loopback (one server for the class),
/// read back with boto3: the outputs equal the same job's on disk byte for byte (1 and 2
/// workers, 4 shards), a key cropjob did not write is not replaced, `--prune` deletes only
/// recorded keys, a fresh worker does the no-op from the state in the prefix with the
/// listing and the state's requests only, and a run killed mid-way then run again ends
/// with the bytes of one clean run (docs/storage.md).
final class S3OutputTests: XCTestCase {
  nonisolated(unsafe) static var moto: MotoS3?
  static let bucket = "outputs"

  override class func setUp() {
    super.setUp()
    moto = try? MotoS3(name: "S3OutputTests")
    _ = try? moto?.client(["make-bucket", bucket])
  }

  override class func tearDown() {
    moto?.stop()
    moto = nil
    super.tearDown()
  }

  func server() throws -> MotoS3 { try XCTUnwrap(Self.moto, "moto did not start: run scripts/install-deps.sh") }

  /// A job over three samples (two sizes each) writing to `out` unless `--output` says.
  func job(_ name: String = #function) throws -> CLIJob {
    let s = CLIJob(name)
    try s.copySamples(["astronaut.jpg", "bridge.jpg", "cat.png"])
    try s.write(
      """
      version: 1
      output: out
      jobs:
        thumbs:
          sources: [photos/*]
          guide: {shape: square, size: 64}
          outputs:
            - path: "t/{stem}-{width}.jpg"
              widths: [64, 32]
              cache_control: "public, max-age=60"
      """)
    return s
  }

  /// The environment of a run against `endpoint` (the server's unless given).
  func environment(_ endpoint: String? = nil, secret: String? = nil) throws -> [String: String] {
    var environment = MotoS3.environment
    environment["AWS_ENDPOINT_URL"] = try endpoint ?? server().endpoint
    environment["AWS_CONFIG_FILE"] = "/nonexistent/config"
    environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/credentials"
    if let secret { environment["AWS_SECRET_ACCESS_KEY"] = secret }
    return environment
  }

  /// Key → (size, ETag) under `prefix`, as boto3 lists them.
  func listed(_ prefix: String) throws -> [String: (size: Int, etag: String)] {
    let objects = try server().client(["list", Self.bucket, prefix]) as? [[String: Any]] ?? []
    var result: [String: (Int, String)] = [:]
    for object in objects { result[object["key"] as! String] = (object["size"] as! Int, object["etag"] as! String) }
    return result
  }

  /// Path (relative to `root`) → MD5 of each file under it (what moto's ETag of a PUT is).
  func md5s(_ root: String) throws -> [String: String] {
    let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter {
      !$0.hasPrefix(".cropjob") && !$0.hasPrefix("cropjob-manifest") && !$0.hasSuffix("/")
        && !FileManager.default.fileExists(atPath: root + "/" + $0 + "/.")
    }
    let run = try Subprocess.run("/usr/bin/md5sum", files.sorted(), cwd: URL(fileURLWithPath: root))
    XCTAssertEqual(run.status, 0, run.stderr)
    var result: [String: String] = [:]
    for line in run.stdout.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 1)
      result[String(fields[1].drop { $0 == " " || $0 == "*" })] = String(fields[0])
    }
    return result
  }

  /// The outputs under `prefix` (manifest and state left out) as path → MD5, from a listing
  /// of the whole bucket when given (one boto3 call for several prefixes).
  func outputs(_ prefix: String, in all: [String: (size: Int, etag: String)]? = nil) throws -> [String: String] {
    var result: [String: String] = [:]
    for (key, object) in try all ?? listed(prefix + "/")
    where key.hasPrefix(prefix + "/") && !key.contains("/.cropjob/") && !key.contains("cropjob-manifest") {
      result[String(key.dropFirst(prefix.count + 1))] = object.etag
    }
    return result
  }

  func testOutputsEqualTheDiskRunForWorkersAndShards() throws {
    let s = try job()
    defer { s.remove() }
    let disk = try s.run(["run", "job.yaml", "-q", "-j1"])
    XCTAssertEqual(disk.status, 0, disk.stderr)
    let expected = try md5s(s.path("out"))
    XCTAssertEqual(expected.count, 6)
    let env = try environment()
    for (prefix, workers) in [("one", "1"), ("two", "2")] {
      let run = try s.run(
        ["run", "job.yaml", "-q", "-j", workers, "--output", "s3://\(Self.bucket)/\(prefix)"], environment: env)
      XCTAssertEqual(run.status, 0, run.stderr)
    }
    // S3 → S3: the same photos put in the bucket by boto3, read from there (the reading
    // side), the outputs put beside the others.
    for name in ["astronaut.jpg", "bridge.jpg", "cat.png"] {
      try server().client(["put", Self.bucket, "in/\(name)", s.path("photos/\(name)")])
    }
    try s.write(
      String(contentsOfFile: s.path("job.yaml"), encoding: .utf8).replacingOccurrences(
        of: "sources: [photos/*]", with: "sources: [\"s3://\(Self.bucket)/in/*\"]"),
      to: "s3-job.yaml")
    let s3ToS3 = try s.run(
      ["run", "s3-job.yaml", "-q", "-j2", "--output", "s3://\(Self.bucket)/s3s3"], environment: env)
    XCTAssertEqual(s3ToS3.status, 0, s3ToS3.stderr)
    // The manifest lists the same entries: its bytes are the disk run's.
    let manifest = s.path("manifest-s3.json")
    try server().client(["get", Self.bucket, "one/cropjob-manifest.json", manifest])
    XCTAssertEqual(
      FileManager.default.contents(atPath: manifest),
      FileManager.default.contents(atPath: s.path("out/cropjob-manifest.json")))
    // Each object has the format's Content-Type and the output's Cache-Control.
    let object = try server().client(["get", Self.bucket, "one/t/cat-64.jpg", s.path("cat-64.jpg")]) as? [String: Any]
    XCTAssertEqual(object?["content_type"] as? String, "image/jpeg")
    XCTAssertEqual(object?["cache_control"] as? String, "public, max-age=60")
    // Four shards, each a worker with its own empty disk: the union is the whole.
    for index in 0..<4 {
      let run = try s.run(
        ["run", "job.yaml", "-q", "--shard", "\(index)/4", "--output", "s3://\(Self.bucket)/four"], environment: env)
      XCTAssertEqual(run.status, 0, run.stderr)
    }
    let all = try listed("")
    XCTAssertEqual(try outputs("one", in: all), expected, "1 worker")
    XCTAssertEqual(try outputs("two", in: all), expected, "2 workers")
    XCTAssertEqual(try outputs("four", in: all), expected, "4 shards")
    XCTAssertEqual(try outputs("s3s3", in: all), expected, "S3 sources to S3 outputs")
    XCTAssertEqual(all.keys.filter { $0.hasPrefix("four/.cropjob/") }.count, 4, "one state object per shard")
    // `state merge` folds the shards' states in the prefix into one; an unsharded run then
    // finds every output up to date.
    let merge = try s.run(["state", "merge", "job.yaml", "--output", "s3://\(Self.bucket)/four"], environment: env)
    XCTAssertEqual(merge.status, 0, merge.stderr)
    XCTAssertTrue(merge.stdout.contains("merged 4 shard state files into s3://\(Self.bucket)/four/"), merge.stdout)
    XCTAssertEqual(Array(try listed("four/.cropjob/").keys), ["four/.cropjob/state.sqlite3.zst"])
    let whole = try s.run(["run", "job.yaml", "--json", "--output", "s3://\(Self.bucket)/four"], environment: env)
    XCTAssertEqual(whole.status, 0, whole.stderr)
    XCTAssertEqual(CLIJob.events(whole.stdout).last?["upToDate"] as? Int, 6, whole.stdout)
  }

  func testForeignKeysAreKeptAndPruneDeletesOnlyRecordedKeys() throws {
    let s = try job()
    defer { s.remove() }
    let env = try environment()
    let target = ["--output", "s3://\(Self.bucket)/guard"]
    let foreign = s.path("foreign.txt")
    try "not cropjob's".write(toFile: foreign, atomically: true, encoding: .utf8)
    // A key the plan would write, put there by someone else: the run is refused, naming it.
    try server().client(["put", Self.bucket, "guard/t/cat-64.jpg", foreign])
    try server().client(["put", Self.bucket, "guard/t/notes.txt", foreign])
    let refused = try s.run(["run", "job.yaml", "-q"] + target, environment: env)
    XCTAssertEqual(refused.status, 2, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("s3://\(Self.bucket)/guard/t/cat-64.jpg"), refused.stderr)
    XCTAssertEqual(try listed("guard/").count, 2, "nothing was written")
    // Told to overwrite, it does.
    let told = try s.run(["run", "job.yaml", "-q", "--overwrite"] + target, environment: env)
    XCTAssertEqual(told.status, 0, told.stderr)
    XCTAssertNotEqual(try listed("guard/t/")["guard/t/cat-64.jpg"]?.size, 13, "replaced by the output")
    // A key cropjob wrote, replaced by someone else since: not replaced by a forced run.
    try server().client(["put", Self.bucket, "guard/t/bridge-32.jpg", foreign])
    let forced = try s.run(["run", "job.yaml", "-q", "--force"] + target, environment: env)
    XCTAssertEqual(forced.status, 1, forced.stderr)
    XCTAssertTrue(
      forced.stderr.contains("s3://\(Self.bucket)/guard/t/bridge-32.jpg: holds an object cropjob did not write"),
      forced.stderr)
    XCTAssertEqual(try listed("guard/t/")["guard/t/bridge-32.jpg"]?.size, 13, "the foreign object is kept")
    // A deleted source: its outputs are kept, then pruned with --prune; the foreign key stays.
    try FileManager.default.removeItem(atPath: s.path("photos/astronaut.jpg"))
    let kept = try s.run(["run", "job.yaml", "-q"] + target, environment: env)
    XCTAssertNotNil(try listed("guard/t/")["guard/t/astronaut-64.jpg"], kept.stderr)
    let pruned = try s.run(["run", "job.yaml", "-q", "--prune"] + target, environment: env)
    let left = try listed("guard/t/")
    XCTAssertNil(left["guard/t/astronaut-64.jpg"], pruned.stderr)
    XCTAssertNil(left["guard/t/astronaut-32.jpg"], pruned.stderr)
    XCTAssertNotNil(left["guard/t/notes.txt"], "a key cropjob did not write is never pruned")
    XCTAssertNotNil(left["guard/t/bridge-32.jpg"])
  }

  /// Every run is a fresh worker (its state folder is made for it and removed after): the
  /// second run finds the state in the prefix and makes only the listing's request and the
  /// state's GET, counted at the proxy. Nothing changed, so the state is not put back.
  func testFreshWorkerNoOpMakesOnlyListingAndStateRequests() throws {
    let s = try job()
    defer { s.remove() }
    let proxy = try FaultProxy(upstreamPort: try server().service.port, plan: [:], folder: try server().folder)
    defer { proxy.stop() }
    let env = try environment(proxy.endpoint)
    let target = ["--output", "s3://\(Self.bucket)/pod"]
    let first = try s.run(["run", "job.yaml", "-q"] + target, environment: env)
    XCTAssertEqual(first.status, 0, first.stderr)
    let before = try proxy.stats()
    XCTAssertEqual(
      before.methods["PUT"], 6 + 1 + 3, "6 outputs, the manifest, the state when opened, claimed and at the end")
    let again = try s.run(["run", "job.yaml", "--json"] + target, environment: env)
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(CLIJob.events(again.stdout).last?["upToDate"] as? Int, 6)
    let after = try proxy.stats()
    XCTAssertEqual(after.methods["GET", default: 0] - before.methods["GET", default: 0], 2, "one LIST, one state GET")
    XCTAssertEqual(after.methods["PUT", default: 0] - before.methods["PUT", default: 0], 0, "the state is unchanged")
    XCTAssertEqual(after.requests - before.requests, 2, "\(after.methods)")
  }

  /// kill -9 while outputs are being put, then a run again: the outputs and the manifest are
  /// those of one clean run. The upload interval is longer than the run: what protects the
  /// outputs put before the kill is the state put with the window's claims (a key claimed
  /// is cropjob's, rewritten without asking).
  func testKilledRunThenRunAgainEqualsOneCleanRun() throws {
    let s = try job()
    defer { s.remove() }
    try s.copySamples(["astronaut.jpg", "bridge.jpg", "cat.png"], into: "photos", copies: 3)
    let clean = try s.run(["run", "job.yaml", "-q"])
    XCTAssertEqual(clean.status, 0, clean.stderr)
    // Every request held 0.4 s at the proxy: the run is still putting outputs when killed.
    let proxy = try FaultProxy(
      upstreamPort: try server().service.port, plan: ["slow": ["every": 1, "seconds": 0.4]], folder: try server().folder
    )
    defer { proxy.stop() }
    var env = try environment(proxy.endpoint)
    env["CROPJOB_STATE_UPLOAD_INTERVAL"] = "30"
    env["CROPJOB_STATE_BATCH"] = "1"
    let target = ["--output", "s3://\(Self.bucket)/killed"]
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["run", "job.yaml", "-q", "-j2"] + target
    process.currentDirectoryURL = s.folder
    process.environment = CLIJob.environment(env)
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    // Killed once the state (opening, claims) and two outputs are put, as the proxy counts.
    while Date() < deadline, process.isRunning, (try? proxy.stats().methods["PUT"]) ?? 0 < 4 { usleep(10_000) }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let putBefore = try listed("killed/t/").count
    XCTAssertLessThan(putBefore, 24, "killed before the end")
    let again = try s.run(["run", "job.yaml", "-q"] + target, environment: try environment())
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(try outputs("killed"), try md5s(s.path("out")))
    let manifest = s.path("manifest-killed.json")
    try server().client(["get", Self.bucket, "killed/cropjob-manifest.json", manifest])
    XCTAssertEqual(
      FileManager.default.contents(atPath: manifest),
      FileManager.default.contents(atPath: s.path("out/cropjob-manifest.json")))
  }
}
