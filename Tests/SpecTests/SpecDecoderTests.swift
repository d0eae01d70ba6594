import CropGeometry
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The job-file decoder: every field decoded, every diagnostic with its exact position.
final class SpecDecoderTests: XCTestCase {
  static let fixtures = TestPaths.fixtures
  static let allFormats = OutputFormat.allCases

  /// Parses and decodes `text` as `job.yaml` with the given writable formats (independent of
  /// this machine's libvips); diagnostics sorted as the loader sorts them.
  func decode(_ text: String, formats: [OutputFormat] = allFormats) -> (file: JobFile?, lines: [String]) {
    let root: YAMLNode?
    do {
      root = try YAMLParser.parse(text)
    } catch {
      return (nil, ["job.yaml:\(error.mark.line):\(error.mark.column): error: \(error.message)"])
    }
    var decoder = SpecDecoder(file: "job.yaml", formats: FormatAvailability { formats })
    let file = decoder.decode(root: root, path: "job.yaml")
    let diagnostics = decoder.reader.diagnostics.sortedByPosition()
    return (diagnostics.hasErrors ? nil : file, diagnostics.map(\.description))
  }

  /// The diagnostics of `text`, which must have errors.
  func errors(_ text: String, formats: [OutputFormat] = allFormats, file: StaticString = #filePath, line: UInt = #line)
    -> [String]
  {
    let result = decode(text, formats: formats)
    XCTAssertNil(result.file, "expected errors", file: file, line: line)
    return result.lines
  }

  /// The decoded file of `text`, which must have no errors (warnings are returned).
  func valid(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> (JobFile, [String]) {
    let result = decode(text)
    let decoded = try XCTUnwrap(result.file, "unexpected errors: \(result.lines)", file: file, line: line)
    return (decoded, result.lines)
  }

  /// A minimal valid file with `job` lines (indented by four) as job `a`.
  func job(_ lines: String, extra: String = "") -> String {
    "version: 1\noutput: out\n\(extra)jobs:\n  a:\n"
      + lines.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "    " + $0 }.joined(separator: "\n") + "\n"
  }

  // MARK: - Every field

  func testEveryFieldOfTheEverythingFixtureIsDecoded() throws {
    let path = Self.fixtures.appendingPathComponent("valid/everything.yaml").path
    let result = JobFileLoader.load(path: path)
    XCTAssertEqual(result.diagnostics.map(\.description), [])
    let file = try XCTUnwrap(result.jobFile)
    XCTAssertEqual(file.version, 1)
    XCTAssertEqual(file.outputRoot, "out/everything")
    XCTAssertEqual(file.baseDirectory, Self.fixtures.appendingPathComponent("valid").path)
    XCTAssertEqual(file.limits.maxPixels, 50_000_000)
    XCTAssertEqual(file.limits.maxFileBytes, 10_000_000)
    XCTAssertEqual(file.limits.maxPages, 5)
    XCTAssertEqual(file.jobs.map(\.name), ["banner", "avatar", "thumb"])

    let banner = file.jobs[0]
    XCTAssertEqual(banner.input, .sources(include: ["photos/**/*.jpg", "extra/one.png"], exclude: ["*-draft.*"]))
    XCTAssertEqual(file.jobs.map(\.allowEmpty), [false, true, false])
    XCTAssertEqual(banner.guide, Guide(shape: .rect, size: PixelSize(width: 1600, height: 900)))
    var place = PlaceSpec()
    place.fit = .contain
    place.zoom = 1.5
    place.offset = Point(x: 10, y: -20)
    place.focus = .point(Point(x: 0.25, y: 0.75))
    place.rotate = -2.5
    place.flipHorizontal = true
    place.overflow = .fill
    place.background = [0x33, 0x66, 0x99, 255]
    place.upscale = false
    XCTAssertEqual(banner.place, place)
    XCTAssertEqual(banner.outputs.count, 3)
    let jpeg = banner.outputs[0]
    XCTAssertEqual(jpeg.pathTemplate, "banners/{stem}-{width}x{height}.jpg")
    XCTAssertEqual(jpeg.sizes, .widths([640, 1280]))
    XCTAssertEqual(jpeg.encode.options.format, .jpeg)
    XCTAssertEqual(jpeg.encode.options.quality, 82)
    XCTAssertEqual(jpeg.encode.options.progressive, true)
    XCTAssertEqual(jpeg.encode.options.chromaSubsampling, false)
    XCTAssertEqual(jpeg.encode.options.effort, 5, "inherited from defaults")
    XCTAssertEqual(jpeg.encode.maxBytes, 200_000)
    XCTAssertEqual(jpeg.encode.minQuality, 40)
    XCTAssertEqual(jpeg.encode.overBudget, .shrink)
    XCTAssertEqual(jpeg.encode.colour, .keep)
    XCTAssertEqual(jpeg.encode.frames, .first, "the job's frames: all leaves a still format at the first frame")
    XCTAssertEqual(jpeg.metadata, .strip)
    XCTAssertEqual(jpeg.cacheControl, "public, max-age=31536000, immutable")
    XCTAssertNil(banner.outputs[1].cacheControl)
    let png = banner.outputs[1]
    XCTAssertEqual(png.sizes, .scales([0.5, 1]))
    XCTAssertEqual(png.encode.options.format, .png, "the extension wins over the inherited webp")
    XCTAssertEqual(png.encode.options.compression, 9)
    XCTAssertEqual(png.encode.options.palette, true)
    XCTAssertEqual(png.encode.options.quality, 90)
    XCTAssertEqual(png.metadata, .keep)
    let webp = banner.outputs[2]
    XCTAssertEqual(webp.sizes, .widths([320]))
    XCTAssertEqual(webp.encode.options.format, .webp)
    XCTAssertEqual(webp.encode.options.lossless, true)
    XCTAssertEqual(webp.encode.options.effort, 6)
    XCTAssertEqual(webp.encode.options.quality, 75, "the job's encode over the defaults'")
    XCTAssertNil(webp.encode.maxBytes)
    XCTAssertEqual(webp.encode.minQuality, 30)
    XCTAssertEqual(webp.encode.overBudget, .fail)
    XCTAssertEqual(webp.encode.colour, .srgb)
    XCTAssertEqual(webp.encode.frames, .all, "inherited from the job's encode: WebP animates")

    let avatar = file.jobs[1]
    XCTAssertEqual(avatar.input, .sources(include: ["people"], exclude: []))
    XCTAssertEqual(avatar.guide, Guide(shape: .circle, size: PixelSize(width: 256, height: 256)))
    XCTAssertEqual(avatar.place.fit, .cover)
    XCTAssertEqual(avatar.place.focus, .search(FocusSearch(finders: [.regions, .faces], fallback: .named(.top))))
    XCTAssertEqual(avatar.place.facePadding, 0.5)
    XCTAssertEqual(avatar.place.regionTypes, [.face, .pet])
    XCTAssertEqual(avatar.place.flipHorizontal, true)
    XCTAssertEqual(avatar.place.flipVertical, true)
    XCTAssertEqual(avatar.place.overflow, .fill, "from defaults")
    XCTAssertEqual(avatar.place.upscale, false, "from defaults")
    XCTAssertEqual(avatar.outputs.map(\.pathTemplate), ["{job}/{dir}/{stem}.{format}"])
    XCTAssertEqual(avatar.outputs[0].encode.options.format, .webp, "{format} takes the inherited format")
    XCTAssertEqual(avatar.outputs[0].encode.options.quality, 70)
    XCTAssertEqual(avatar.outputs[0].sizes, .scales([1]))
    XCTAssertEqual(avatar.outputs[0].metadata, MetadataPolicy(kept: [.icc, .copyright]))

    let thumb = file.jobs[2]
    XCTAssertEqual(thumb.input, .from("avatar"))
    XCTAssertEqual(thumb.guide, Guide(shape: .square, size: PixelSize(width: 64, height: 64)))
    XCTAssertEqual(thumb.place.crop, CropRect(x: 10, y: 20, width: 200, height: 200, angle: 5))
    XCTAssertEqual(thumb.place.fit, .cover, "an exact crop resets the inherited fit")
    XCTAssertEqual(thumb.place.overflow, .fill, "crop keeps the fields it does not replace")
    XCTAssertEqual(thumb.outputs[0].encode.options.format, .jpeg, "jpg is another name of jpeg")

    // The crop table's row first, then the inline overrides.
    XCTAssertEqual(file.overrides.count, 3)
    XCTAssertEqual(file.cropTableRows, 1)
    XCTAssertEqual(file.overrides[0].source, "people/ann.jpg")
    XCTAssertEqual(file.overrides[0].place.crop, CropRect(x: 12, y: 34, width: 560, height: 560, angle: -3))
    XCTAssertEqual(
      file.overrides[0].framedCrop,
      FramedCrop(
        frame: .cropperjs, units: .pixels, x: 12, y: 34, width: 560, height: 560, rotate: -3, flipHorizontal: true))
    XCTAssertEqual(file.overrides[0].fields, ["crop", "flip"])
    XCTAssertEqual(file.cropTableSettings.onError, .failRow)
    XCTAssertFalse(file.cropTableSettings.checkOrientation)
    XCTAssertEqual(file.overrides[1].job, "avatar")
    XCTAssertEqual(file.overrides[1].source, "people/ken.jpg")
    XCTAssertEqual(file.overrides[1].fields, ["crop"])
    XCTAssertEqual(file.overrides[1].place.crop, CropRect(x: 410, y: 220, width: 1400, height: 1400))
    let o = file.overrides[2]
    XCTAssertNil(o.job)
    XCTAssertEqual(o.fields, Set(JobSchema.place.keys).subtracting(["crop"]))
    XCTAssertEqual(o.place.fit, Fit.none)
    XCTAssertEqual(o.place.zoom, 2)
    XCTAssertEqual(o.place.offset, Point(x: 1, y: 2))
    XCTAssertEqual(o.place.focus, .named(.topLeft))
    XCTAssertEqual(o.place.rotate, 90)
    XCTAssertEqual(o.place.flipHorizontal && o.place.flipVertical, true)
    XCTAssertEqual(o.place.overflow, .shrink)
    XCTAssertEqual(o.place.background, [255, 255, 255, 255])
    XCTAssertEqual(o.place.upscale, true)
    XCTAssertEqual(o.place.facePadding, 0.25)
    XCTAssertEqual(o.place.regionTypes, [.pet])
  }

  func testDefaultsWhenKeysAreAbsent() throws {
    let (file, warnings) = try valid(job("sources: a.jpg\nguide: {size: 100}\noutputs: [{path: \"{stem}.jpg\"}]"))
    XCTAssertEqual(warnings, [])
    let decoded = file.jobs[0]
    XCTAssertEqual(decoded.place, PlaceSpec())
    XCTAssertEqual(decoded.guide.shape, .rect)
    XCTAssertEqual(decoded.outputs[0].sizes, .scales([1]))
    XCTAssertEqual(decoded.outputs[0].encode.options, EncodeOptions(format: .jpeg))
    XCTAssertEqual(decoded.outputs[0].metadata, .strip)
    XCTAssertEqual(file.limits, InputLimits())
    XCTAssertEqual(file.baseDirectory, ".")
  }

  func testValueForms() throws {
    let (file, _) = try valid(
      job(
        """
        sources: [a.jpg]
        guide: {aspect: "4:3", height: 300}
        place: {focus: center, flip: none, background: "#0f08", offset: [-1.5, 2e1]}
        outputs: [{path: "{stem}.jpg", encode: {subsample: auto, quality: 4_0, max_bytes: 3e4}}]
        """))
    let decoded = file.jobs[0]
    XCTAssertEqual(decoded.guide.size, PixelSize(width: 400, height: 300))
    XCTAssertEqual(decoded.place.focus, .named(.centre))
    XCTAssertEqual(decoded.place.flipHorizontal || decoded.place.flipVertical, false)
    XCTAssertEqual(decoded.place.background, [0, 255, 0, 136])
    XCTAssertEqual(decoded.place.offset, Point(x: -1.5, y: 20))
    XCTAssertNil(decoded.outputs[0].encode.options.chromaSubsampling)
    XCTAssertEqual(decoded.outputs[0].encode.options.quality, 40)
    XCTAssertEqual(decoded.outputs[0].encode.maxBytes, 30000, "an integer may be written as a whole number")
    for (text, expected) in [("middle", NamedPosition.centre), ("bottom-right", .bottomRight), ("left", .left)] {
      let (f, _) = try valid(
        job("sources: a.jpg\nguide: {size: 10}\nplace: {focus: \(text)}\noutputs: [{path: \"{stem}.jpg\"}]"))
      XCTAssertEqual(f.jobs[0].place.focus, .named(expected))
    }
    let (g, _) = try valid(job("sources: a.jpg\nguide: {shape: circle, width: 80}\noutputs: [{path: \"{stem}.png\"}]"))
    XCTAssertEqual(g.jobs[0].guide.size, PixelSize(width: 80, height: 80), "a circle with one side is square")
  }

  // MARK: - Inheritance and the decisions the decoder makes

  func testGuideInheritsFieldByFieldButSizeAsAGroup() throws {
    let (file, _) = try valid(
      """
      version: 1
      output: out
      defaults:
        guide: {shape: rect, size: 256}
        outputs: [{path: "{job}/{stem}.jpg"}]
      jobs:
        same: {sources: a.jpg}
        banner: {sources: a.jpg, guide: {aspect: "16:9", width: 1600}}
        circle: {sources: a.jpg, guide: {shape: circle}}
      """)
    XCTAssertEqual(
      file.jobs.map(\.guide.size), [PixelSize(side: 256), PixelSize(width: 1600, height: 900), PixelSize(side: 256)])
    XCTAssertEqual(file.jobs.map(\.guide.shape), [.rect, .rect, .circle])
  }

  func testPathExtensionWinsOverInheritedFormatButNotOverTheOutputsOwn() throws {
    let text = """
      version: 1
      output: out
      defaults:
        encode: {format: webp, quality: 70}
      jobs:
        a:
          sources: a.jpg
          guide: {size: 10}
          encode: {format: avif}
          outputs:
            - path: "{stem}.png"
            - path: "{stem}.{format}"
            - path: "{stem}.jpeg"
              encode: {format: jpeg}
      """
    let (file, _) = try valid(text)
    XCTAssertEqual(file.jobs[0].outputs.map(\.encode.options.format), [.png, .avif, .jpeg])
    XCTAssertEqual(
      errors(text.replacingOccurrences(of: "format: jpeg}", with: "format: png}")),
      [
        "job.yaml:14:26: error: jobs.a.outputs[2].encode.format: expected a format that agrees with the path's extension .jpeg (jpeg) but received png"
      ])
  }

  func testPlaceInheritanceAndExactCrop() throws {
    let (file, _) = try valid(
      """
      version: 1
      output: out
      defaults:
        guide: {size: 10}
        place: {zoom: 2, focus: top, overflow: fill}
        outputs: [{path: "{job}/{stem}.jpg"}]
      jobs:
        inherits: {sources: a.jpg}
        cropped: {sources: a.jpg, place: {crop: {x: 1, y: 2, width: 3, height: 4}}}
      """)
    XCTAssertEqual(file.jobs[0].place.zoom, 2)
    XCTAssertEqual(file.jobs[0].place.focus, .named(.top))
    XCTAssertEqual(file.jobs[1].place.crop, CropRect(x: 1, y: 2, width: 3, height: 4))
    XCTAssertEqual(file.jobs[1].place.zoom, 1, "an exact crop resets the inherited zoom")
    XCTAssertEqual(file.jobs[1].place.focus, .named(.centre))
    XCTAssertEqual(file.jobs[1].place.overflow, .fill, "and keeps what it does not replace")

    let (other, _) = try valid(
      """
      version: 1
      output: out
      defaults:
        guide: {size: 10}
        place: {crop: {x: 1, y: 2, width: 3, height: 4}}
        outputs: [{path: "{job}/{stem}.jpg"}]
      jobs:
        keeps: {sources: a.jpg}
        placed: {sources: a.jpg, place: {zoom: 3}}
      """)
    XCTAssertEqual(other.jobs[0].place.crop, CropRect(x: 1, y: 2, width: 3, height: 4))
    XCTAssertNil(other.jobs[1].place.crop, "a placement replaces an inherited crop")
    XCTAssertEqual(other.jobs[1].place.zoom, 3)
  }

  func testOverridesApplyOverTheJobsPlacement() throws {
    let (file, _) = try valid(
      job(
        "sources: a.jpg\nguide: {size: 10}\nplace: {zoom: 2, rotate: 10, overflow: fill}\noutputs: [{path: \"{stem}.jpg\"}]",
        extra: "")
        + "overrides:\n  - {source: a.jpg, crop: {x: 0, y: 0, width: 5, height: 5}}\n  - {job: a, source: b.jpg, focus: [0, 1]}\n"
    )
    let base = file.jobs[0].place
    let cropped = base.applying(file.overrides[0])
    XCTAssertEqual(cropped.crop, CropRect(x: 0, y: 0, width: 5, height: 5))
    XCTAssertEqual(cropped.zoom, 1)
    XCTAssertEqual(cropped.rotate, 0)
    XCTAssertEqual(cropped.overflow, .fill)
    let focused = base.applying(file.overrides[1])
    XCTAssertEqual(focused.focus, .point(Point(x: 0, y: 1)))
    XCTAssertEqual(focused.zoom, 2)
  }

  func testSettingsInheritedByManyJobsAreReportedOnceWhereWritten() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        output: out
        defaults:
          guide: {size: 99999}
          encode: {quality: 0}
          metadata: everything
          outputs: [{path: "{stem}.jpg", scales: [1, 2]}]
        jobs:
          a: {sources: a.jpg}
          b: {sources: b.jpg}
        """),
      [
        "job.yaml:4:17: error: defaults.guide.size: expected an integer between 1 and 16384 but received the number 99999",
        "job.yaml:5:21: error: defaults.encode.quality: expected an integer between 1 and 100 but received the number 0",
        "job.yaml:6:13: error: defaults.metadata: expected strip, keep or a list of: icc, copyright, artist, date, camera, gps, xmp, iptc but received the string \"everything\"",
        "job.yaml:7:20: error: defaults.outputs[0].path: expected {width}, {height} or {scale} in the path (2 sizes would be written to the same file) but received \"{stem}.jpg\"",
      ])
  }

  // MARK: - Every diagnostic kind, at its exact position

  func testUnknownKeysSuggestTheNearestKnownKey() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        outptu: out
        jobs:
          a:
            sources: a.jpg
            guide: {size: 10, shap: circle}
            place: {zom: 2}
            outputs: [{path: "{stem}.jpg", encode: {qualty: 80}, xyz: 1}]
        """),
      [
        "job.yaml:1:1: error: output: expected the output root (the folder every output is written inside) but received no \"output\"",
        "job.yaml:2:1: error: outptu: expected one of the keys version, output, limits, defaults, jobs, overrides, overrides_from but received the unknown key \"outptu\"; did you mean \"output\"?",
        "job.yaml:6:23: error: jobs.a.guide.shap: expected one of the keys shape, size, width, height, aspect but received the unknown key \"shap\"; did you mean \"shape\"?",
        "job.yaml:7:13: error: jobs.a.place.zom: expected one of the keys fit, zoom, offset, focus, face_padding, regions, rotate, flip, crop, overflow, background, upscale but received the unknown key \"zom\"; did you mean \"zoom\"?",
        "job.yaml:8:45: error: jobs.a.outputs[0].encode.qualty: expected one of the keys format, quality, lossless, effort, max_bytes, min_quality, over_budget, target, colour, frames, progressive, subsample, compression, palette but received the unknown key \"qualty\"; did you mean \"quality\"?",
        "job.yaml:8:58: error: jobs.a.outputs[0].xyz: expected one of the keys path, size, scales, widths, encode, metadata, placeholders, cache_control but received the unknown key \"xyz\"",
      ])
  }

  func testKeysAtTheWrongLevelSayWhereTheyBelong() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        output: out
        quality: 80
        jobs:
          a:
            sources: a.jpg
            zoom: 2
            guide: {size: 10, x: 3}
            outputs: [{path: "{stem}-{width}.jpg", width: 90, quality: 90}]
        """),
      [
        "job.yaml:3:1: error: quality: expected one of the keys version, output, limits, defaults, jobs, overrides, overrides_from but received the unknown key \"quality\"; \"quality\" is a key of encode",
        "job.yaml:7:5: error: jobs.a.zoom: expected one of the keys sources, exclude, from, allow_empty, guide, place, outputs, encode, metadata, placeholders, index but received the unknown key \"zoom\"; \"zoom\" is a key of place",
        "job.yaml:8:23: error: jobs.a.guide.x: expected one of the keys shape, size, width, height, aspect but received the unknown key \"x\"; \"x\" is a key of place.crop",
        "job.yaml:9:44: error: jobs.a.outputs[0].width: expected one of the keys path, size, scales, widths, encode, metadata, placeholders, cache_control but received the unknown key \"width\"; did you mean \"widths\"?",
        "job.yaml:9:55: error: jobs.a.outputs[0].quality: expected one of the keys path, size, scales, widths, encode, metadata, placeholders, cache_control but received the unknown key \"quality\"; \"quality\" is a key of encode",
      ])
  }

  func testTypeMismatches() {
    XCTAssertEqual(
      errors(
        job(
          """
          sources: {a: 1}
          guide: {shape: [rect], size: "100"}
          place: {zoom: "2", offset: 5, upscale: yes, flip: sideways, fit: fill}
          outputs: {path: "{stem}.jpg"}
          """)),
      [
        "job.yaml:5:14: error: jobs.a.sources: expected a file, glob or folder, or a list of them but received a mapping",
        "job.yaml:6:20: error: jobs.a.guide.shape: expected one of rect, square, circle but received a list",
        "job.yaml:6:34: error: jobs.a.guide.size: expected an integer between 1 and 16384 but received the string \"100\"",
        "job.yaml:7:19: error: jobs.a.place.zoom: expected a number between 0.2 and 5 but received the string \"2\"",
        "job.yaml:7:32: error: jobs.a.place.offset: expected a list of two numbers [x, y] between -100000 and 100000 but received the number 5",
        "job.yaml:7:44: error: jobs.a.place.upscale: expected true, false or skip but received the string \"yes\"",
        "job.yaml:7:55: error: jobs.a.place.flip: expected one of horizontal, vertical, both, none but received the string \"sideways\"",
        "job.yaml:7:70: error: jobs.a.place.fit: expected one of cover, contain, none but received the string \"fill\"",
        "job.yaml:8:14: error: jobs.a.outputs: expected a list of outputs but received a mapping",
      ])
  }

  func testStringsWrittenAsNumbersOrNullAskForQuotes() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        output: 2024
        jobs:
          a:
            sources: [1e3, ~, true]
            guide: {size: 10}
            outputs: [{path: "{stem}.jpg"}]
        """),
      [
        "job.yaml:2:9: error: output: expected a folder path but received the number 2024 (quote it: \"2024\")",
        "job.yaml:5:15: error: jobs.a.sources[0]: expected a file, glob or folder but received the number 1e3 (quote it: \"1e3\")",
      ])
  }

  func testRanges() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        output: out
        limits: {max_pixels: 0, max_pages: 100001}
        jobs:
          a:
            sources: a.jpg
            guide: {width: 16385, height: 0}
            place: {zoom: 0.1, rotate: 361, focus: [-0.1, 0.5], offset: [0, 100001]}
            outputs:
              - path: "{stem}@{scale}x.webp"
                scales: [0, 17]
                encode: {quality: 101, effort: 7, compression: 10, max_bytes: 99, min_quality: 0}
        """),
      [
        "job.yaml:3:22: error: limits.max_pixels: expected an integer between 1 and 1099511627776 but received the number 0",
        "job.yaml:3:36: error: limits.max_pages: expected an integer between 1 and 100000 but received the number 100001",
        "job.yaml:7:20: error: jobs.a.guide.width: expected an integer between 1 and 16384 but received the number 16385",
        "job.yaml:7:35: error: jobs.a.guide.height: expected an integer between 1 and 16384 but received the number 0",
        "job.yaml:8:19: error: jobs.a.place.zoom: expected a number between 0.2 and 5 but received the number 0.1",
        "job.yaml:8:32: error: jobs.a.place.rotate: expected a number between -360 and 360 but received the number 361",
        "job.yaml:8:45: error: jobs.a.place.focus[0]: expected a number between 0 and 1 but received the number -0.1",
        "job.yaml:8:69: error: jobs.a.place.offset[1]: expected a number between -100000 and 100000 but received the number 100001",
        "job.yaml:11:18: error: jobs.a.outputs[0].scales[0]: expected a number between 0.01 and 16 but received the number 0",
        "job.yaml:11:21: error: jobs.a.outputs[0].scales[1]: expected a number between 0.01 and 16 but received the number 17",
        "job.yaml:12:27: error: jobs.a.outputs[0].encode.quality: expected an integer between 1 and 100 but received the number 101",
        "job.yaml:12:40: error: jobs.a.outputs[0].encode.effort: expected an integer between 0 and 6 but received the number 7",
        "job.yaml:12:56: error: jobs.a.outputs[0].encode.compression: expected an integer between 0 and 9 but received the number 10",
        "job.yaml:12:71: error: jobs.a.outputs[0].encode.max_bytes: expected an integer between 100 and 2147483648 but received the number 99",
        "job.yaml:12:88: error: jobs.a.outputs[0].encode.min_quality: expected an integer between 1 and 100 but received the number 0",
      ])
  }

  func testExclusiveFields() {
    XCTAssertEqual(
      errors(
        job(
          """
          sources: a.jpg
          from: b
          guide: {size: 10, aspect: "1:1"}
          place: {crop: {x: 0, y: 0, width: 5, height: 5}, zoom: 2, focus: top, fit: contain, offset: [1, 1], rotate: 3}
          outputs: [{path: "{stem}-{width}.jpg", size: 5, widths: [1, 2]}]
          """)),
      [
        "job.yaml:6:11: error: jobs.a.from: expected either sources or from but received both",
        "job.yaml:7:31: error: jobs.a.guide.aspect: expected either size or aspect with width or height but received both size and aspect",
        "job.yaml:8:60: error: jobs.a.place.zoom: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate) but received crop together with zoom",
        "job.yaml:8:70: error: jobs.a.place.focus: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate) but received crop together with focus",
        "job.yaml:8:80: error: jobs.a.place.fit: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate) but received crop together with fit",
        "job.yaml:8:97: error: jobs.a.place.offset: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate) but received crop together with offset",
        "job.yaml:8:113: error: jobs.a.place.rotate: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate) but received crop together with rotate",
        "job.yaml:9:61: error: jobs.a.outputs[0].widths: expected one of size, scales and widths but received size and widths",
      ])
  }

  func testGuideShapesAndSizes() {
    func guide(_ g: String) -> [String] {
      errors(job("sources: a.jpg\nguide: \(g)\noutputs: [{path: \"{stem}.png\"}]"))
    }
    XCTAssertEqual(
      guide("{shape: circle, width: 100, height: 120}"),
      [
        "job.yaml:6:48: error: jobs.a.guide.height: expected equal width and height for a circle guide (or size) but received width 100 and height 120"
      ])
    XCTAssertEqual(
      guide("{shape: square, aspect: \"4:3\", width: 10}"),
      [
        "job.yaml:6:36: error: jobs.a.guide.aspect: expected aspect only with shape rect (a square guide is square) but received aspect with a square guide"
      ])
    XCTAssertEqual(
      guide("{width: 100}"),
      [
        "job.yaml:6:12: error: jobs.a.guide: expected the guide's size: size, width and height, or aspect with one side but received only width"
      ])
    XCTAssertEqual(
      guide("{shape: rect}"),
      [
        "job.yaml:6:12: error: jobs.a.guide: expected the guide's size: size, width and height, or aspect with one side but received no size"
      ])
    XCTAssertEqual(
      guide("{aspect: \"16:9\", width: 100, height: 50}"),
      [
        "job.yaml:6:21: error: jobs.a.guide.aspect: expected aspect with one of width and height but received aspect with both width and height"
      ])
    XCTAssertEqual(
      guide("{aspect: \"16:9\"}"),
      [
        "job.yaml:6:21: error: jobs.a.guide.aspect: expected aspect with one of width and height but received aspect alone"
      ])
    XCTAssertEqual(
      guide("{aspect: \"1:100\", width: 1000}"),
      [
        "job.yaml:6:21: error: jobs.a.guide.aspect: expected a height of at most 16384 pixels but received aspect 1:100 giving height 100000"
      ])
    // A side beyond any Int (found by the job-file fuzzer: it trapped converting to Int).
    XCTAssertEqual(
      guide("{aspect: \"16:22222222222222222222222222222222229\", width: 1600}"),
      [
        "job.yaml:6:21: error: jobs.a.guide.aspect: expected a height of at most 16384 pixels but received aspect 16:22222222222222222222222222222222229 giving height 2.222222222222222e+36"
      ])
  }

  func testBadAspects() {
    for (text, column) in [
      ("\"16x9\"", 21), ("\"0:9\"", 21), ("\"16:\"", 21), ("\"0x10:9\"", 21), ("\"1e2:1\"", 21), ("16", 21),
    ] {
      let lines = errors(job("sources: a.jpg\nguide: {aspect: \(text), width: 100}\noutputs: [{path: \"{stem}.jpg\"}]"))
      let shown = text.hasPrefix("\"") ? "the string \(text)" : "the number \(text)"
      XCTAssertEqual(
        lines,
        [
          "job.yaml:6:\(column): error: jobs.a.guide.aspect: expected an aspect ratio \"W:H\" such as \"16:9\" but received \(shown)"
        ])
    }
    XCTAssertNotNil(
      decode(job("sources: a.jpg\nguide: {aspect: \"2.39:1\", height: 100}\noutputs: [{path: \"{stem}.jpg\"}]")).file)
  }

  func testBadColours() {
    for (text, message) in [
      ("\"#12345\"", "the string \"#12345\""), ("\"#+fffff\"", "the string \"#+fffff\""),
      ("White", "the string \"White\"; did you mean \"white\"?"), ("[1, 2]", "a list"),
      ("{r: 1}", "a mapping"),
    ] {
      XCTAssertEqual(
        errors(
          job("sources: a.jpg\nguide: {size: 9}\nplace: {background: \(text)}\noutputs: [{path: \"{stem}.jpg\"}]")),
        [
          "job.yaml:7:25: error: jobs.a.place.background: expected a colour: \"#rrggbb\", \"#rrggbbaa\", \"#rgb\", black, gray, grey, transparent, white or [r, g, b(, a)] but received \(message)"
        ])
    }
    XCTAssertEqual(
      errors(
        job("sources: a.jpg\nguide: {size: 9}\nplace: {background: [0, 0, 256, 1]}\noutputs: [{path: \"{stem}.jpg\"}]")),
      [
        "job.yaml:7:32: error: jobs.a.place.background[2]: expected an integer between 0 and 255 but received the number 256"
      ])
  }

  func testFormats() {
    let text = job(
      "sources: a.jpg\nguide: {size: 9}\noutputs:\n  - path: \"{stem}.{format}\"\n    encode: {format: FORMAT}")
    XCTAssertEqual(
      errors(text.replacingOccurrences(of: "FORMAT", with: "jepg")),
      [
        "job.yaml:9:26: error: jobs.a.outputs[0].encode.format: expected one of jpeg, png, webp, avif, heif, jxl, tiff, gif but received the string \"jepg\"; did you mean \"jpeg\"?"
      ])
    XCTAssertEqual(
      errors(text.replacingOccurrences(of: "FORMAT", with: "avif"), formats: [.jpeg, .png, .webp]),
      [
        "job.yaml:9:26: error: jobs.a.outputs[0].encode.format: expected a format this build of libvips can write (jpeg, png, webp) but received avif"
      ])
    XCTAssertEqual(
      errors(job("sources: a.jpg\nguide: {size: 9}\noutputs: [{path: \"{stem}.jxl\"}]"), formats: [.jpeg]),
      [
        "job.yaml:7:22: error: jobs.a.outputs[0].encode.format: expected a format this build of libvips can write (jpeg) but received jxl"
      ])
  }

  func testByteBudgetsNeedALossyFormat() {
    func budget(_ path: String, _ encode: String) -> [String] {
      errors(job("sources: a.jpg\nguide: {size: 9}\noutputs:\n  - path: \"\(path)\"\n    encode: {\(encode)}"))
    }
    let expected = "expected a lossy format for a byte budget (jpeg, webp, avif, heif, jxl, or png with palette: true)"
    XCTAssertEqual(
      budget("{stem}.tif", "max_bytes: 1000"),
      ["job.yaml:9:29: error: jobs.a.outputs[0].encode.max_bytes: \(expected) but received tiff"])
    XCTAssertEqual(
      budget("{stem}.webp", "lossless: true, max_bytes: 1000"),
      ["job.yaml:9:45: error: jobs.a.outputs[0].encode.max_bytes: \(expected) but received lossless webp"])
    XCTAssertEqual(
      budget("{stem}.jpg", "quality: 50, min_quality: 60, max_bytes: 1000"),
      [
        "job.yaml:9:44: error: jobs.a.outputs[0].encode.min_quality: expected min_quality at most quality (50) but received min_quality 60"
      ])
    XCTAssertEqual(
      budget("{stem}.webp", "quality: 20, max_bytes: 1000"),
      [
        "job.yaml:9:27: error: jobs.a.outputs[0].encode.quality: expected quality at least min_quality (30 by default) for a byte budget but received quality 20"
      ])
    XCTAssertNotNil(
      decode(
        job(
          "sources: a.jpg\nguide: {size: 9}\noutputs: [{path: \"{stem}.png\", encode: {palette: true, max_bytes: 900}}]"
        )
      ).file)
  }

  func testPathTemplates() {
    func path(_ p: String) -> [String] { errors(job("sources: a.jpg\nguide: {size: 9}\noutputs: [{path: \"\(p)\"}]")) }
    XCTAssertEqual(
      path("/srv/{stem}.jpg"),
      [
        "job.yaml:7:22: error: jobs.a.outputs[0].path: expected a path relative to the output root but received the absolute path \"/srv/{stem}.jpg\""
      ])
    XCTAssertEqual(
      path("a/../../{stem}.jpg"),
      [
        "job.yaml:7:22: error: jobs.a.outputs[0].path: expected a path inside the output root but received \"a/../../{stem}.jpg\", whose \"..\" leaves it"
      ])
    XCTAssertEqual(
      path("{nmae}.jpg"),
      [
        "job.yaml:7:22: error: jobs.a.outputs[0].path: expected a placeholder among {job} {stem} {name} {ext} {dir} {width} {height} {scale} {format} but received {nmae}; did you mean \"name\"?",
        "job.yaml:7:22: error: jobs.a.outputs[0].path: expected {stem} or {name} in the path (else every photo is written to the same file) but received \"{nmae}.jpg\"",
      ])
    XCTAssertEqual(
      path("{stem.jpg"),
      ["job.yaml:7:22: error: jobs.a.outputs[0].path: expected a \"}\" closing each \"{\" but received \"{stem.jpg\""])
    XCTAssertEqual(
      path(""),
      ["job.yaml:7:22: error: jobs.a.outputs[0].path: expected a non-empty string but received an empty string"])
  }

  func testSeveralSizesNeedASizePlaceholder() {
    XCTAssertEqual(
      errors(job("sources: a.jpg\nguide: {size: 9}\noutputs:\n  - {path: \"{stem}.jpg\", widths: [100, 200]}")),
      [
        "job.yaml:8:16: error: jobs.a.outputs[0].path: expected {width}, {height} or {scale} in the path (2 sizes would be written to the same file) but received \"{stem}.jpg\""
      ])
    for placeholder in ["{width}", "{height}", "{scale}"] {
      XCTAssertNotNil(
        decode(
          job("sources: a.jpg\nguide: {size: 9}\noutputs:\n  - {path: \"{stem}-\(placeholder).jpg\", scales: [1, 2]}")
        ).file)
    }
    XCTAssertEqual(
      errors(
        job("sources: a.jpg\nguide: {size: 9}\noutputs:\n  - {path: \"{stem}-{width}.jpg\", widths: [10, 20, 10]}")),
      ["job.yaml:8:55: error: jobs.a.outputs[0].widths[2]: expected distinct values but received 10 again (as at [0])"])
    XCTAssertEqual(
      errors(job("sources: a.jpg\nguide: {size: 9}\noutputs:\n  - {path: \"{stem}-{scale}.jpg\", scales: []}")),
      [
        "job.yaml:8:46: error: jobs.a.outputs[0].scales: expected a non-empty list of scales such as [1, 2, 3] but received an empty list"
      ])
    XCTAssertEqual(
      errors(
        job("sources: a.jpg\nguide: {width: 100, height: 10}\noutputs:\n  - {path: \"{stem}.jpg\", scales: [0.01]}")),
      [
        "job.yaml:8:39: error: jobs.a.outputs[0].scales[0]: expected an output of 1 to 16384 pixels a side but received scale 0.01 of a 100x10 guide, giving 1x0"
      ])
    XCTAssertEqual(
      errors(job("sources: a.jpg\nguide: {width: 10, height: 1000}\noutputs:\n  - {path: \"{stem}.jpg\", size: 200}")),
      [
        "job.yaml:8:36: error: jobs.a.outputs[0].size: expected an output of 1 to 16384 pixels a side but received width 200 of a 10x1000 guide, giving 200x20000"
      ])
  }

  func testDuplicateOutputPathTemplates() {
    XCTAssertEqual(
      errors(
        job(
          "sources: a.jpg\nguide: {size: 9}\noutputs:\n  - path: \"{stem}.jpg\"\n  - path: \"{stem}.png\"\n  - path: \"{stem}.jpg\""
        )),
      [
        "job.yaml:10:15: error: jobs.a.outputs[2].path: expected a path template unlike the other outputs' (else both write the same files) but received the same template as outputs[0]: \"{stem}.jpg\""
      ])
  }

  func testMissingRequiredKeys() {
    XCTAssertEqual(
      errors("output: out\njobs:\n  a: {sources: a.jpg, place: {crop: {x: 1}}}\n"),
      [
        "job.yaml:1:1: error: version: expected the language version (version: 1) but received no \"version\"",
        "job.yaml:3:3: error: jobs.a.guide: expected a guide (the crop frame: shape and size) but received no \"guide\"",
        "job.yaml:3:3: error: jobs.a.outputs: expected outputs (the files to write for each photo) but received no \"outputs\"",
        "job.yaml:3:37: error: jobs.a.place.crop.height: expected the crop's height (crop needs x, y, width and height in source pixels) but received no \"height\"",
        "job.yaml:3:37: error: jobs.a.place.crop.width: expected the crop's width (crop needs x, y, width and height in source pixels) but received no \"width\"",
        "job.yaml:3:37: error: jobs.a.place.crop.y: expected the crop's y (crop needs x, y, width and height in source pixels) but received no \"y\"",
      ])
    // A guide with no known key is there: not "no guide" (the audit of issue 28).
    XCTAssertEqual(
      errors(
        "version: 1\noutput: out\njobs:\n"
          + "  a: {sources: a.jpg, guide: {sise: 9}, outputs: [{path: \"{stem}.jpg\"}]}\n"),
      [
        "job.yaml:4:30: error: jobs.a.guide: expected the guide's size: size, width and height, or aspect with one side but received no size",
        "job.yaml:4:31: error: jobs.a.guide.sise: expected one of the keys shape, size, width, height, aspect but received the unknown key \"sise\"; did you mean \"size\"?",
      ])
    XCTAssertEqual(
      errors("version: 1\noutput: out\n"),
      ["job.yaml:1:1: error: jobs: expected the jobs (a mapping of job names to jobs) but received no \"jobs\""])
    XCTAssertEqual(
      errors("version: 1\noutput: out\njobs: {}\n"),
      ["job.yaml:3:7: error: jobs: expected at least one job but received an empty mapping"])
    XCTAssertEqual(
      errors("# nothing but a comment\n"),
      ["job.yaml:1:1: error: expected a mapping with version, output and jobs but received an empty file"])
  }

  func testJobGraph() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        output: out
        defaults: {guide: {size: 9}, outputs: [{path: "{job}/{stem}.jpg"}]}
        jobs:
          broken: {sources: a.jpg, guide: {size: -1}}
          uses-broken: {from: broken}
          missing: {from: nowhere}
          x: {from: y}
          y: {from: z}
          z: {from: x}
          self: {from: self}
        """),
      [
        "job.yaml:5:42: error: jobs.broken.guide.size: expected an integer between 1 and 16384 but received the number -1",
        "job.yaml:7:19: error: jobs.missing.from: expected the name of another job (broken, uses-broken, x, y, z, self) but received \"nowhere\"",
        "job.yaml:8:13: error: jobs.x.from: expected a from chain that ends at a job with sources but received the cycle x → y → z → x",
        "job.yaml:11:16: error: jobs.self.from: expected a from chain that ends at a job with sources but received the cycle self → self",
      ])
  }

  func testOverrides() {
    XCTAssertEqual(
      errors(
        job("sources: a.jpg\nguide: {size: 9}\noutputs: [{path: \"{stem}.jpg\"}]")
          + """
          overrides:
            - {job: b, source: a.jpg, zoom: 2}
            - {source: b.jpg}
            - {source: c.jpg, crop: {x: 0, y: 0, width: 1, height: 1}, rotate: 5}
            - {source: d.jpg, zoom: 2}
            - {source: ./d.jpg, zoom: 3}
            - {job: a, source: d.jpg, zoom: 3}
            - a.jpg
          """),
      [
        "job.yaml:9:11: error: overrides[0].job: expected the name of a job (a) but received \"b\"",
        "job.yaml:10:5: error: overrides[1]: expected crop or at least one place field but received an override without any",
        "job.yaml:11:70: error: overrides[2].rotate: expected crop alone (an exact crop rectangle replaces fit, zoom, focus, offset and rotate) but received crop together with rotate",
        "job.yaml:13:14: error: overrides[4].source: expected one override per source and job but received a second override of \"./d.jpg\" (the first is overrides[3])",
        "job.yaml:15:5: error: overrides[6]: expected an override: a mapping with source but received the string \"a.jpg\"",
      ])
  }

  func testExcludeAndSourcesForms() {
    XCTAssertEqual(
      errors(
        """
        version: 1
        output: out
        defaults: {guide: {size: 9}, outputs: [{path: "{job}/{stem}.jpg"}]}
        jobs:
          a: {sources: [], exclude: x}
          b: {sources: "", exclude: [1]}
          c: {from: a, exclude: "*.png"}
          d: {guide: {size: 9}}
          e: [a.jpg]
          "f g": {sources: a.jpg}
        """),
      [
        "job.yaml:5:16: error: jobs.a.sources: expected at least one file, glob or folder but received an empty list",
        "job.yaml:6:16: error: jobs.b.sources: expected a non-empty string but received an empty string",
        "job.yaml:6:30: error: jobs.b.exclude[0]: expected a file, glob or folder but received the number 1 (quote it: \"1\")",
        "job.yaml:7:25: error: jobs.c.exclude: expected exclude together with sources (it filters them) but received exclude with from",
        "job.yaml:8:3: error: jobs.d.sources: expected \"sources\" (files, globs or folders) or \"from\" (another job) but received neither",
        "job.yaml:9:6: error: jobs.e: expected a job: a mapping with sources, guide, place and outputs but received a list",
        "job.yaml:10:3: error: jobs.f g: expected a job name of ASCII letters, digits, '-' and '_' but received \"f g\"",
      ])
  }

  func testVersionAndOutputRoot() {
    XCTAssertEqual(
      errors(
        "version: \"1\"\noutput: ''\njobs: {a: {sources: a.jpg, guide: {size: 9}, outputs: [{path: \"{stem}.jpg\"}]}}\n"
      ),
      [
        "job.yaml:1:10: error: version: expected 1 (the only version of the job file language) but received the string \"1\"",
        "job.yaml:2:9: error: output: expected a non-empty string but received an empty string",
      ])
  }

  // MARK: - Warnings

  func testWarningsForSettingsThatDoNothingAndOddExtensions() throws {
    let (file, warnings) = try valid(
      """
      version: 1
      output: out
      defaults:
        encode: {progressive: true, compression: 9}
      jobs:
        a:
          sources: a.jpg
          guide: {size: 9}
          outputs:
            - path: "{stem}.png"
              encode: {progressive: true, quality: 80, effort: 3}
            - path: "{stem}.jpgg"
            - path: "{stem}"
            - path: "{stem}.{ext}"
      """)
    XCTAssertEqual(file.jobs[0].outputs.count, 4)
    XCTAssertEqual(
      warnings,
      [
        "job.yaml:11:31: warning: jobs.a.outputs[0].encode.progressive: expected a setting that png output uses but received progressive, which applies to jpeg",
        "job.yaml:11:46: warning: jobs.a.outputs[0].encode.quality: expected a setting that png output uses but received quality, which applies to png only with palette: true",
        "job.yaml:11:58: warning: jobs.a.outputs[0].encode.effort: expected a setting that png output uses but received effort, which applies to webp, avif, heif, jxl",
        "job.yaml:12:15: warning: jobs.a.outputs[1].path: expected the extension of a format cropjob writes (avif, gif, heic, heif, jpeg, jpg, jxl, png, tif, tiff, webp) but received .jpgg; writing jpeg; did you mean \"jpeg\"?",
        "job.yaml:13:15: warning: jobs.a.outputs[2].path: expected a file extension such as .jpg, .png or .{format} but received \"{stem}\" without one",
        "job.yaml:14:15: warning: jobs.a.outputs[3].path: expected .{format} or a format's extension (the source's extension does not choose the output format) but received \"{stem}.{ext}\"",
      ])
  }

  func testSuggestionsCountASwapAsOneEditAndNeverRewriteShortWords() {
    XCTAssertEqual(Suggestion.distance("rnu", "run"), 1)
    XCTAssertEqual(Suggestion.distance("jepg", "jpeg"), 1)
    XCTAssertEqual(Suggestion.distance("gif", "avif"), 2)
    XCTAssertEqual(Suggestion.distance("kitten", "sitting"), 3)
    XCTAssertEqual(Suggestion.closest(to: "rnu", in: ["run", "plan"]), "run")
    XCTAssertEqual(Suggestion.closest(to: "jepg", in: JobSchema.formatNames), "jpeg")
    XCTAssertNil(Suggestion.closest(to: "tig", in: OutputFormat.allCases.map(\.rawValue)))
    XCTAssertEqual(Suggestion.closest(to: "tig", in: JobSchema.formatNames), "tif")
    XCTAssertNil(Suggestion.closest(to: "c", in: ["a", "b"]))
    XCTAssertEqual(Suggestion.closest(to: "qualty", in: JobSchema.encode.keys), "quality")
    XCTAssertEqual(Suggestion.closest(to: "avatar-smal", in: ["avatar", "avatar-small"]), "avatar-small")
  }

  // MARK: - All at once, in order

  func testAllDiagnosticsOfAFileAtOnceSortedByPosition() {
    let lines = errors(
      """
      version: 2
      output: out
      jobs:
        b:
          from: a
          guide: {shape: oval, size: 10}
          outputs: [{path: "{stem}.tig", encode: {quality: 0}}]
        a:
          sources: a.jpg
          guide: {size: 10}
          place: {zoom: 9}
          outputs: [{path: "{stme}.jpg"}]
      overrides:
        - {job: c, source: a.jpg, fit: cover}
      """)
    XCTAssertEqual(
      lines,
      [
        "job.yaml:1:10: error: version: expected 1 (the only version of the job file language) but received the number 2",
        "job.yaml:6:20: error: jobs.b.guide.shape: expected one of rect, square, circle but received the string \"oval\"",
        "job.yaml:7:22: warning: jobs.b.outputs[0].path: expected the extension of a format cropjob writes (avif, gif, heic, heif, jpeg, jpg, jxl, png, tif, tiff, webp) but received .tig; writing jpeg; did you mean \"tif\"?",
        "job.yaml:7:54: error: jobs.b.outputs[0].encode.quality: expected an integer between 1 and 100 but received the number 0",
        "job.yaml:11:19: error: jobs.a.place.zoom: expected a number between 0.2 and 5 but received the number 9",
        "job.yaml:12:22: error: jobs.a.outputs[0].path: expected a placeholder among {job} {stem} {name} {ext} {dir} {width} {height} {scale} {format} but received {stme}; did you mean \"stem\"?",
        "job.yaml:12:22: error: jobs.a.outputs[0].path: expected {stem} or {name} in the path (else every photo is written to the same file) but received \"{stme}.jpg\"",
        "job.yaml:14:11: error: overrides[0].job: expected the name of a job (b, a) but received \"c\"",
      ])
    XCTAssertEqual(lines, lines.sorted { position($0).lexicographicallyPrecedes(position($1)) })
  }

  private func position(_ line: String) -> [Int] {
    line.split(separator: ":").dropFirst().prefix(2).map { Int($0)! }
  }

  func testLoaderSortsAndNamesTheFile() throws {
    let url = TestPaths.scratch().appendingPathComponent("bad.yaml")
    try "version: 1\noutput: out\njobs:\n  a: {sources: a.jpg, guide: {size: 0}, outputs: [{path: \"x.jpg\"}]}\n".write(
      to: url, atomically: true, encoding: .utf8)
    let result = JobFileLoader.load(path: url.path)
    XCTAssertNil(result.jobFile)
    XCTAssertEqual(
      result.diagnostics.map(\.description),
      [
        "\(url.path):4:37: error: jobs.a.guide.size: expected an integer between 1 and 16384 but received the number 0",
        "\(url.path):4:58: error: jobs.a.outputs[0].path: expected {stem} or {name} in the path (else every photo is written to the same file) but received \"x.jpg\"",
      ])
  }
}

// MARK: - Colour policy and over_budget

extension SpecDecoderTests {
  func testColourAndOverBudgetAreInheritedFieldByField() throws {
    let (file, warnings) = try valid(
      """
      version: 1
      output: out
      defaults:
        encode: {colour: keep, max_bytes: 9000, over_budget: shrink}
      jobs:
        a:
          sources: [a.jpg]
          guide: {shape: square, size: 64}
          outputs:
            - {path: "{stem}.jpg"}
            - {path: "{stem}-y.jpg", encode: {colour: srgb, over_budget: fail}}
      """)
    XCTAssertEqual(warnings, [])
    let outputs = file.jobs[0].outputs
    XCTAssertEqual(outputs.map(\.encode.colour), [.keep, .srgb])
    XCTAssertEqual(outputs.map(\.encode.overBudget), [.shrink, .fail])
    XCTAssertEqual(outputs.map(\.encode.maxBytes), [9000, 9000])
  }

  func testColourAndOverBudgetValuesAreChecked() {
    let lines = errors(
      job(
        """
        sources: [a.jpg]
        guide: {shape: square, size: 64}
        outputs: [{path: "{stem}.jpg", encode: {colour: p3, over_budget: shrnk, max_bytes: 900}}]
        """))
    XCTAssertEqual(
      lines,
      [
        "job.yaml:7:53: error: jobs.a.outputs[0].encode.colour: expected one of srgb, keep but received the string \"p3\"",
        "job.yaml:7:70: error: jobs.a.outputs[0].encode.over_budget: expected one of fail, shrink but received the string \"shrnk\"; did you mean \"shrink\"?",
      ])
  }

  func testOverBudgetWithoutABudgetIsAWarning() throws {
    let (_, warnings) = try valid(
      job(
        """
        sources: [a.jpg]
        guide: {shape: square, size: 64}
        outputs: [{path: "{stem}.jpg", encode: {over_budget: shrink}}]
        """))
    XCTAssertEqual(
      warnings,
      [
        "job.yaml:7:58: warning: jobs.a.outputs[0].encode.over_budget: expected max_bytes beside over_budget: shrink but received no max_bytes (over_budget does nothing)"
      ])
  }

  /// A `from:` job is planned from its upstream output's planned size.
  func testFromAJobWhoseFirstOutputMayShrinkIsAnError() {
    let lines = errors(
      """
      version: 1
      output: out
      jobs:
        big:
          sources: [a.jpg]
          guide: {shape: square, size: 512}
          outputs: [{path: "{stem}.jpg", encode: {max_bytes: 20000, over_budget: shrink}}]
        small:
          from: big
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}-small.jpg"}]
      """)
    XCTAssertEqual(
      lines,
      [
        "job.yaml:9:11: error: jobs.small.from: expected a job whose first output keeps its planned size but received \"big\", whose first output may shrink to meet max_bytes (over_budget: shrink)"
      ])
  }
}
