import CropGeometry
import TestSupport
import XCTest

final class OutputScaleTests: XCTestCase {
  let phone = Size(width: 4032, height: 3024)

  func testOutputScaleTwoDoublesEverything() {
    let one = Geometry.place(source: phone, guide: .circle(256), placement: Placement())
    let two = Geometry.place(
      source: phone, guide: .circle(256), placement: Placement(), outputScale: 2)
    XCTAssertEqual(two.outputSize, PixelSize(side: 512))
    XCTAssertEqual(two.scale, 2 * one.scale, accuracy: 1e-15)
    assertAffine(two.transform, Affine.scale(2) * one.transform, accuracy: 1e-9)
    XCTAssertEqual(two.sourceRegion, one.sourceRegion)
    assertRect(two.guideRect, Rect(x: 0, y: 0, width: 512, height: 512))
  }

  func testWidthsFromABannerGuide() {
    let guide = Guide.rect(width: 1600, height: 900)
    let r = Geometry.place(source: phone, guide: guide, placement: Placement(), outputScale: 0.4)
    XCTAssertEqual(r.outputSize, PixelSize(width: 640, height: 360))
    XCTAssertTrue(r.coversOutput)
    let full = Geometry.place(source: phone, guide: guide, placement: Placement())
    assertRect(r.sourceRegion, full.sourceRegion, accuracy: 1e-9)
  }

  func testNonIntegerSizesAreRoundedAndStillCovered() {
    // 901 × 0.4 = 360.4 → 360 rows; the guide is fitted over the rounded output.
    let r = Geometry.place(
      source: phone, guide: .rect(width: 1600, height: 901), placement: Placement(),
      outputScale: 0.4)
    XCTAssertEqual(r.outputSize, PixelSize(width: 640, height: 360))
    XCTAssertTrue(r.coversOutput)
    assertPoint(r.transform.apply(r.centre), Point(x: 320, y: 180), accuracy: 1e-9)
  }

  func testOutputIsAlwaysCoveredUnderCoverAndClampAtAnyScale() {
    var rng = SeededRandom(seed: 31)
    for _ in 0..<500 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      let k = Double.random(in: 0.05...3, using: &rng)
      let r = Geometry.place(
        source: source, guide: guide,
        placement: Placement(rotate: .random(in: -20...20, using: &rng)), outputScale: k)
      XCTAssertTrue(r.coversOutput, "\(source) \(guide.size) k=\(k)")
      assertPoint(r.transform.apply(r.centre), Size(r.outputSize).centre, accuracy: 1e-6)
      let expected = PixelSize(rounding: Size(guide.size) * k)
      XCTAssertEqual(r.outputSize, expected)
    }
  }

  func testMinimumOutputIsOnePixel() {
    let r = Geometry.place(
      source: phone, guide: .square(16), placement: Placement(), outputScale: 0.01)
    XCTAssertEqual(r.outputSize, PixelSize(side: 1))
  }

  func testUpscalingIsNoted() {
    let r = Geometry.place(
      source: Size(width: 200, height: 100), guide: .square(400), placement: Placement())
    XCTAssertEqual(r.scale, 4)
    XCTAssertEqual(r.outputSize, PixelSize(side: 400))
    XCTAssertEqual(r.notes, [.upscaling(factor: 4)])
  }

  func testUpscaleFalseCapsAtOneOutputPixelPerSourcePixel() {
    let source = Size(width: 200, height: 100)
    let capped = Geometry.place(
      source: source, guide: .square(400), placement: Placement(upscale: false))
    XCTAssertEqual(capped.scale, 1)
    XCTAssertEqual(capped.outputSize, PixelSize(side: 100))
    XCTAssertEqual(
      capped.notes,
      [.upscaleCapped(requested: PixelSize(side: 400), actual: PixelSize(side: 100))])
    XCTAssertEqual(capped.sourceRegion, Rect(x: 50, y: 0, width: 100, height: 100))
    XCTAssertTrue(capped.coversOutput)
    // Capping shrinks the output, never the sampled part of the photo.
    let uncapped = Geometry.place(source: source, guide: .square(400), placement: Placement())
    XCTAssertEqual(capped.sourceRegion, uncapped.sourceRegion)
  }

  func testUpscaleCapKeepsTheGuideAspect() {
    let r = Geometry.place(
      source: Size(width: 800, height: 600), guide: .rect(width: 1600, height: 900),
      placement: Placement(upscale: false))
    XCTAssertEqual(r.outputSize, PixelSize(width: 800, height: 450))
    XCTAssertEqual(r.scale, 1)
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 75, width: 800, height: 450))
  }

  func testUpscaleCapAppliesToRetinaScales() {
    // 300 px photo, 256 guide: @1x is a downscale, @2x and @3x would upscale.
    let source = Size(width: 300, height: 300)
    let sizes = [1.0, 2, 3].map {
      Geometry.place(
        source: source, guide: .circle(256), placement: Placement(upscale: false), outputScale: $0
      ).outputSize
    }
    XCTAssertEqual(sizes, [PixelSize(side: 256), PixelSize(side: 300), PixelSize(side: 300)])
  }

  func testUpscaleFalseNeverExceedsOne() {
    var rng = SeededRandom(seed: 41)
    for _ in 0..<500 {
      var placement = randomPlacement(&rng)
      placement.upscale = false
      let r = Geometry.place(
        source: randomSource(&rng), guide: randomGuide(&rng), placement: placement,
        outputScale: randomOutputScale(&rng))
      if r.outputSize.width > 1 && r.outputSize.height > 1 {
        XCTAssertLessThanOrEqual(r.scale, 1 + 1e-9)
      }
      XCTAssertFalse(r.notes.contains { if case .upscaling = $0 { true } else { false } })
    }
  }
}
