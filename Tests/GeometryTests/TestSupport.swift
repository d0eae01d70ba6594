import CropGeometry
import TestSupport
import XCTest

func assertPoint(
  _ actual: Point, _ expected: Point, accuracy: Double = 1e-9,
  _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(actual.x, expected.x, accuracy: accuracy, "x \(message)", file: file, line: line)
  XCTAssertEqual(actual.y, expected.y, accuracy: accuracy, "y \(message)", file: file, line: line)
}

func assertRect(
  _ actual: Rect, _ expected: Rect, accuracy: Double = 1e-9,
  _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertTrue(
    actual.isApproximatelyEqual(to: expected, tolerance: accuracy),
    "\(actual) != \(expected) \(message)", file: file, line: line)
}

func assertAffine(
  _ actual: Affine, _ expected: Affine, accuracy: Double = 1e-9,
  _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertTrue(
    actual.isApproximatelyEqual(to: expected, tolerance: accuracy),
    "\(actual) != \(expected) \(message)", file: file, line: line)
}

/// The preimage (in source pixels) of the output rectangle's corners.
func outputPreimage(_ r: PlacementResult) -> [Point] {
  r.outputRect.corners.map(r.inverse.apply)
}

/// A random placement for property tests (no crop).
func randomPlacement(
  _ rng: inout SeededRandom, fits: [Fit] = Fit.allCases,
  overflows: [Overflow] = Overflow.allCases
) -> Placement {
  let angles: [Double] = [0, 90, 180, 270, -90, 45]
  let rotate =
    Bool.random(using: &rng)
    ? angles.randomElement(using: &rng)! : Double.random(in: -180...180, using: &rng)
  return Placement(
    fit: fits.randomElement(using: &rng)!,
    zoom: Double.random(in: 0.2...5, using: &rng),
    offset: Point(
      x: Double.random(in: -500...500, using: &rng),
      y: Double.random(in: -500...500, using: &rng)),
    focus: Point(
      x: Double.random(in: -0.25...1.25, using: &rng),
      y: Double.random(in: -0.25...1.25, using: &rng)),
    rotate: rotate,
    flipHorizontal: Bool.random(using: &rng),
    flipVertical: Bool.random(using: &rng),
    overflow: overflows.randomElement(using: &rng)!,
    upscale: Bool.random(using: &rng))
}

func randomSource(_ rng: inout SeededRandom) -> Size {
  Size(
    width: Double(Int.random(in: 40...6000, using: &rng)),
    height: Double(Int.random(in: 40...6000, using: &rng)))
}

func randomGuide(_ rng: inout SeededRandom) -> Guide {
  let shape = GuideShape.allCases.randomElement(using: &rng)!
  let w = Int.random(in: 16...2000, using: &rng)
  let h = shape == .rect ? Int.random(in: 16...2000, using: &rng) : w
  return Guide(shape: shape, size: PixelSize(width: w, height: h))
}

func randomOutputScale(_ rng: inout SeededRandom) -> Double {
  [0.25, 0.4, 0.5, 1, 1, 1, 1.5, 2, 3, 0.3333].randomElement(using: &rng)!
}
