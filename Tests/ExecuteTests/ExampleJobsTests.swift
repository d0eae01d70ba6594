import CropKit
import Foundation
import RunSupport
import TestSupport
import XCTest

/// Every job file in jobs/ runs (not only plans), in-process as `cropjob run` runs it: none
/// fails, and Pillow (an independent
/// decoder; libvips' vipsheader for the formats this Pillow cannot open) finds every output
/// the manifest lists, with the listed size, format, byte count and SHA-256, and no file the
/// manifest does not list but delivery indexes, whose candidates are listed outputs at their
/// listed sizes; sqlite3 and sha256sum agree with the state.
final class ExampleJobsTests: XCTestCase {
  static let checker = """
    import hashlib, json, os, subprocess, sys
    from PIL import Image
    root = sys.argv[1]
    manifest = json.load(open(os.path.join(root, "cropjob-manifest.json")))
    pillow_formats = {"jpeg": "JPEG", "png": "PNG", "webp": "WEBP", "tiff": "TIFF"}
    listed = set()
    sizes = {}
    for entry in manifest["outputs"]:
        path = os.path.join(root, entry["path"])
        listed.add(entry["path"])
        sizes[entry["path"]] = (entry["width"], entry["height"])
        data = open(path, "rb").read()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]: print("sha256", entry["path"])
        if len(data) != entry["bytes"]: print("bytes", entry["path"])
        if entry["format"] in pillow_formats:
            with Image.open(path) as image:
                image.load()
                size, kind = image.size, image.format
            if kind != pillow_formats[entry["format"]]: print("format", entry["path"], kind)
        else:
            fields = subprocess.run(["vipsheader", "-f", "width", path], capture_output=True, text=True).stdout
            height = subprocess.run(["vipsheader", "-f", "height", path], capture_output=True, text=True).stdout
            size = (int(fields), int(height))
        if size != (entry["width"], entry["height"]): print("size", entry["path"], size)
    for folder, _, files in os.walk(root):
        for name in files:
            relative = os.path.relpath(os.path.join(folder, name), root)
            if relative.startswith(".cropjob") or relative.startswith("cropjob-manifest"): continue
            if relative in listed: continue
            full = os.path.join(folder, name)
            head = open(full, "rb").read(1024)
            if name.endswith(".json") and b'"generator" : "cropjob index"' in head:
                # A delivery index: each candidate is a listed output at its listed size.
                for image in json.load(open(full))["images"]:
                    for group in image["formats"]:
                        for c in group["candidates"]:
                            if sizes.get(c["path"]) != (c["width"], c["height"]): print("index", relative, c["path"])
            elif not (name.endswith(".html") and b'content="cropjob index"' in head):
                print("unlisted", relative)
    print("checked", len(listed))
    """

  func testEveryJobInJobsRunsAndItsOutputsDecode() throws {
    let python = "/usr/bin/python3"
    let jobs = TestPaths.repoRoot.appendingPathComponent("jobs")
    let files = try FileManager.default.contentsOfDirectory(atPath: jobs.path).filter { $0.hasSuffix(".yaml") }.sorted()
    XCTAssertGreaterThanOrEqual(files.count, 5)
    let scratch = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: scratch) }
    for name in files {
      let root = scratch.appendingPathComponent(name).path
      JobRunner.run(jobs.appendingPathComponent(name).path, outputRoot: root)
      let report = try tool(python, ["-c", Self.checker, root]).split(separator: "\n").map(String.init)
      XCTAssertEqual(report.filter { !$0.hasPrefix("checked ") }, [String](), name)
      let checked = Int(report.last?.split(separator: " ").last ?? "") ?? 0
      XCTAssertGreaterThan(checked, 0, "\(name) wrote nothing")
      let rows = try assertStateMatchesFiles(root: root, jobFolder: jobs.path)
      XCTAssertEqual(rows.count, checked, "\(name): state rows vs manifest entries")
      print("jobs/\(name): \(checked) outputs checked")
    }
  }

  /// The pictures of jobs/placements.yaml (one job per placement feature), not only their
  /// sizes: the file is run as written but for its encode (JPEG at quality 100 without chroma
  /// subsampling, so that the encoder does not hide a placement error) and without its two
  /// smart-focus jobs (libvips' own search), and each output is compared with
  /// Tests/Oracle/placement_oracle.py's picture made from the job's numbers alone (as
  /// PlacementImageTests does): the exact size, and a mean |difference| of at most 2/255 a
  /// channel.
  func testPlacementsJobPicturesMatchTheOracle() throws {
    let python = try XCTUnwrap(TestPaths.python, "/usr/bin/python3 with Pillow, numpy and PyYAML is needed")
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let jobs = TestPaths.repoRoot.appendingPathComponent("jobs")
    let prepare = """
      import json, os, sys, yaml
      source, target, out = sys.argv[1:4]
      job = yaml.safe_load(open(source))
      base = os.path.dirname(source)
      job["output"] = out
      job["defaults"]["encode"] = {"format": "jpeg", "quality": 100, "subsample": "4:4:4"}
      for name in ("attention", "entropy"): del job["jobs"][name]
      for spec in job["jobs"].values():
          spec["sources"] = [os.path.normpath(os.path.join(base, s)) for s in spec["sources"]]
      open(target, "w").write(json.dumps(job))
      """
    let job = folder.appendingPathComponent("placements.yaml").path
    let out = folder.appendingPathComponent("out").path
    _ = try tool(python, ["-c", prepare, jobs.appendingPathComponent("placements.yaml").path, job, out])
    JobRunner.run(job)
    let cases = """
      import json, os, sys
      job, out, target = sys.argv[1:4]
      spec = json.load(open(job))
      manifest = json.load(open(os.path.join(out, "cropjob-manifest.json")))
      cases = []
      for entry in manifest["outputs"]:
          j = spec["jobs"][entry["job"]]
          # The job's source and output entry this file came from: by name and by extension.
          source = [s for s in j["sources"] if os.path.basename(s) == os.path.basename(entry["source"]["path"])]
          output = [o for o in j["outputs"] if os.path.splitext(o["path"])[1] == os.path.splitext(entry["path"])[1]]
          if len(source) != 1 or len(output) != 1: sys.exit("cannot match %s" % entry["path"])
          cases.append({"name": entry["path"], "source": source[0], "guide": j["guide"],
                        "place": j.get("place", {}), "output": output[0],
                        "actual": os.path.join(out, entry["path"])})
      json.dump({"cases": cases}, open(target, "w"))
      print(len(cases))
      """
    let casesPath = folder.appendingPathComponent("cases.json").path
    let count = Int(
      try tool(python, ["-c", cases, job, out, casesPath]).trimmingCharacters(in: .whitespacesAndNewlines))
    XCTAssertGreaterThanOrEqual(count ?? 0, 16, "placements.yaml's outputs")
    let oracle = try Subprocess.run(python, [TestPaths.oracle("placement_oracle.py"), casesPath])
    XCTAssertEqual(oracle.status, 0, oracle.stderr)
    let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: oracle.stdoutData) as? [[String: Any]])
    XCTAssertEqual(results.count, count)
    for r in results {
      let name = r["name"] as? String ?? "?"
      XCTAssertEqual(r["actual_size"] as? [Int], r["expected_size"] as? [Int], "\(name): output size")
      let means = (r["mean"] as? [Any] ?? []).map { ($0 as? Double) ?? .infinity }
      XCTAssertEqual(means.count, 4, "\(name): no figures: \(r)")
      print("placements.yaml \(name): mean |difference| \(means)")
      for (channel, mean) in zip(["R", "G", "B", "A"], means) {
        XCTAssertLessThanOrEqual(mean, 2.0, "\(name): mean |difference| of \(channel) is \(mean)/255")
      }
    }
  }
}
