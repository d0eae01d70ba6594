import Foundation
import TestSupport
import XCTest

/// Every job file in jobs/ runs (not only plans): each exits 0, and Pillow (an independent
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
    let scratch = CLIJob().folder
    defer { try? FileManager.default.removeItem(at: scratch) }
    for name in files {
      let root = scratch.appendingPathComponent(name).path
      let run = try CLIRunner.run(["run", "jobs/\(name)", "--output", root, "--quiet", "--jobs", "2"])
      XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
      let report = try tool(python, ["-c", Self.checker, root]).split(separator: "\n").map(String.init)
      XCTAssertEqual(report.filter { !$0.hasPrefix("checked ") }, [String](), name)
      let checked = Int(report.last?.split(separator: " ").last ?? "") ?? 0
      XCTAssertGreaterThan(checked, 0, "\(name) wrote nothing")
      let rows = try assertStateMatchesFiles(root: root, jobFolder: jobs.path)
      XCTAssertEqual(rows.count, checked, "\(name): state rows vs manifest entries")
      print("jobs/\(name): \(checked) outputs checked")
    }
  }
}
