import Foundation
import TestSupport
import XCTest

/// `run --jpeg-decoder` and its environment default `CROPJOB_JPEG_DECODER` (docs/cli.md,
/// "Settings and the environment"): a value each run takes, the flag winning. Observed through
/// a JPEG cut by 64 bytes, inside its last block row: libjpeg-turbo's direct decode reads to the
/// end and warns (the output fails), libvips' shrink-on-load never decodes those rows (the
/// output is written) — docs/reliability.md.
final class DecoderOptionTests: XCTestCase {
  func testTheFlagChoosesTheDecoderAndWinsOverTheEnvironment() throws {
    let s = CLIJob()
    defer { s.remove() }
    let bytes = try Data(contentsOf: TestPaths.repoRoot.appendingPathComponent("samples/bridge.jpg"))
    try FileManager.default.createDirectory(atPath: s.path("photos"), withIntermediateDirectories: true)
    try bytes.prefix(bytes.count - 64).write(to: URL(fileURLWithPath: s.path("photos/cut.jpg")))
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos"]
          guide: {shape: square, size: 64}
          outputs:
            - path: "{stem}.png"
      """)
    let cases: [(name: String, flag: [String], environment: [String: String], status: Int32)] = [
      ("default", [], [:], 1),
      ("flag", ["--jpeg-decoder", "libvips"], [:], 0),
      ("environment", [], ["CROPJOB_JPEG_DECODER": "libvips"], 0),
      ("both", ["--jpeg-decoder", "auto"], ["CROPJOB_JPEG_DECODER": "libvips"], 1),
    ]
    for (name, flag, environment, status) in cases {
      let result = try s.run(["run", "-q", "job.yaml", "--output", s.path(name)] + flag, environment: environment)
      XCTAssertEqual(result.status, status, "\(name): \(result.stderr)")
      XCTAssertEqual(
        FileManager.default.fileExists(atPath: s.path("\(name)/cut.png")), status == 0, "\(name): \(result.stderr)")
    }
  }
}
