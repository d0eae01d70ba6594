import CropGeometry
import TestSupport
import XCTest

/// `Geometry.placeAboutBoxes`: padded boxes kept inside the guide when they fit together, the
/// padding shrunk before a box is dropped, as many as fit when they do not, low scores
/// dropped, a face too large placed about its eyes-to-chin centre (docs/geometry.md, "Faces and regions", has these
/// numbers).
final class BoxPlacementTests: XCTestCase {
  let photo = Size(width: 4000, height: 3000)

  func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, score: Double = 1) -> FocusBox {
    FocusBox(rect: Rect(x: x, y: y, width: w, height: h), origin: .detector("test"), score: score)
  }

  func testPaddingGrowsEachSideByAFractionOfTheBoxAndClipsToThePhoto() {
    let box = face(3200, 500, 400, 400)
    assertRect(box.padded(0.3, within: Rect(size: photo))!, Rect(x: 3080, y: 380, width: 640, height: 640))
    // 0.3 × 400 = 120 would reach x 4120: clipped at the photo's right edge (4000).
    assertRect(
      face(3700, 0, 400, 200).padded(0.3, within: Rect(size: photo))!, Rect(x: 3580, y: 0, width: 420, height: 260))
    XCTAssertNil(face(-500, -500, 100, 100).padded(0.3, within: Rect(size: photo)))
  }

  /// A box without area (a stored focus point) stays a point, on the photo's edge too; a
  /// line stays a line; either is nil only off the photo.
  func testAPointOrALineStaysAsItIs() {
    let frame = Rect(size: photo)
    XCTAssertEqual(face(3000, 750, 0, 0).padded(0.3, within: frame), Rect(x: 3000, y: 750, width: 0, height: 0))
    XCTAssertEqual(face(4000, 0, 0, 0).padded(0.3, within: frame), Rect(x: 4000, y: 0, width: 0, height: 0))
    XCTAssertEqual(face(100, 200, 1000, 0).padded(0.3, within: frame), Rect(x: 0, y: 200, width: 1400, height: 0))
    XCTAssertNil(face(4001, 10, 0, 0).padded(0.3, within: frame))
    XCTAssertNil(face(10, -1, 0, 0).padded(0.3, within: frame))
  }

  /// A focus point alone is placed like the point focus `[0.75, 0.25]`: at zoom 3 (a 1000 px
  /// window) its centre is (3000, 750), the point itself, and the point is kept inside.
  /// Beside a face, it is one more point the union must hold.
  func testAFocusPointIsPlacedLikeAPointFocus() throws {
    let point = face(3000, 750, 0, 0)
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [point], padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    let reference = Geometry.place(
      source: photo, guide: .square(1000), placement: Placement(zoom: 3, focus: Point(x: 0.75, y: 0.25)))
    XCTAssertEqual(result.geometry, reference)
    assertPoint(result.geometry.centre, Point(x: 3000, y: 750))
    XCTAssertEqual(result.kept, [0])
    XCTAssertEqual(result.notes, [])
    // With a face at (2400…2600, 1000…1200), padded 2340…2660 × 940…1260: the union with the
    // point spans 2340…3000 × 750…1260, centre (2670, 1005).
    let both = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [point, face(2400, 1000, 200, 200)], padding: 0.3, source: photo, guide: .square(1000),
        placement: Placement(zoom: 3)))
    XCTAssertEqual(both.kept, [0, 1])
    assertPoint(both.geometry.centre, Point(x: 2670, y: 1005))
  }

  /// One face near the top-right corner: the focus is the padded box's centre (3400, 700),
  /// the clamp moves the centre to (2500, 1500), and the box is still inside.
  func testOneFaceNearAnEdgeStaysInsideAfterTheClamp() throws {
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [face(3200, 500, 400, 400)], padding: 0.3, source: photo, guide: .square(1000), placement: Placement()))
    assertPoint(result.focus, Point(x: 3400.0 / 4000, y: 700.0 / 3000))
    assertPoint(result.geometry.centre, Point(x: 2500, y: 1500))
    XCTAssertEqual(result.kept, [0])
    XCTAssertEqual(result.notes, [])
    // The padded box (3080…3720, 380…1020) in output pixels (scale 1/3, window x 1000…4000).
    let corners = Rect(x: 3080, y: 380, width: 640, height: 640).corners.map(result.geometry.transform.apply)
    assertPoint(corners[0], Point(x: 2080.0 / 3, y: 380.0 / 3))
    assertPoint(corners[2], Point(x: 2720.0 / 3, y: 340))
  }

  /// Two faces 1000 px apart at zoom 3 (a 1000 × 1000 window): their padded boxes (380…1020
  /// and 2410…2890 across) span 2510 px and cannot both fit; the larger (400 px) is kept.
  func testFacesThatDoNotFitKeepTheLargest() throws {
    let placement = Placement(zoom: 3)
    let boxes = [face(2500, 1000, 300, 300), face(500, 1000, 400, 400)]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(boxes, padding: 0.3, source: photo, guide: .square(1000), placement: placement))
    XCTAssertEqual(result.kept, [1])
    XCTAssertEqual(result.dropped, [.doesNotFit, nil])
    XCTAssertEqual(result.notes, [.focusBoxesDoNotFit(boxes: 2, kept: 1)])
    XCTAssertEqual(result.padding, 0.3, "the one kept fits with its full padding")
    assertPoint(result.geometry.centre, Point(x: 700, y: 1200))
    XCTAssertTrue(Geometry.boxInside(result.padded[1]!, geometry: result.geometry, shape: .square))
    XCTAssertFalse(Geometry.boxInside(result.padded[0]!, geometry: result.geometry, shape: .square))
  }

  /// Two faces whose padded boxes span 820 × 420 px fit the 1000 px window: both inside,
  /// centred on their bounding box's centre (1350, 1150).
  func testFacesThatFitAreAllInside() throws {
    let boxes = [face(1000, 1000, 200, 200), face(1500, 1100, 200, 200)]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(boxes, padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.kept, [0, 1])
    XCTAssertEqual(result.notes, [])
    assertPoint(result.geometry.centre, Point(x: 1350, y: 1150))
    for box in result.padded { XCTAssertTrue(Geometry.boxInside(box!, geometry: result.geometry, shape: .square)) }
  }

  /// A face of 900 px in the 1000 px window (zoom 3, scale 1): padded by 0.3 it is 1440 px and
  /// does not fit, bare it does, so the padding shrinks to the largest that fits. The box's
  /// edges lie 450 + 900p from the centre, and may reach 500 + 0.5 (the output tolerance):
  /// p = 50.5 / 900 = 0.05611, to the bisection's 0.3 / 1024.
  func testAFaceLargerThanTheGuideWithPaddingKeepsLessPadding() throws {
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [face(1000, 1000, 900, 900)], padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.padding, 50.5 / 900, accuracy: 0.3 / 1024)
    XCTAssertLessThanOrEqual(result.padding, 50.5 / 900)
    XCTAssertEqual(result.notes, [.facePaddingReduced(from: 0.3, to: result.padding)])
    XCTAssertEqual(result.kept, [0])
    assertPoint(result.geometry.centre, Point(x: 1450, y: 1450))
    XCTAssertTrue(Geometry.boxInside(result.padded[0]!, geometry: result.geometry, shape: .square))
  }

  /// Two 300 px faces 600 px apart (x 1000…1900 bare) in the 1000 px window: with padding p
  /// their union spans 900 + 600p, and the edges may reach 0.5 px past the window, so
  /// p = 50.5 / 300 = 0.16833: the padding shrinks, no face is dropped.
  func testPaddingShrinksBeforeAFaceIsDropped() throws {
    let boxes = [face(1000, 1000, 300, 300), face(1600, 1000, 300, 300)]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(boxes, padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.kept, [0, 1])
    XCTAssertEqual(result.dropped, [nil, nil])
    XCTAssertEqual(result.padding, 50.5 / 300, accuracy: 0.3 / 1024)
    XCTAssertEqual(result.notes, [.facePaddingReduced(from: 0.3, to: result.padding)])
    assertPoint(result.geometry.centre, Point(x: 1450, y: 1150))
    for box in result.padded { XCTAssertTrue(Geometry.boxInside(box!, geometry: result.geometry, shape: .square)) }
  }

  /// Three faces in the 1000 px window: A (500…800) and B (900…1200) fit together bare
  /// (700 px), C (2500…2900, larger) fits with neither. Keeping as many as fit keeps A and B,
  /// not the larger C alone: centre of A and B padded (0.3: 410…1290 × 910…1390) = (850, 1150).
  func testAGroupKeepsAsManyFacesAsFit() throws {
    let boxes = [
      face(500, 1000, 300, 300, score: 90), face(900, 1000, 300, 300, score: 90),
      face(2500, 1000, 400, 400, score: 75),
    ]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(boxes, padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.kept, [0, 1])
    XCTAssertEqual(result.dropped, [nil, nil, .doesNotFit])
    XCTAssertEqual(result.padding, 0.3)
    XCTAssertEqual(result.notes, [.focusBoxesDoNotFit(boxes: 3, kept: 2)])
    assertPoint(result.geometry.centre, Point(x: 850, y: 1150))
  }

  /// Of two faces that fit together, the one scored 70 beside a best of 95 (below 0.8 × 95 =
  /// 76) is dropped: the focus is the sure face's padded centre (1100, 1100) alone.
  func testALowScoreBoxIsDroppedRelativeToTheBest() throws {
    let boxes = [face(1000, 1000, 200, 200, score: 95), face(1500, 1100, 200, 200, score: 70)]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(boxes, padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.kept, [0])
    XCTAssertEqual(result.dropped, [nil, .lowScore(score: 70, best: 95)])
    XCTAssertEqual(result.notes, [])
    assertPoint(result.geometry.centre, Point(x: 1100, y: 1100))
    XCTAssertEqual(
      result.dropped[1]?.description, "score 70 is below 80 % of the best (95)")
    // At 76 (0.8 × 95) it stays.
    let kept = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [boxes[0], face(1500, 1100, 200, 200, score: 76)], padding: 0.3, source: photo, guide: .square(1000),
        placement: Placement(zoom: 3)))
    XCTAssertEqual(kept.kept, [0, 1])
  }

  /// A face of 1200 px does not fit the 1000 px window even bare: the focus is its
  /// eyes-to-chin centre, x (1500 + 1500) / 2 (eyes' and mouth's middles), y halfway from the
  /// eyes (1400) to the box's bottom (2200) = 1800, not the box's centre (1600, 1600).
  func testAFaceLargerThanTheGuideIsPlacedAboutItsEyesToChinCentre() throws {
    var big = face(1000, 1000, 1200, 1200)
    big.landmarks = [
      Point(x: 1300, y: 1400), Point(x: 1700, y: 1400), Point(x: 1500, y: 1600), Point(x: 1350, y: 1800),
      Point(x: 1650, y: 1800),
    ]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes([big], padding: 0.3, source: photo, guide: .square(1000), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.notes, [.focusBoxCutOff])
    XCTAssertEqual(result.padding, 0)
    XCTAssertEqual(result.kept, [0])
    assertPoint(result.geometry.centre, Point(x: 1500, y: 1800))
    // Without landmarks (a stored region): the box's centre.
    let plain = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [face(1000, 1000, 1200, 1200)], padding: 0.3, source: photo, guide: .square(1000),
        placement: Placement(zoom: 3)))
    assertPoint(plain.geometry.centre, Point(x: 1600, y: 1600))
  }

  /// Equal areas: the box nearer the photo's centre (2000, 1500) wins (400 px away, not 1800).
  func testEqualAreasKeepTheMostCentral() throws {
    let boxes = [face(100, 1400, 200, 200), face(2300, 1400, 200, 200)]
    let result = try XCTUnwrap(
      Geometry.placeAboutBoxes(boxes, padding: 0, source: photo, guide: .square(500), placement: Placement(zoom: 3)))
    XCTAssertEqual(result.kept, [1])
  }

  func testNoBoxOnThePhotoIsNil() {
    XCTAssertNil(Geometry.placeAboutBoxes([], padding: 0.3, source: photo, guide: .square(100), placement: Placement()))
    XCTAssertNil(
      Geometry.placeAboutBoxes(
        [face(-500, -500, 100, 100)], padding: 0.3, source: photo, guide: .square(100), placement: Placement()))
  }

  /// Under a circle guide the ellipse inscribed in the box must lie inside the circle: a
  /// 600 px box in the corner of a 3000 px photo fits the rectangle (the whole photo) but its
  /// ellipse reaches (88, 88), 1997 px from the circle's centre (1500, 1500), radius 1500.
  func testCircleGuidesKeepTheInscribedEllipse() throws {
    let square = Size(width: 3000, height: 3000)
    let box = [face(0, 0, 600, 600)]
    let rect = try XCTUnwrap(
      Geometry.placeAboutBoxes(box, padding: 0, source: square, guide: .square(1000), placement: Placement()))
    XCTAssertEqual(rect.notes, [])
    let circle = try XCTUnwrap(
      Geometry.placeAboutBoxes(box, padding: 0, source: square, guide: .circle(1000), placement: Placement()))
    XCTAssertEqual(circle.notes, [.focusBoxCutOff])
    // At zoom 2 (a 1500 px window) the same box, centred, is well inside the circle.
    let zoomed = try XCTUnwrap(
      Geometry.placeAboutBoxes(
        [face(1000, 1000, 600, 600)], padding: 0, source: square, guide: .circle(1000), placement: Placement(zoom: 2)))
    XCTAssertEqual(zoomed.notes, [])
  }

  /// The rule's claim, checked on random cases without rotation: when the padded boxes'
  /// bounding box is no larger than the window on either axis, the centre of that bounding
  /// box, clamped, keeps every padded box inside the output.
  func testBoxesThatFitStayInsideAfterClampingOnRandomCases() throws {
    var random = SeededRandom(seed: 16)
    var fitting = 0
    for round in 0..<2000 {
      let source = Size(
        width: Double.random(in: 200...5000, using: &random).rounded(),
        height: Double.random(in: 200...5000, using: &random).rounded())
      let guide = Guide.rect(
        width: Int.random(in: 50...1200, using: &random), height: Int.random(in: 50...1200, using: &random))
      let zoom = Double.random(in: 1...5, using: &random)
      let count = Int.random(in: 1...4, using: &random)
      let boxes = (0..<count).map { _ -> FocusBox in
        let w = Double.random(in: 5...(source.width / 4), using: &random)
        let h = Double.random(in: 5...(source.height / 4), using: &random)
        return face(
          Double.random(in: 0...(source.width - w), using: &random),
          Double.random(in: 0...(source.height - h), using: &random),
          w, h)
      }
      let padding = Double.random(in: 0...1, using: &random)
      let placement = Placement(zoom: zoom)
      let result = try XCTUnwrap(
        Geometry.placeAboutBoxes(boxes, padding: padding, source: source, guide: guide, placement: placement))
      let union = Rect.boundingBox(of: boxes.flatMap { $0.padded(padding, within: Rect(size: source))!.corners })!
      let scale = max(Double(guide.size.width) / source.width, Double(guide.size.height) / source.height) * zoom
      let window = Size(width: Double(guide.size.width) / scale, height: Double(guide.size.height) / scale)
      guard union.width <= window.width - 1e-6, union.height <= window.height - 1e-6 else { continue }
      fitting += 1
      XCTAssertEqual(result.kept, Array(0..<count), "round \(round)")
      XCTAssertEqual(result.notes, [], "round \(round)")
    }
    XCTAssertGreaterThan(fitting, 150)
  }
}

/// `FaceDetectionSize.longSide`: the smallest face that matters (2 % of the photo's long side,
/// or 10 % of the footprint's short side, the larger) becomes 20 px, and zoomed in `z` times the
/// copy is at least `z` × 512; at least 512, at most 1000.
final class FaceDetectionSizeTests: XCTestCase {
  func testTheCopyIsSizedFromThePhotoAndTheFootprint() {
    let photo = Size(width: 2400, height: 1200)
    // Zoom 1, square: footprint 1200 → 120 px faces → 2400 × 20 / 120 = 400 → 512.
    XCTAssertEqual(FaceDetectionSize.longSide(photo: photo, footprint: Size(width: 1200, height: 1200)), 512)
    // Zoom 2: 600 → 60 px → 800, but zoomed in 2x → 1024 → 1000.
    XCTAssertEqual(FaceDetectionSize.longSide(photo: photo, footprint: Size(width: 600, height: 600)), 1000)
    // Zoom 1.25: 960 → 96 px → 500; zoomed in 1.25x → 640.
    XCTAssertEqual(FaceDetectionSize.longSide(photo: photo, footprint: Size(width: 960, height: 960)), 640)
    // An 800 × 533 photo at zoom 1.6 (footprint 333): 10 % is 33 px → 480, zoom 1.6 → 819.2 → 820.
    XCTAssertEqual(
      FaceDetectionSize.longSide(photo: Size(width: 800, height: 533), footprint: Size(width: 333, height: 333)),
      820)
    // A banner from the photo's full width is not zoomed in (z = 1): 10 % of 800 → 80 px → 600.
    XCTAssertEqual(FaceDetectionSize.longSide(photo: photo, footprint: Size(width: 2400, height: 800)), 600)
    // Zoom 4: 300 → 30 px, below 2 % (48 px) → 48 → 1000.
    XCTAssertEqual(FaceDetectionSize.longSide(photo: photo, footprint: Size(width: 300, height: 300)), 1000)
    // A 6000 px photo zoomed in: 2 % is 120 px → 1000; 10 % of a 400 px footprint is 40, so 2 % decides.
    XCTAssertEqual(
      FaceDetectionSize.longSide(photo: Size(width: 6000, height: 4000), footprint: Size(width: 400, height: 400)),
      1000)
    // However small the footprint, 2 % of the long side is the floor: never above 1000.
    XCTAssertEqual(
      FaceDetectionSize.longSide(photo: Size(width: 10000, height: 100), footprint: Size(width: 10, height: 10)),
      1000)
    XCTAssertEqual(FaceDetectionSize.maxSide, 1000)
    XCTAssertEqual(
      FaceDetectionSize.longSide(photo: Size(width: 0, height: 0), footprint: Size(width: 0, height: 0)), 512)
  }
}
