import Foundation
import TestSupport
import XCTest

/// `preview --quick` decodes less (README, "preview"): smart focus found on the tile-size
/// decode instead of one made as `run` makes it. Seen from outside cropjob: the peak memory
/// (`/usr/bin/time -f %M`) of a sheet of an 8000×6000 photo under a 2000 px smart-focus output,
/// whose run decode is shrunk by 2 on load (4000×3000, 36 MB of pixels) and whose tile decode
/// by 8 (1000×750, 2.25 MB), is lower by at least the difference's half.
final class PreviewQuickTests: XCTestCase {
  static let time = "/usr/bin/time"

  func peakKilobytes(_ s: CLIJob, _ arguments: [String]) throws -> Int {
    let result = try TimedRunner.run(
      ["preview", "job.yaml"] + arguments, cwd: s.folder, timeout: 120, wrapper: [Self.time, "-f", "peak %M"])
    XCTAssertEqual(result.exitCode, 0, result.combined)
    let line = try XCTUnwrap(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }, result.stderr)
    return try XCTUnwrap(Int(line.dropFirst(5)), String(line))
  }

  func testQuickPreviewDecodesThePhotoSmaller() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.time) else {
      return XCTFail("\(Self.time) is not installed (scripts/install-deps.sh installs time)")
    }
    let s = CLIJob()
    defer { s.remove() }
    try FileManager.default.createDirectory(atPath: s.path("photos"), withIntermediateDirectories: true)
    let made = try Subprocess.run(
      "/usr/bin/vips",
      [
        "resize", TestPaths.repoRoot.appendingPathComponent("samples/mountains.jpg").path, s.path("photos/big.jpg"),
        "5",
      ])
    XCTAssertEqual(made.status, 0, made.stderr)
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/big.jpg"]
          guide: {shape: square, size: 2000}
          place: {fit: cover, focus: attention}
          outputs: [{path: "{stem}.jpg"}]
      """)
    let full = try peakKilobytes(s, ["--out", "full"])
    let quick = try peakKilobytes(s, ["--out", "quick", "--quick"])
    print("preview peak RSS: \(full) kB as the run decodes, \(quick) kB with --quick")
    XCTAssertLessThan(quick, full - 18_000, "--quick did not decode the photo smaller")
  }
}
