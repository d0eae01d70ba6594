import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import TestSupport
import XCTest

/// JPEG shrink-on-load must not move the picture: an output rendered from a source decoded
/// at 1/2, 1/4 or 1/8 size sits on exactly the same pixels as the same output rendered from
/// the full-size decode (only the pre-filter differs).
///
/// libvips decodes whole blocks of `shrink` stored pixels (a partial last block is dropped:
/// 1067 rows at shrink 4 give 266 rows, not 266.75), so a decoded pixel is exactly `shrink`
/// stored pixels, counted from the stored image's top-left corner, which EXIF orientation may
/// move to any corner. Mapping source pixels to decoded pixels by the ratio of the sizes
/// (266 / 1067) instead shifted outputs by up to 0.75 output pixels.
final class ShrinkOnLoadAlignmentTests: XCTestCase {
  /// (sample, shrink): sizes that are not multiples of the shrink, upright and upside down.
  static let cases: [(String, Int)] = [
    ("sunset-upside-down-3.jpg", 4),  // 1600x1067 stored, orientation 3
    ("sunset-upside-down-3.jpg", 2),
    ("bridge.jpg", 8),  // 1600x900 upright: 112.5 blocks down
    ("dragonfly-sideways-6.jpg", 8),  // 1600x1200 stored, orientation 6
  ]

  func testShrinkOnLoadKeepsThePictureInPlace() throws {
    for (name, shrink) in Self.cases {
      let path = TestPaths.sample(name)
      let header = try SourceHeader.read(path: path)
      let source = Size(width: Double(header.width), height: Double(header.height))
      // A 3/4-size crop off centre, at a scale the shrink leaves full resolution for.
      let scale = 1 / Double(shrink)
      let guide = Guide.rect(
        width: Int(source.width * scale * 0.75), height: Int(source.height * scale * 0.75))
      let placement = Placement(
        fit: .none, zoom: scale, offset: Point(x: 0, y: 0), focus: Point(x: 0.45, y: 0.55), rotate: 0,
        flipHorizontal: false, flipVertical: false, crop: nil, overflow: .clamp, upscale: true)
      let geometry = Geometry.place(source: source, guide: guide, placement: placement)
      XCTAssertEqual(header.loadShrink(maxOutputScale: geometry.scale), shrink, name)
      let style = RenderStyle(circle: false, alpha: false, background: [255, 255, 255, 255])
      let full = try DecodedSource.decode(path: path, header: header, shrink: 1)
      let shrunk = try DecodedSource.decode(path: path, header: header, shrink: shrink)
      let a = try TestPixels(Renderer.render(full, geometry: geometry, style: style))
      let b = try TestPixels(Renderer.render(shrunk, geometry: geometry, style: style))
      let shift = try XCTUnwrap(a.shift(to: b), "\(name) /\(shrink): no gradient to measure a shift by")
      print(
        String(
          format: "shrink-on-load %@ /%d: %@ output, the shrunk decode's picture is displaced by (%+.3f, %+.3f) px",
          name, shrink, "\(geometry.outputSize)", shift.x, shift.y))
      XCTAssertLessThan(abs(shift.x), 0.1, "\(name) /\(shrink): horizontal shift \(shift.x) px")
      XCTAssertLessThan(abs(shift.y), 0.1, "\(name) /\(shrink): vertical shift \(shift.y) px")
    }
  }
}
