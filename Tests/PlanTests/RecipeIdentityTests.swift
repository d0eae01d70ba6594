import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// Output keys must not change: the recipe text behind them stays byte-identical to what
/// `OutputKey.recipe` wrote with one `JSONEncoder` per part (kept here as the reference).
final class RecipeIdentityTests: XCTestCase {
  /// The recipe as written before the parts' JSON was memoised.
  static func referenceRecipe(
    job: String, guide: Guide, place: PlaceSpec, outputScale: Double, geometry: PlacementResult, encode: EncodeSpec,
    metadata: MetadataPolicy, style: RenderStyle, path: String
  ) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    func json<T: Encodable>(_ value: T) -> String {
      String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
    return
      ([
        "path=\(path)", "guide=\(json(guide))", "place=\(json(place))", "scale=\(outputScale)",
        "size=\(geometry.outputSize.width)x\(geometry.outputSize.height)", "transform=\(json(geometry.transform))",
        "encode=\(json(encode.options)) max_bytes=\(encode.maxBytes.map(String.init) ?? "-") min_quality=\(encode.minQuality)",
        "metadata=\(metadata)", "style=circle:\(style.circle) alpha:\(style.alpha) bg:\(style.background)",
      ]
      + (encode.overBudget == .fail ? [] : ["over_budget=\(encode.overBudget.rawValue)"])
      + (encode.colour == .srgb ? [] : ["colour=\(encode.colour.rawValue)"])
      + (encode.frames == .first ? [] : ["frames=\(encode.frames.rawValue)"])
      + (encode.target.map { ["target=ssim:\($0.ssim)"] } ?? [])).joined(separator: "\n")
  }

  static func reference(_ o: PlannedOutput) -> String {
    referenceRecipe(
      job: o.job, guide: o.guide, place: o.place, outputScale: o.outputScale, geometry: o.geometry, encode: o.encode,
      metadata: o.metadata, style: o.style, path: o.path) + (o.placeholders.map { "\nplaceholders=\($0.recipe)" } ?? "")
  }

  /// Every output of the sample jobs, planned twice (the second time from the memo).
  func testSampleJobRecipesMatchTheReference() throws {
    let jobs = try FileManager.default.contentsOfDirectory(atPath: TestPaths.jobs.path).filter { $0.hasSuffix(".yaml") }
      .sorted()
    var compared = 0
    for job in jobs {
      let loaded = JobFileLoader.load(path: TestPaths.jobs.appendingPathComponent(job).path)
      let file = try XCTUnwrap(loaded.jobFile, job)
      let plan = Planner().plan(file)
      for _ in 0..<2 {
        for output in plan.outputs {
          XCTAssertEqual(output.recipe, Self.reference(output), "\(job): \(output.path)")
          compared += 1
        }
      }
    }
    XCTAssertGreaterThan(compared, 50)
  }

  /// Random values, with the doubles JSON writes in unusual ways (negative zero, tiny, huge,
  /// thirds), each recipe computed twice so that the second comes from the memo; values
  /// equal under `==` but not bitwise (0 and -0) must not share an entry.
  func testRandomRecipesMatchTheReference() {
    var random = SeededRandom(seed: 14)
    let awkward: [Double] = [
      0, -0.0, 1, -1, 0.5, 0.1, 1.0 / 3, 2.0 / 3, 1e-7, -1e-7, 1e21, 1e22, 123_456.789, 96, 0.75,
    ]
    func double() -> Double {
      Bool.random(using: &random)
        ? awkward.randomElement(using: &random)! : Double.random(in: -2000...2000, using: &random)
    }
    func point() -> Point { Point(x: double(), y: double()) }
    for round in 0..<3000 {
      let guide = Guide(
        shape: GuideShape.allCases.randomElement(using: &random)!,
        size: PixelSize(
          width: Int.random(in: 1...4000, using: &random), height: Int.random(in: 1...4000, using: &random)))
      var place = PlaceSpec()
      place.fit = Fit.allCases.randomElement(using: &random)!
      place.zoom = double()
      place.offset = point()
      switch Int.random(in: 0..<4, using: &random) {
      case 0: place.focus = .named(NamedPosition.allCases.randomElement(using: &random)!)
      case 1: place.focus = .point(point())
      case 2:
        place.focus = .search(
          FocusSearch(finders: [.faces, .regions].shuffled(using: &random), fallback: .point(point())))
        place.facePadding = double()
        place.regionTypes = [.pet]
      default: place.focus = .smart(SmartStrategy.allCases.randomElement(using: &random)!)
      }
      place.rotate = double()
      place.flipHorizontal = Bool.random(using: &random)
      place.flipVertical = Bool.random(using: &random)
      place.crop =
        Bool.random(using: &random)
        ? CropRect(x: double(), y: double(), width: double(), height: double(), angle: double()) : nil
      place.overflow = Overflow.allCases.randomElement(using: &random)!
      place.background = Bool.random(using: &random) ? (0..<4).map { _ in double() } : nil
      place.upscale = Bool.random(using: &random)
      var options = EncodeOptions(format: OutputFormat.allCases.randomElement(using: &random)!)
      options.quality = Int.random(in: 1...100, using: &random)
      options.lossless = Bool.random(using: &random)
      options.effort = Bool.random(using: &random) ? Int.random(in: 0...9, using: &random) : nil
      options.progressive = Bool.random(using: &random)
      options.chromaSubsampling = [nil, true, false].randomElement(using: &random)!
      options.compression = Int.random(in: 0...9, using: &random)
      options.palette = Bool.random(using: &random)
      let encode = EncodeSpec(
        options: options, maxBytes: Bool.random(using: &random) ? Int.random(in: 1...100_000, using: &random) : nil,
        minQuality: Int.random(in: 1...100, using: &random),
        overBudget: OverBudget.allCases.randomElement(using: &random)!,
        colour: ColourPolicy.allCases.randomElement(using: &random)!)
      let transform = Affine(a: double(), b: double(), c: double(), d: double(), tx: double(), ty: double())
      let geometry = PlacementResult(
        transform: transform, outputSize: PixelSize(width: Int.random(in: 1...4000, using: &random), height: 7),
        scale: double(), angle: double(), centre: point(), sourceRegion: Rect(x: 0, y: 0, width: 1, height: 1),
        coversOutput: true, notes: [], guideRect: Rect(x: 0, y: 0, width: 1, height: 1))
      let style = RenderStyle(circle: Bool.random(using: &random), alpha: false, background: [255, 255, 255, 255])
      let metadata: MetadataPolicy = Bool.random(using: &random) ? .strip : .keep
      let scale = double()
      for pass in 0..<2 {
        let expected = Self.referenceRecipe(
          job: "j", guide: guide, place: place, outputScale: scale, geometry: geometry, encode: encode,
          metadata: metadata, style: style, path: "p/\(round).jpg")
        let actual = OutputKey.recipe(
          job: "j", guide: guide, place: place, outputScale: scale, geometry: geometry, encode: encode,
          metadata: metadata, style: style, path: "p/\(round).jpg")
        XCTAssertEqual(actual, expected, "round \(round), pass \(pass)")
        if actual != expected { return }
      }
    }
  }

  /// Values equal under `==` but written differently (0 and -0) in every double of a place
  /// and a transform, one after the other: a memo keyed by `==` would answer the second
  /// with the first's text.
  func testSignedZerosAreNotConflated() {
    var places: [PlaceSpec] = []
    var transforms: [Affine] = []
    for zero in [0.0, -0.0, 0.0] {
      var p = PlaceSpec()
      p.zoom = zero
      places.append(p)
      p = PlaceSpec()
      p.offset = Point(x: zero, y: 1)
      places.append(p)
      p = PlaceSpec()
      p.offset = Point(x: 1, y: zero)
      places.append(p)
      p = PlaceSpec()
      p.rotate = zero
      places.append(p)
      p = PlaceSpec()
      p.focus = .point(Point(x: zero, y: zero))
      places.append(p)
      p = PlaceSpec()
      p.crop = CropRect(x: zero, y: zero, width: 1, height: 1, angle: zero)
      places.append(p)
      p = PlaceSpec()
      p.background = [zero, 0, 0, 255]
      places.append(p)
      transforms += [
        Affine(a: zero, b: 0, c: 0, d: 1, tx: 0, ty: 0), Affine(a: 1, b: zero, c: zero, d: 1, tx: zero, ty: zero),
      ]
    }
    let geometry = PlacementResult(
      transform: .identity, outputSize: PixelSize(width: 9, height: 9), scale: 1, angle: 0, centre: Point(x: 0, y: 0),
      sourceRegion: Rect(x: 0, y: 0, width: 1, height: 1), coversOutput: true, notes: [],
      guideRect: Rect(x: 0, y: 0, width: 1, height: 1))
    let encode = EncodeSpec(options: EncodeOptions(format: .png), maxBytes: nil)
    let style = RenderStyle(circle: true, alpha: true, background: [0, 0, 0, 0])
    var cases = places.map { ($0, geometry) }
    for t in transforms {
      var g = geometry
      g.transform = t
      cases.append((PlaceSpec(), g))
    }
    var texts = Set<String>()
    for (place, g) in cases {
      let expected = Self.referenceRecipe(
        job: "j", guide: .circle(9), place: place, outputScale: 1, geometry: g, encode: encode, metadata: .strip,
        style: style, path: "a.png")
      let actual = OutputKey.recipe(
        job: "j", guide: .circle(9), place: place, outputScale: 1, geometry: g, encode: encode, metadata: .strip,
        style: style, path: "a.png")
      XCTAssertEqual(actual, expected)
      texts.insert(expected)
    }
    XCTAssertTrue(texts.contains { $0.contains("-0") })
  }
}
