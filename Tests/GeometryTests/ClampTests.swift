import CropGeometry
import TestSupport
import XCTest

final class ClampTests: XCTestCase {
  func testClampStopsADragAtThePhotoEdge() {
    // 1000x1000 photo, 100x100 guide at zoom 2: 500x500 region, room of 250 each way.
    let source = Size(width: 1000, height: 1000)
    let r = Geometry.place(
      source: source, guide: .square(100),
      placement: Placement(zoom: 2, offset: Point(x: 80, y: -10)))
    // Dragging right by 80 guide px = 400 source px, but only 250 are available.
    XCTAssertEqual(r.sourceRegion, Rect(x: 0, y: 300, width: 500, height: 500))
    XCTAssertEqual(r.centre, Point(x: 250, y: 550))
    XCTAssertTrue(r.coversOutput)
  }

  func testClampCentresAnAxisThatCannotBeCovered() {
    // Zoom 0.5 of cover: the photo is half as wide as the guide horizontally.
    let r = Geometry.place(
      source: Size(width: 1000, height: 1000), guide: .square(100),
      placement: Placement(zoom: 0.5, focus: Point(x: 0, y: 0)))
    XCTAssertEqual(r.centre, Point(x: 500, y: 500))
    assertPoint(r.transform.apply(.zero), Point(x: 25, y: 25))
    XCTAssertEqual(r.notes, [.guideNotCovered])
  }

  /// With clamp, the output's preimage lies inside the photo whenever the photo can cover
  /// the guide (cover, zoom ≥ 1), whatever the focus, offset, rotation, flip and scale.
  func testClampKeepsThePreimageInsideThePhoto() {
    var rng = SeededRandom(seed: 2024)
    for _ in 0..<1000 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      var placement = randomPlacement(&rng, fits: [.cover], overflows: [.clamp])
      placement.zoom = Double.random(in: 1...5, using: &rng)
      let k = randomOutputScale(&rng)
      let r = Geometry.place(source: source, guide: guide, placement: placement, outputScale: k)
      let photo = Rect(size: source)
      for p in outputPreimage(r) {
        XCTAssertTrue(photo.contains(p, tolerance: 1e-6), "\(p) outside \(source): \(placement)")
      }
      XCTAssertTrue(r.coversOutput)
      XCTAssertFalse(r.notes.contains(.guideNotCovered))
      XCTAssertTrue(photo.contains(r.sourceRegion, tolerance: 1e-9))
    }
  }

  /// For every random placement, sourceRegion stays inside the photo.
  func testSourceRegionAlwaysInsideThePhoto() {
    var rng = SeededRandom(seed: 99)
    for _ in 0..<1000 {
      let source = randomSource(&rng)
      let placement = randomPlacement(&rng)
      let r = Geometry.place(
        source: source, guide: randomGuide(&rng), placement: placement,
        outputScale: randomOutputScale(&rng))
      XCTAssertTrue(Rect(size: source).contains(r.sourceRegion, tolerance: 1e-9))
      XCTAssertGreaterThanOrEqual(r.outputSize.width, 1)
      XCTAssertGreaterThanOrEqual(r.outputSize.height, 1)
      XCTAssertEqual(r.coversOutput, !r.notes.contains(.guideNotCovered))
    }
  }

  /// Clamp moves the photo the least: a placement that already covers is left alone, and a
  /// moved axis ends with the preimage touching the photo's edge on that axis.
  func testClampIsMinimal() {
    var rng = SeededRandom(seed: 5)
    for _ in 0..<600 {
      let source = randomSource(&rng)
      let guide = randomGuide(&rng)
      var placement = randomPlacement(&rng, fits: [.cover], overflows: [.fill])
      placement.zoom = Double.random(in: 1...4, using: &rng)
      placement.upscale = true
      let free = Geometry.place(source: source, guide: guide, placement: placement)
      placement.overflow = .clamp
      let clamped = Geometry.place(source: source, guide: guide, placement: placement)
      if free.coversOutput {
        assertAffine(clamped.transform, free.transform, accuracy: 1e-9)
        continue
      }
      let pre = outputPreimage(clamped)
      let xs = pre.map(\.x)
      let ys = pre.map(\.y)
      let tol = 1e-6 * max(source.width, source.height)
      if abs(clamped.centre.x - free.centre.x) > 1e-9 {
        XCTAssertTrue(abs(xs.min()!) < tol || abs(xs.max()! - source.width) < tol)
      }
      if abs(clamped.centre.y - free.centre.y) > 1e-9 {
        XCTAssertTrue(abs(ys.min()!) < tol || abs(ys.max()! - source.height) < tol)
      }
      XCTAssertTrue(clamped.coversOutput)
    }
  }

  func testClampCentreHelperDirectly() {
    let linear = Affine.scale(0.1)
    let c = Geometry.clampCentre(
      Point(x: -50, y: 2900), source: Size(width: 4000, height: 3000),
      guide: Size(width: 100, height: 100), linear: linear)
    assertPoint(c, Point(x: 500, y: 2500))
  }
}
