import CropGeometry
import TestSupport
import XCTest

/// `PlacementResult.resized(to:)`: the same placement written at another pixel size (used
/// when an output is shrunk to meet its byte budget).
final class ResizeTests: XCTestCase {
  let phone = Size(width: 4032, height: 3024)

  func testHalfSizeIsTheSameAsPlacingAtHalfTheScale() {
    let full = Geometry.place(source: phone, guide: .circle(512), placement: Placement(zoom: 1.5))
    let half = Geometry.place(source: phone, guide: .circle(512), placement: Placement(zoom: 1.5), outputScale: 0.5)
    let resized = full.resized(to: PixelSize(side: 256))
    XCTAssertEqual(resized.outputSize, half.outputSize)
    assertAffine(resized.transform, half.transform, accuracy: 1e-9)
    XCTAssertEqual(resized.scale, half.scale, accuracy: 1e-12)
    assertRect(resized.guideRect, half.guideRect, accuracy: 1e-9)
    assertRect(resized.sourceRegion, full.sourceRegion, accuracy: 1e-9)
    assertPoint(resized.centre, full.centre)
    XCTAssertEqual(resized.coversOutput, full.coversOutput)
  }

  /// Property: the output rectangle's preimage (the part of the photo shown) does not change,
  /// whatever the placement and the new size, so the picture is the planned one, smaller.
  func testThePreimageOfTheOutputIsUnchanged() {
    var rng = SeededRandom(seed: 77)
    for _ in 0..<500 {
      let r = Geometry.place(source: randomSource(&rng), guide: randomGuide(&rng), placement: randomPlacement(&rng))
      let width = Int.random(in: 1...r.outputSize.width, using: &rng)
      let height = max(1, Int((Double(width) * Double(r.outputSize.height) / Double(r.outputSize.width)).rounded()))
      let resized = r.resized(to: PixelSize(width: width, height: height))
      XCTAssertEqual(resized.outputSize, PixelSize(width: width, height: height))
      for (a, b) in zip(outputPreimage(resized), outputPreimage(r)) {
        assertPoint(a, b, accuracy: 1e-6 * max(1, abs(b.x), abs(b.y)))
      }
      // The guide keeps its place relative to the output.
      XCTAssertEqual(resized.guideRect.x / Double(width), r.guideRect.x / Double(r.outputSize.width), accuracy: 1e-12)
      XCTAssertEqual(
        resized.guideRect.height / Double(height), r.guideRect.height / Double(r.outputSize.height), accuracy: 1e-12)
    }
  }

  func testTheNoteNamesBothSizesAndTheBudget() {
    let note = PlacementNote.downsizedToBudget(from: PixelSize(side: 512), to: PixelSize(side: 104), maxBytes: 3000)
    XCTAssertEqual(note.description, "output downsized from 512x512 to 104x104 to fit max_bytes 3000")
  }
}
