import Foundation

/// A helper program of Tests/S3 running on 127.0.0.1: started with its standard input on a
/// pipe, it prints the port it listens on and serves until that pipe closes (`stop()`, or
/// this process ending in any way, so no server outlives its test).
public final class LoopbackService: @unchecked Sendable {
  public let port: Int
  private let process: Process
  private let input: Pipe

  /// Starts `/usr/bin/python3 Tests/S3/<script> <arguments>` and waits (at most 60 s) for
  /// its port. What it writes to standard error goes to `log`.
  public init(script: String, arguments: [String], log: URL) throws {
    guard let python = TestPaths.python else { throw ServiceError("no /usr/bin/python3: run scripts/install-deps.sh") }
    process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [TestPaths.repoRoot.appendingPathComponent("Tests/S3/\(script)").path] + arguments
    // moto runs boto3 inside: a developer's AWS settings (AWS_PROFILE above all) must not reach it.
    process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") }
    input = Pipe()
    let output = Pipe()
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.standardInput = input
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    var line = Data()
    let deadline = Date().addingTimeInterval(60)
    while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }  // The program ended.
      line += chunk
    }
    guard let text = String(data: line, encoding: .utf8),
      let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      process.terminate()
      let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw ServiceError("\(script) did not start (is moto[server] installed? run scripts/install-deps.sh): \(errors)")
    }
    self.port = port
  }

  /// Closes the service's input and waits for it to end.
  public func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { process.terminate() }
  }

  deinit { stop() }

  public struct ServiceError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}

/// moto's S3 server (PyPI moto[server], pinned in scripts/install-deps.sh) on loopback, and
/// boto3 as the independent client to seed it and read it back. Missing moto or boto3 is a
/// failure, never a skip.
public final class MotoS3: @unchecked Sendable {
  public let service: LoopbackService
  public let folder: URL
  /// The credentials moto accepts before `setup-auth` (any), as the environment gives them.
  public static let environment = [
    "AWS_ACCESS_KEY_ID": "cropjob-test-id", "AWS_SECRET_ACCESS_KEY": "cropjob-test-secret-0123456789",
    "AWS_REGION": "us-east-1",
  ]

  public init(name: String = #function) throws {
    folder = TestPaths.scratch(name)
    service = try LoopbackService(
      script: "moto_server.py", arguments: [], log: folder.appendingPathComponent("moto.log"))
  }

  public var endpoint: String { "http://127.0.0.1:\(service.port)" }

  /// Runs Tests/S3/s3_client.py (boto3) against this server and decodes its JSON answer.
  /// `credentials` replace the test's (once `setup-auth` made moto check them).
  @discardableResult
  public func client(_ arguments: [String], credentials: (id: String, secret: String)? = nil) throws -> Any {
    var environment = Self.environment
    environment["AWS_CONFIG_FILE"] = "/dev/null"
    environment["AWS_SHARED_CREDENTIALS_FILE"] = "/dev/null"
    if let credentials {
      environment["AWS_ACCESS_KEY_ID"] = credentials.id
      environment["AWS_SECRET_ACCESS_KEY"] = credentials.secret
    }
    let result = try Subprocess.run(
      TestPaths.python ?? "/usr/bin/python3",
      [TestPaths.repoRoot.appendingPathComponent("Tests/S3/s3_client.py").path, endpoint] + arguments,
      environment: environment,
      // A developer's own AWS settings must not steer the test client.
      unset: ProcessInfo.processInfo.environment.keys.filter { $0.hasPrefix("AWS_") })
    guard result.status == 0 else {
      throw LoopbackService.ServiceError("s3_client.py \(arguments.joined(separator: " ")) failed: \(result.stderr)")
    }
    return try JSONSerialization.jsonObject(with: result.stdoutData, options: [.fragmentsAllowed])
  }

  public func stop() { service.stop() }
}

/// Tests/S3/fault_proxy.py in front of a server: injects faults by a plan and counts requests.
public final class FaultProxy: @unchecked Sendable {
  public let service: LoopbackService
  private let statsFile: URL
  private let usesTLS: Bool

  /// `plan` is the proxy's JSON plan (see fault_proxy.py); with `tls` (a PEM certificate and
  /// key) it speaks HTTPS.
  public init(upstreamPort: Int, plan: [String: Any], folder: URL, tls: (cert: String, key: String)? = nil) throws {
    usesTLS = tls != nil
    statsFile = folder.appendingPathComponent("proxy-stats-\(UUID().uuidString.prefix(6)).json")
    let planText = String(decoding: try JSONSerialization.data(withJSONObject: plan), as: UTF8.self)
    service = try LoopbackService(
      script: "fault_proxy.py",
      arguments: [String(upstreamPort), statsFile.path, planText] + (tls.map { [$0.cert, $0.key] } ?? []),
      log: folder.appendingPathComponent("proxy.log"))
  }

  public var endpoint: String { "\(tls ? "https" : "http")://127.0.0.1:\(service.port)" }
  private var tls: Bool { usesTLS }

  /// The proxy's counts so far.
  public struct Stats: Sendable {
    public var requests: Int
    public var methods: [String: Int]
    /// `methods` with the GETs that list (`list-type` in the query) counted as `LIST`.
    public var operations: [String: Int]
    public var faults: [String: Int]
    /// Requests passed on to the server (the faults that answer themselves are not).
    public var forwarded: Int
    /// Connections the proxy accepted.
    public var connections: Int
  }

  public func stats() throws -> Stats {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: statsFile)) as? [String: Any] ?? [:]
    return Stats(
      requests: object["requests"] as? Int ?? 0, methods: object["methods"] as? [String: Int] ?? [:],
      operations: object["operations"] as? [String: Int] ?? [:],
      faults: object["faults"] as? [String: Int] ?? [:], forwarded: object["forwarded"] as? Int ?? 0,
      connections: object["connections"] as? Int ?? 0)
  }

  public func stop() { service.stop() }
}
