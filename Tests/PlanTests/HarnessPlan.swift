import CropImaging
import CropPlan
import CropSpec
import TestSupport
import XCTest

/// A harness's job loaded and planned by the planner alone (headers read by libvips, as
/// `cropjob plan` reads them); running it is RunSupport's, for the targets that run jobs.
extension RunHarness {
  func load() throws -> JobFile {
    let result = JobFileLoader.load(path: jobPath)
    return try XCTUnwrap(
      result.jobFile, "job file invalid: \(result.diagnostics.map(\.description).joined(separator: "\n"))")
  }

  func plan(outputRoot: String? = nil) throws -> Plan {
    Planner(outputRoot: outputRoot).plan(try load())
  }
}
