import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Issue 15: JPEGs decoded by libjpeg-turbo directly (docs/decoding.md) give what the libvips
/// path gives, fail on damage as it does, and the JPEGs the direct path does not take (CMYK,
/// non-sRGB profiles) still go through libvips.
final class JPEGDirectDecodeTests: XCTestCase {
  /// Test JPEGs made by Pillow and libvips from the samples: progressive, greyscale, two sRGB
  /// profiles (libvips' own and LittleCMS's built-in, through Pillow), Display P3, CMYK.
  func makeVariants(in folder: URL, python: String) throws -> [String: String] {
    let source = TestPaths.sample("ladybird.jpg")
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    try tool("/usr/bin/vips", ["icc_transform", source, path("srgb-vips.jpg") + "[Q=92]", "srgb"])
    try tool("/usr/bin/vips", ["icc_transform", source, path("p3.jpg") + "[Q=92]", "p3"])
    let script = """
      import sys, io
      from PIL import Image, ImageCms
      src = Image.open(sys.argv[1]).convert("RGB")
      out = sys.argv[2]
      src.save(out + "/progressive.jpg", quality=90, progressive=True)
      src.convert("L").save(out + "/grey.jpg", quality=90)
      src.convert("CMYK").save(out + "/cmyk.jpg", quality=90)
      srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
      src.save(out + "/srgb-lcms.jpg", quality=90, icc_profile=srgb)
      """
    try tool(python, ["-c", script, source, folder.path])
    return [
      "progressive": path("progressive.jpg"), "grey": path("grey.jpg"), "cmyk": path("cmyk.jpg"),
      "srgb-lcms": path("srgb-lcms.jpg"), "srgb-vips": path("srgb-vips.jpg"), "p3": path("p3.jpg"),
    ]
  }

  /// Decodes `path` both ways at `shrink`; returns the two rasters and who decoded each.
  func decodeBothWays(_ path: String, shrink: Int) throws -> (direct: DecodedSource, vips: DecodedSource) {
    let header = try SourceHeader.read(path: path)
    let direct = try DecodedSource.decode(path: path, header: header, shrink: shrink, jpegDecoder: .auto)
    let vips = try DecodedSource.decode(path: path, header: header, shrink: shrink, jpegDecoder: .libvips)
    XCTAssertEqual(vips.decodedBy, .libvips, path)
    return (direct, vips)
  }

  /// Largest and mean absolute difference of each pair of rasters (of one size), measured by
  /// numpy in one call.
  func differences(_ pairs: [(Raster, Raster)], folder: URL, python: String) throws -> [(max: Double, mean: Double)] {
    var arguments: [String] = []
    for (i, (a, b)) in pairs.enumerated() {
      XCTAssertEqual([a.width, a.height, a.bands], [b.width, b.height, b.bands], "pair \(i)")
      for (tag, raster) in [("a", a), ("b", b)] {
        let file = folder.appendingPathComponent("\(tag)\(i).raw")
        try Data(raster.pixels).write(to: file)
        arguments.append(file.path)
      }
    }
    let script = """
      import sys
      import numpy as np
      files = sys.argv[1:]
      for a, b in zip(files[0::2], files[1::2]):
          d = np.abs(np.fromfile(a, dtype=np.uint8).astype(int) - np.fromfile(b, dtype=np.uint8).astype(int))
          print(d.max(), d.mean())
      """
    let lines = try tool(python, ["-c", script] + arguments).split(separator: "\n")
    XCTAssertEqual(lines.count, pairs.count)
    return lines.map { line in
      let fields = line.split(separator: " ").compactMap { Double($0) }
      return fields.count == 2 ? (fields[0], fields[1]) : (.infinity, .infinity)
    }
  }

  /// Every sample JPEG (four of them stored sideways), a progressive and a greyscale one, at
  /// every shrink-on-load factor: decoded directly, and identical to libvips' decode within
  /// rounding (stated tolerance: max 1, mean 0.02 per channel; measured 0 and 0, both use
  /// libjpeg-turbo's ISLOW DCT and fancy upsampling). sRGB-tagged ones too, where libvips
  /// converts through the profile: max 3, mean 0.5.
  func testEligibleJPEGsDecodeDirectlyAndMatchLibvipsWithinRounding() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let variants = try makeVariants(in: folder, python: python)
    let samples = try FileManager.default.contentsOfDirectory(atPath: TestPaths.samples.path).filter {
      $0.hasSuffix(".jpg")
    }.sorted().map(TestPaths.sample)
    XCTAssertGreaterThanOrEqual(samples.count, 10)
    let untagged = samples + [variants["progressive"]!, variants["grey"]!]
    let tagged = [variants["srgb-lcms"]!, variants["srgb-vips"]!]
    var pairs: [(Raster, Raster)] = []
    var cases: [(path: String, shrink: Int)] = []
    for path in untagged + tagged {
      // Full size for the small variants; the phone-size samples at the factors runs use.
      for shrink in path.hasPrefix(folder.path) ? [1, 2, 4, 8] : [2, 4, 8] {
        let (direct, vips) = try decodeBothWays(path, shrink: shrink)
        XCTAssertEqual(direct.decodedBy, .auto, "\(path) was not decoded directly")
        XCTAssertEqual(direct.toDecoded, vips.toDecoded, path)
        pairs.append((try direct.raster(), try vips.raster()))
        cases.append((path, shrink))
      }
    }
    for ((path, shrink), (largest, mean)) in zip(cases, try differences(pairs, folder: folder, python: python)) {
      let limits = tagged.contains(path) ? (3.0, 0.5) : (1.0, 0.02)
      XCTAssertLessThanOrEqual(largest, limits.0, "\(path) at 1/\(shrink)")
      XCTAssertLessThanOrEqual(mean, limits.1, "\(path) at 1/\(shrink)")
      if tagged.contains(path) {
        print("sRGB-tagged \((path as NSString).lastPathComponent) 1/\(shrink): max \(largest), mean \(mean)")
      }
    }
  }

  /// CMYK and Display P3 JPEGs go to libvips, which converts them to sRGB: the P3 one is
  /// checked against LittleCMS through Pillow (its colours differ from the untagged numbers
  /// by ~5/255, so a decode that ignored the profile fails), the CMYK one against Pillow's
  /// conversion of the same CMYK numbers (a loose bound: libvips converts through its CMYK
  /// profile, Pillow by formula; a YCCK/CMYK decode read as YCbCr is off by ~100).
  func testCMYKAndNonSRGBProfilesGoThroughLibvipsAndComeOutRight() throws {
    guard let python = TestPaths.python else { throw Skipped.because("no /usr/bin/python3") }
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let variants = try makeVariants(in: folder, python: python)
    for (name, bound) in [("p3", 1.5), ("cmyk", 25.0)] {
      let path = variants[name]!
      let header = try SourceHeader.read(path: path)
      let decoded = try DecodedSource.decode(path: path, header: header, shrink: 1, jpegDecoder: .auto)
      XCTAssertEqual(decoded.decodedBy, .libvips, name)
      let raster = try decoded.raster()
      XCTAssertEqual(raster.bands, 3, name)
      let out = folder.appendingPathComponent("\(name).raw")
      try Data(raster.pixels).write(to: out)
      let script = """
        import sys, io
        import numpy as np
        from PIL import Image, ImageCms
        src = Image.open(sys.argv[1]); src.load()
        icc = src.info.get("icc_profile")
        if icc:
            expect = ImageCms.profileToProfile(
                src, ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("sRGB"), renderingIntent=0,
                outputMode="RGB")
        else:
            expect = src.convert("RGB")
        got = np.fromfile(sys.argv[2], dtype=np.uint8).reshape(src.height, src.width, 3).astype(float)
        print(np.abs(got - np.asarray(expect, dtype=float)).mean())
        """
      let mean = try XCTUnwrap(
        Double(try tool(python, ["-c", script, path, out.path]).trimmingCharacters(in: .whitespacesAndNewlines)))
      XCTAssertLessThanOrEqual(mean, bound, name)
    }
  }

  /// A truncated JPEG (the direct path takes its header) fails with libjpeg's warning and the
  /// file's name; so does every fuzz-found JPEG of the jpeg-decoder corpus that libvips refuses
  /// (and two it lets through, whose junk libjpeg-turbo warns about when it reads to the end).
  func testDamagedJPEGsFailOnTheDirectPathNamingTheFile() throws {
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sample("kite.jpg")))
    let cut = folder.appendingPathComponent("cut.jpg")
    try whole.prefix(whole.count / 3).write(to: cut)
    let header = try SourceHeader.read(path: cut.path)
    XCTAssertThrowsError(try DecodedSource.decode(path: cut.path, header: header, shrink: 1, jpegDecoder: .auto)) {
      let text = "\($0)"
      XCTAssertTrue(text.contains(cut.path), text)
      XCTAssertTrue(text.contains("Premature end of JPEG file"), text)
    }
    var refusedByVips = 0
    for file in Corpora.imageFiles() where file.folder == "jpeg-decoder" {
      // Those whose header libvips refuses never reach a decode.
      guard let header = try? SourceHeader.read(path: file.path), header.format == .jpeg else { continue }
      let viaVips = Result {
        try DecodedSource.decode(path: file.path, header: header, shrink: 1, jpegDecoder: .libvips)
      }
      let direct = Result { try DecodedSource.decode(path: file.path, header: header, shrink: 1, jpegDecoder: .auto) }
      if case .failure = viaVips {
        guard case .failure(let error) = direct else {
          XCTFail("\(file.name): refused by libvips, decoded directly")
          continue
        }
        XCTAssertTrue("\(error)".contains(file.path), "\(error)")
        refusedByVips += 1
      }
    }
    // The branch this test exists for: damaged files that reach a decode and that libvips refuses.
    XCTAssertGreaterThan(refusedByVips, 0, "no file of the corpus took the refused-by-libvips branch")
    print("jpeg-decoder corpus: \(refusedByVips) damaged JPEGs refused by libvips, each refused directly too")
  }
}
