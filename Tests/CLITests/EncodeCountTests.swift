import Foundation
import TestSupport
import XCTest

/// The manifest's `encodes` (which SearchBoundTests and BudgetShrinkTests hold to the
/// documented bounds) counted by an observer that is not cropjob: an `LD_PRELOAD` library
/// built here from C counts the JPEG files libjpeg finishes (`jpeg_finish_compress`, through
/// which every JPEG cropjob writes or tries passes) and writes the count when the process ends.
/// For JPEG outputs with a byte budget, a quality target and neither, the count is the sum of
/// the manifest's `encodes`.
final class EncodeCountTests: XCTestCase {
  static let shim = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <stdatomic.h>
    static atomic_long count;
    void jpeg_finish_compress(void *cinfo) {
      static void (*real)(void *);
      if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "jpeg_finish_compress");
      atomic_fetch_add(&count, 1);
      real(cinfo);
    }
    __attribute__((destructor)) static void report(void) {
      const char *path = getenv("CJ_COUNT_FILE");
      FILE *f = path ? fopen(path, "w") : NULL;
      if (f) { fprintf(f, "%ld\\n", (long)atomic_load(&count)); fclose(f); }
    }
    """

  func testJPEGEncodesCountedOutsideCropjobAreTheManifests() throws {
    let cc = "/usr/bin/cc"
    guard FileManager.default.isExecutableFile(atPath: cc) else {
      return XCTFail("\(cc) is not installed (the package's C targets need it too)")
    }
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples(["kite.jpg", "mountains.jpg", "cat.png"])
    try Self.shim.write(toFile: s.path("count.c"), atomically: true, encoding: .utf8)
    let built = try Subprocess.run(
      cc, ["-shared", "-fPIC", "-O2", "-o", s.path("count.so"), s.path("count.c"), "-ldl"])
    XCTAssertEqual(built.status, 0, built.stderr)
    try s.write(
      """
      version: 1
      output: out
      jobs:
        t:
          sources: ["photos/*"]
          guide: {width: 240, height: 160}
          outputs:
            - {path: "{stem}-target.jpg", encode: {quality: 95, min_quality: 5, target: {ssim: 0.95}}}
            - {path: "{stem}-budget.jpg", encode: {quality: 95, min_quality: 5, max_bytes: 5000}}
            - {path: "{stem}.jpg"}
      """)
    let run = try s.run(
      ["run", "job.yaml", "-q"], environment: ["LD_PRELOAD": s.path("count.so"), "CJ_COUNT_FILE": s.path("count.txt")])
    XCTAssertEqual(run.status, 0, run.stderr)
    let counted = Int(
      try String(contentsOfFile: s.path("count.txt"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
    let data = try Data(contentsOf: URL(fileURLWithPath: s.path("out/cropjob-manifest.json")))
    let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries = try XCTUnwrap(manifest["outputs"] as? [[String: Any]])
    XCTAssertEqual(entries.count, 9)
    let recorded = entries.reduce(0) { $0 + ($1["encodes"] as? Int ?? 0) }
    print("JPEG encodes: \(counted ?? -1) counted by the preloaded library, \(recorded) in the manifest")
    XCTAssertGreaterThan(recorded, 9 + 2 * 3, "the searches encoded more than once")
    XCTAssertEqual(counted, recorded)
  }
}
