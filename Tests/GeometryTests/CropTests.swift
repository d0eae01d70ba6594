import CropGeometry
import TestSupport
import XCTest

final class CropTests: XCTestCase {
  let source = Size(width: 3000, height: 2000)

  func testCropReturnsExactlyItsRectangle() {
    let crop = CropRect(x: 410, y: 220, width: 1400, height: 1400)
    let r = Geometry.place(source: source, guide: .circle(256), placement: Placement(crop: crop))
    XCTAssertEqual(r.outputSize, PixelSize(side: 256))
    XCTAssertEqual(r.sourceRegion, crop.rect)
    XCTAssertEqual(r.scale, 256.0 / 1400, accuracy: 1e-15)
    XCTAssertEqual(r.centre, Point(x: 1110, y: 920))
    XCTAssertEqual(r.notes, [])
    XCTAssertTrue(r.coversOutput)
    let outCorners = r.outputRect.corners
    for (src, out) in zip(crop.rect.corners, outCorners) {
      assertPoint(r.transform.apply(src), out, accuracy: 1e-9)
    }
  }

  /// Issue 28.8: geometry.md says reported coordinates are snapped to whole numbers within
  /// 1e-7; a crop's width and height at fractional positions are reported whole.
  func testCropSidesAtFractionalPositionsAreReportedWhole() {
    for tenth in 0..<1000 {
      let at = Double(tenth) / 10
      let crop = CropRect(x: at, y: at + 0.05, width: 900, height: 900)
      let r = Geometry.place(source: source, guide: .square(256), placement: Placement(crop: crop))
      XCTAssertEqual(r.sourceRegion.width, 900, "x \(at)")
      XCTAssertEqual(r.sourceRegion.height, 900, "y \(at + 0.05)")
    }
  }

  /// Issue 28.7: a crop that shares no area with the photo is an error for that photo (it
  /// would write the background alone); one that overlaps it, even turned, is not.
  func testCropWhollyOutsideThePhotoIsAProblem() {
    let outside = [
      CropRect(x: 3000, y: 0, width: 100, height: 100),  // touching the right edge
      CropRect(x: -200, y: 500, width: 150, height: 150),
      CropRect(x: 500, y: 2500, width: 100, height: 100),
      CropRect(x: 3100, y: 2100, width: 100, height: 100, angle: 45),
    ]
    for crop in outside {
      let problems = Geometry.validate(source: source, guide: .square(256), placement: Placement(crop: crop))
      XCTAssertEqual(problems.count, 1, "\(crop)")
      XCTAssertTrue(problems.first?.contains("lies wholly outside the 3000x2000 photo") ?? false, "\(problems)")
    }
    let overlapping = [
      CropRect(x: 2950, y: 0, width: 100, height: 100),
      CropRect(x: -99, y: -99, width: 100, height: 100),
      // Its unturned rectangle is outside; turned by 45° about its centre it reaches in.
      CropRect(x: 3010, y: 900, width: 200, height: 200, angle: 45),
    ]
    for crop in overlapping {
      XCTAssertEqual(
        Geometry.validate(source: source, guide: .square(256), placement: Placement(crop: crop)), [], "\(crop)")
    }
  }

  func testCropIgnoresFitZoomFocusOffsetAndRotate() {
    let crop = CropRect(x: 100, y: 100, width: 800, height: 600)
    let plain = Geometry.place(
      source: source, guide: .rect(width: 400, height: 300), placement: Placement(crop: crop))
    let noisy = Geometry.place(
      source: source, guide: .rect(width: 400, height: 300),
      placement: Placement(
        fit: .contain, zoom: 3, offset: Point(x: 50, y: 9), focus: Point(x: 0.9, y: 0.1),
        rotate: 33, crop: crop))
    XCTAssertEqual(plain.transform, noisy.transform)
    XCTAssertEqual(plain.sourceRegion, crop.rect)
  }

  func testRandomCropsMapCornerToCorner() {
    var rng = SeededRandom(seed: 21)
    for _ in 0..<300 {
      let w = Double.random(in: 10...2000, using: &rng)
      let guideW = Int.random(in: 16...1024, using: &rng)
      let guideH = Int.random(in: 16...1024, using: &rng)
      let h = w * Double(guideH) / Double(guideW)  // same aspect as the guide
      let crop = CropRect(
        x: .random(in: 0...(max(0, 3000 - w)), using: &rng),
        y: .random(in: 0...(max(0, 2000 - h)), using: &rng), width: w, height: h)
      let r = Geometry.place(
        source: source, guide: .rect(width: guideW, height: guideH),
        placement: Placement(crop: crop))
      XCTAssertEqual(r.outputSize, PixelSize(width: guideW, height: guideH))
      let region = crop.rect.intersection(Rect(size: source))!
      assertRect(r.sourceRegion, region, accuracy: 1e-6)
      assertPoint(r.transform.apply(crop.rect.origin), .zero, accuracy: 1e-6)
      assertPoint(
        r.transform.apply(Point(x: crop.rect.maxX, y: crop.rect.maxY)),
        Point(x: Double(guideW), y: Double(guideH)), accuracy: 1e-6)
    }
  }

  func testRotatedCropEqualsRotateAboutItsCentre() {
    let crop = CropRect(x: 1000, y: 500, width: 800, height: 600, angle: 30)
    let guide = Guide.rect(width: 400, height: 300)
    let r = Geometry.place(source: source, guide: guide, placement: Placement(crop: crop))
    let same = Geometry.place(
      source: source, guide: guide,
      placement: Placement(
        fit: .none, zoom: 0.5, focus: Point(x: 1400.0 / 3000, y: 800.0 / 2000), rotate: 30,
        overflow: .fill))
    assertAffine(r.transform, same.transform, accuracy: 1e-9)
    XCTAssertEqual(r.angle, 30)
    // The sampled region's corners (the rect turned by −30°) land on the output corners.
    for (src, out) in zip(crop.regionCorners, r.outputRect.corners) {
      assertPoint(r.transform.apply(src), out, accuracy: 1e-9)
    }
    assertRect(r.sourceRegion, Rect.boundingBox(of: crop.regionCorners)!, accuracy: 1e-9)
    XCTAssertTrue(r.coversOutput)
  }

  func testFlippedCropSamplesTheSameRegion() {
    let crop = CropRect(x: 1000, y: 500, width: 800, height: 600, angle: 12)
    let guide = Guide.rect(width: 400, height: 300)
    let plain = Geometry.place(source: source, guide: guide, placement: Placement(crop: crop))
    let flipped = Geometry.place(
      source: source, guide: guide, placement: Placement(flipHorizontal: true, crop: crop))
    assertRect(flipped.sourceRegion, plain.sourceRegion, accuracy: 1e-9)
    assertPoint(flipped.transform.apply(crop.regionCorners[0]), Point(x: 400, y: 0), accuracy: 1e-9)
  }

  /// The tolerance is 1 % (docs/geometry.md): a crop 2.2 % off the guide's aspect keeps its
  /// own aspect and says so; one 0.5 % off takes the guide's.
  func testCropAspectToleranceIsOnePercent() {
    let guide = Guide.rect(width: 640, height: 360)
    // 1280 x 736: 1.739 against 1.778.
    let off = Geometry.place(
      source: source, guide: guide, placement: Placement(crop: CropRect(x: 0, y: 0, width: 1280, height: 736)))
    XCTAssertEqual(off.outputSize, PixelSize(width: 640, height: 368))
    XCTAssertEqual(off.notes, [.cropAspectMismatch(cropAspect: 1280.0 / 736, guideAspect: 640.0 / 360)])
    // 1280 x 723: 1.770, within 1 %.
    let near = Geometry.place(
      source: source, guide: guide, placement: Placement(crop: CropRect(x: 0, y: 0, width: 1280, height: 723)))
    XCTAssertEqual(near.outputSize, PixelSize(width: 640, height: 360))
    XCTAssertEqual(near.notes, [])
  }

  func testCropAspectMismatchKeepsTheCropAspect() {
    let crop = CropRect(x: 0, y: 0, width: 1600, height: 900)
    let r = Geometry.place(source: source, guide: .square(256), placement: Placement(crop: crop))
    // s = 256/1600 = 0.16; output height = round(900 × 0.16) = 144 instead of 256.
    XCTAssertEqual(r.outputSize, PixelSize(width: 256, height: 144))
    XCTAssertEqual(r.scale, 0.16, accuracy: 1e-15)
    XCTAssertEqual(r.sourceRegion, crop.rect)
    XCTAssertEqual(r.notes, [.cropAspectMismatch(cropAspect: 1600.0 / 900, guideAspect: 1)])
    XCTAssertTrue(r.coversOutput)
  }

  func testCropAspectWithinOnePercentIsAccepted() {
    let crop = CropRect(x: 0, y: 0, width: 1000, height: 1005)
    let r = Geometry.place(source: source, guide: .square(200), placement: Placement(crop: crop))
    XCTAssertEqual(r.outputSize, PixelSize(side: 200))
    XCTAssertEqual(r.notes, [])
    XCTAssertEqual(r.scale, 0.2, accuracy: 1e-15)
  }

  func testCropPartlyOutsideThePhotoIsNotMovedAndIsNoted() {
    let crop = CropRect(x: -100, y: -100, width: 500, height: 500)
    let r = Geometry.place(
      source: Size(width: 1000, height: 1000), guide: .square(100),
      placement: Placement(crop: crop, overflow: .clamp))
    assertPoint(r.transform.apply(Point(x: -100, y: -100)), .zero)
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 0, width: 400, height: 400))
    XCTAssertFalse(r.coversOutput)
    XCTAssertEqual(r.notes, [.cropOutsidePhoto, .guideNotCovered])
  }

  func testCropAtOutputScaleTwo() {
    let crop = CropRect(x: 410, y: 220, width: 1400, height: 1400)
    let r = Geometry.place(
      source: source, guide: .circle(256), placement: Placement(crop: crop), outputScale: 2)
    XCTAssertEqual(r.outputSize, PixelSize(side: 512))
    XCTAssertEqual(r.sourceRegion, crop.rect)
  }
}
