import CropKit
import Foundation
import TestSupport
import XCTest

extension XCTestCase {
  /// The manifest a run wrote into `harness`'s output root.
  package func manifest(_ harness: RunHarness) throws -> Manifest {
    let data = try Data(
      contentsOf: URL(fileURLWithPath: harness.outputRoot).appendingPathComponent("cropjob-manifest.json"))
    return try JSONDecoder().decode(Manifest.self, from: data)
  }
}
