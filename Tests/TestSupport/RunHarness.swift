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

  public func writeJob(_ text: String) throws {
    try text.write(toFile: jobPath, atomically: true, encoding: .utf8)
  }

  public func remove() { try? FileManager.default.removeItem(at: folder) }
}
