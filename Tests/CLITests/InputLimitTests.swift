import CropKit
import Foundation
import TestSupport
import XCTest

/// Input limits (pixels, file bytes, pages), from the job file and from the command line,
/// checked from headers before any pixel is decoded (docs/reliability.md, "Input limits").
final class InputLimitTests: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws {
    folder = try TimedRunner.openFolder("limits")
    let photos = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for name in ["kite.jpg", "cat.png"] {
      try FileManager.default.copyItem(
        atPath: TestPaths.repoRoot.appendingPathComponent("samples/\(name)").path,
        toPath: photos.appendingPathComponent(name).path)
    }
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: folder)
  }

  func job(limits: String = "", sources: String = #"["photos/*"]"#) throws -> String {
    let text = """
      version: 1
      output: out
      \(limits)
      jobs:
        thumb:
          sources: \(sources)
          guide: {shape: square, size: 32}
          outputs: [{path: "{stem}.png"}]
      """
    let path = folder.appendingPathComponent("job-\(UUID().uuidString.prefix(6)).yaml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// (exit status, failures by source file name, stdout+stderr).
  func run(_ job: String, _ extra: [String] = []) throws -> (Int32?, [String: String], String) {
    let result = try TimedRunner.run(["run", job, "--json"] + extra, cwd: folder, timeout: 60)
    XCTAssertFalse(result.timedOut)
    var failures: [String: String] = [:]
    for failure in (TimedRunner.finished(result.stdout)?["failures"] as? [[String: Any]]) ?? [] {
      failures[PathText.lastComponent(failure["source"] as? String ?? "")] = failure["reason"] as? String
    }
    return (result.exitCode, failures, result.combined)
  }

  func header(_ name: String) throws -> SourceHeader {
    try SourceHeader.read(path: folder.appendingPathComponent("photos/\(name)").path)
  }

  func testMaxPixelsFromJobFileAndCommandLine() throws {
    let kite = try header("kite.jpg")
    let cat = try header("cat.png")
    let small = min(kite.width * kite.height, cat.width * cat.height)
    let large = max(kite.width * kite.height, cat.width * cat.height)
    let bigName = kite.width * kite.height == large ? "kite.jpg" : "cat.png"
    // Job file: the larger photo is refused by name, the other is written.
    let limited = try job(limits: "limits: {max_pixels: \(small)}")
    var (status, failures, output) = try run(limited)
    XCTAssertEqual(status, 1, output)
    XCTAssertEqual(Array(failures.keys), [bigName], output)
    XCTAssertTrue(failures[bigName]?.contains("limits.max_pixels") ?? false, output)
    XCTAssertTrue(failures[bigName]?.contains("\(large) pixels") ?? false, output)
    // The command line overrides the job file, both ways.
    (status, failures, output) = try run(limited, ["--max-pixels", "\(large)", "--force"])
    XCTAssertEqual(status, 0, output)
    (status, failures, output) = try run(try job(), ["--max-pixels", "\(small)", "--force"])
    XCTAssertEqual(status, 1, output)
    XCTAssertEqual(Array(failures.keys), [bigName], output)
    // Invalid values are located errors / usage errors.
    let invalid = try job(limits: "limits: {max_pixels: 0}")
    (status, _, output) = try run(invalid)
    XCTAssertEqual(status, 2, output)
    XCTAssertTrue(output.contains("limits.max_pixels"), output)
    (status, _, output) = try run(try job(), ["--max-pixels", "-5"])
    XCTAssertEqual(status, 64, output)
  }

  func testMaxFileBytesFromJobFileAndCommandLine() throws {
    let kiteBytes =
      try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("photos/kite.jpg").path)[.size]
      as! Int
    let catBytes =
      try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("photos/cat.png").path)[.size]
      as! Int
    let limit = min(kiteBytes, catBytes)
    let bigName = kiteBytes > catBytes ? "kite.jpg" : "cat.png"
    var (status, failures, output) = try run(try job(limits: "limits: {max_file_bytes: \(limit)}"))
    XCTAssertEqual(status, 1, output)
    XCTAssertEqual(Array(failures.keys), [bigName], output)
    XCTAssertTrue(failures[bigName]?.contains("limits.max_file_bytes") ?? false, output)
    (status, failures, output) = try run(try job(), ["--max-file-bytes", "\(limit)"])
    XCTAssertEqual(status, 1, output)
    XCTAssertEqual(Array(failures.keys), [bigName], output)
    (status, _, output) = try run(
      try job(limits: "limits: {max_file_bytes: \(limit)}"), ["--max-file-bytes", "\(max(kiteBytes, catBytes))"])
    XCTAssertEqual(status, 0, output)
  }

  func testMaxPagesFromJobFileAndCommandLine() throws {
    let python = "/usr/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else { throw Skipped.because("python3 missing") }
    // A 5-frame GIF made with PIL.
    let gif = folder.appendingPathComponent("photos/frames.gif").path
    let made = Subprocess.succeeds(
      python,
      [
        "-c",
        "import sys; from PIL import Image; fr=[Image.new('RGB',(40,30),(i*50,0,0)) for i in range(5)]; fr[0].save(sys.argv[1], save_all=True, append_images=fr[1:])",
        gif,
      ])
    guard made else { throw Skipped.because("python3-pil missing") }
    XCTAssertEqual(try header("frames.gif").pages, 5)
    var (status, failures, output) = try run(try job(limits: "limits: {max_pages: 4}"))
    XCTAssertEqual(status, 1, output)
    XCTAssertEqual(Array(failures.keys), ["frames.gif"], output)
    XCTAssertTrue(failures["frames.gif"]?.contains("limits.max_pages") ?? false, output)
    (status, failures, output) = try run(try job(), ["--max-pages", "4"])
    XCTAssertEqual(Array(failures.keys), ["frames.gif"], output)
    (status, _, output) = try run(try job(limits: "limits: {max_pages: 4}"), ["--max-pages", "5"])
    XCTAssertEqual(status, 0, output)
  }

  /// A 30000x30000 PNG of under a megabyte (900 million pixels, libvips would need about
  /// 900 MB to crop its corner) is refused by the default limit from its header, at once and
  /// without allocating.
  func testPixelBombIsRefusedFromItsHeaderQuickly() throws {
    let cache = URL(fileURLWithPath: "/tmp/cropjob-test-cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    let bomb = cache.appendingPathComponent("black-30000x30000.png")
    if !FileManager.default.fileExists(atPath: bomb.path) {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vips") else {
        throw Skipped.because("libvips-tools missing")
      }
      let partial = cache.appendingPathComponent("black-\(getpid()).png")
      try tool("/usr/bin/vips", ["black", partial.path + "[compression=9]", "30000", "30000"])
      _ = rename(partial.path, bomb.path)
    }
    let size = try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as! Int
    XCTAssertLessThan(size, 1_500_000)
    try FileManager.default.copyItem(atPath: bomb.path, toPath: folder.appendingPathComponent("photos/bomb.png").path)
    XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time is not installed")
    let wrapper = ["/usr/bin/time", "-f", "maxrss-kb %M cpu %U %S"]
    let result = try TimedRunner.run(["run", try job(), "--json"], cwd: folder, timeout: 30, wrapper: wrapper)
    XCTAssertEqual(result.exitCode, 1, result.combined)
    // A hang guard (a decoded bomb takes minutes), not a speed assertion: the machine is shared.
    XCTAssertLessThan(result.seconds, 20, "took \(result.seconds) s")
    let failures = (TimedRunner.finished(result.stdout)?["failures"] as? [[String: Any]]) ?? []
    XCTAssertEqual(failures.count, 1, result.combined)
    let reason = failures.first?["reason"] as? String ?? ""
    XCTAssertTrue(reason.contains("30000x30000") && reason.contains("limits.max_pixels"), reason)
    XCTAssertTrue((failures.first?["source"] as? String ?? "").hasSuffix("bomb.png"))
    // docs/reliability.md: "refused from its header in 0.2 s, 65 MB RSS" (decoding it: 15 s,
    // 2.7 GB), measured by /usr/bin/time: under 96 MB of peak RSS and under 2 s of CPU for the
    // whole run (the other two photos included), far from a decode's.
    let usage = result.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss-kb ") }?.split(separator: " ")
    let kb = usage.flatMap { Int($0[1]) } ?? .max
    let cpu = usage.map { fields in (Double(fields[3]) ?? .infinity) + (Double(fields[4]) ?? .infinity) } ?? .infinity
    print("pixel bomb: peak RSS \(kb) kB, \(cpu) s of CPU")
    XCTAssertLessThan(kb, 96_000, "peak RSS \(kb) kB")
    XCTAssertLessThan(cpu, 2, "\(cpu) s of CPU")
    // The other photos were written.
    XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/kite.png").path))
    // Raising the limit would let it through: the refusal is the limit's doing (plan only).
    let plan = try TimedRunner.run(["plan", try job(), "--max-pixels", "900000000"], cwd: folder, timeout: 30)
    XCTAssertEqual(plan.exitCode, 0, plan.combined)
  }
}
