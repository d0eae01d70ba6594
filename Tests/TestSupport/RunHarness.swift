import Foundation

/// A job file in a scratch folder with its own copies of some samples. Loading, planning
/// and running it are extensions in the targets that have the stages (RunSupport: through
/// `JobRun`, as `cropjob run`; PlanTests: the planner alone).
public struct RunHarness {
  public let folder: URL
  public var jobPath: String { folder.appendingPathComponent("job.yaml").path }
  public var outputRoot: String { folder.appendingPathComponent("out").path }

  /// Copies `samples` into `folder/photos` and writes `job.yaml` (which may refer to
  /// `photos/...` and should say `output: out`).
  public init(samples: [String], job: String, name: String = #function) throws {
    folder = TestPaths.scratch(name)
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for sample in samples {
      try FileManager.default.copyItem(
        atPath: TestPaths.sample(sample), toPath: photos.appendingPathComponent(sample).path)
    }
    try writeJob(job)
  }

  /// An empty scratch folder: `copySamples` and `writeJob` fill it.
  public init(name: String = #function) {
    folder = TestPaths.scratch(name)
  }

  /// A path below the scratch folder.
  public func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

  /// Every regular file below `relative` (path → bytes).
  public func tree(_ relative: String) throws -> [String: Data] { try treeContents(path(relative)) }

  /// Copies `samples` into `folder/<into>` `copies` times, prefixed `1-`, `2-`… when more
  /// than once (as `CLIJob.copySamples` does for the binary's tests).
  public func copySamples(_ samples: [String], into: String = "photos", copies: Int = 1) throws {
    let target = folder.appendingPathComponent(into)
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    for copy in 1...copies {
      for sample in samples {
        try FileManager.default.copyItem(
          atPath: TestPaths.sample(sample),
          toPath: target.appendingPathComponent(copies == 1 ? sample : "\(copy)-\(sample)").path)
      }
    }
  }

  public func writeJob(_ text: String) throws {
    try text.write(toFile: jobPath, atomically: true, encoding: .utf8)
  }

  public func remove() { try? FileManager.default.removeItem(at: folder) }
}
