import Foundation
import TestSupport
import XCTest

/// What the S3 source tests share: photos seeded into a bucket of a moto server on loopback
/// (boto3, the independent client) and the same files on disk, a job file reading either,
/// and `cropjob` run with the AWS settings of that server only (a developer's own never
/// reach it).
struct S3SourceJob {
  /// Small photos of `samples/`: a JPEG, a PNG, an EXIF-rotated JPEG (in a subfolder).
  static let photos = ["astronaut.jpg", "cat.png", "sub/portrait-sideways-8.jpg"]

  let moto: MotoS3
  let folder: URL
  /// The photos on disk (the same bytes as `s3://photos-in/in/`).
  let local: URL

  /// Starts moto and seeds `s3://photos-in/in/` and `local/` with `photos`.
  init(name: String) throws {
    moto = try MotoS3(name: name)
    folder = moto.folder
    local = folder.appendingPathComponent("local")
    for photo in Self.photos {
      let target = local.appendingPathComponent(photo)
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: TestPaths.repoRoot.appendingPathComponent("samples/" + PathTail.last(photo)), to: target)
    }
    try moto.client(["make-bucket", "photos-in"])
    try moto.client(["put-tree", "photos-in", "in/", local.path])
  }

  /// A job file reading `source` into `output`: two outputs per photo.
  func jobFile(_ name: String, source: String, output: String) throws -> URL {
    let url = folder.appendingPathComponent(name + ".yaml")
    try """
    version: 1
    output: \(output)
    jobs:
      thumbs:
        sources: ["\(source)"]
        guide: {shape: square, size: 96}
        outputs: [{path: "{dir}/{stem}.jpg"}, {path: "{dir}/{stem}.webp", encode: {quality: 60}}]

    """.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// The environment of a run against `endpoint` with `secret` (moto without its IAM
  /// checks takes any pair).
  func environment(endpoint: String, id: String? = nil, secret: String? = nil) -> [String: String] {
    var environment = MotoS3.environment
    environment["AWS_ENDPOINT_URL"] = endpoint
    environment["AWS_CONFIG_FILE"] = folder.appendingPathComponent("no-config").path
    environment["AWS_SHARED_CREDENTIALS_FILE"] = folder.appendingPathComponent("no-credentials").path
    if let id { environment["AWS_ACCESS_KEY_ID"] = id }
    if let secret { environment["AWS_SECRET_ACCESS_KEY"] = secret }
    return environment
  }

  /// `cropjob arguments` with only `environment`'s AWS settings.
  func cropjob(_ arguments: [String], environment: [String: String]) throws -> Subprocess.Result {
    try Subprocess.run(
      CLIRunner.binary.path, arguments, cwd: folder, environment: environment,
      unset: ProcessInfo.processInfo.environment.keys.filter { $0.hasPrefix("AWS_") })
  }

  /// Every file below `root` (relative path → bytes), the state folder left out.
  static func files(_ root: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      let relative = String(url.path.dropFirst(root.path.count + 1))
      guard !relative.hasPrefix(".cropjob"), let data = FileManager.default.contents(atPath: url.path),
        (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
      else { continue }
      result[relative] = data
    }
    return result
  }

  /// The manifest's text with the sources' paths and times made comparable: an S3 source's
  /// `s3://photos-in/in/` is written `local/`, and mtimes (a LastModified, a file's time)
  /// are left out.
  static func comparableManifest(_ data: Data?) -> String {
    let text = String(decoding: data ?? Data(), as: UTF8.self)
    return text.split(separator: "\n").filter { !$0.contains("\"mtime\"") }
      .map { $0.replacingOccurrences(of: "s3://photos-in/in/", with: "local/") }.joined(separator: "\n")
  }
}

enum PathTail {
  static func last(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
}
