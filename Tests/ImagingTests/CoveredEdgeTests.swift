import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import TestSupport
import XCTest

/// Where the photo covers the whole output, no background may show, not even in the edge
/// pixels: the cubic's taps beyond the photo's last pixel take the edge pixel, not the
/// background (docs/geometry.md 2.7: no background hairline on cover).
final class CoveredEdgeTests: XCTestCase {
  func testCoveredOutputsAreOpaqueToTheLastPixel() throws {
    let cases: [(String, String, Guide, Placement)] = [
      // Cover turned 3°: the guide's corners touch the photo's edges.
      ("rotated cover", "mountains.jpg", .rect(width: 300, height: 200), Self.place(rotate: 3)),
      ("rotated cover, box pre-shrink", "cat.png", .rect(width: 90, height: 60), Self.place(rotate: -7)),
      // 3x upscale of the photo's top-left corner: the first rows and columns lie within half
      // a source pixel of the photo's edge.
      (
        "upscaled corner crop", "astronaut.jpg", .square(300),
        Self.place(crop: CropRect(x: 0, y: 0, width: 100, height: 100))
      ),
      (
        "upscaled bottom-right crop", "cat.png", .rect(width: 200, height: 100),
        Self.place(crop: CropRect(x: 351, y: 250, width: 100, height: 50))
      ),
    ]
    for (label, sample, guide, placement) in cases {
      let path = TestPaths.sample(sample)
      let header = try SourceHeader.read(path: path)
      let geometry = Geometry.place(
        source: Size(width: Double(header.width), height: Double(header.height)), guide: guide, placement: placement)
      XCTAssertTrue(geometry.coversOutput, label)
      let shrink = header.loadShrink(maxOutputScale: geometry.scale)
      let source = try DecodedSource.decode(path: path, header: header, shrink: shrink)
      // With alpha kept, any background (transparent) that leaks in shows as alpha < 255.
      let style = RenderStyle(circle: false, alpha: true, background: [0, 0, 0, 0])
      let output = try TestPixels(Renderer.render(source, geometry: geometry, style: style))
      var lowest = 255.0
      var leaks = 0
      for y in 0..<output.height {
        for x in 0..<output.width where output.value(x, y, 3) < 255 {
          lowest = min(lowest, output.value(x, y, 3))
          leaks += 1
        }
      }
      print("\(label): \(leaks) pixels with alpha < 255 (lowest \(Int(lowest)))")
      XCTAssertEqual(leaks, 0, "\(label): background shows in \(leaks) edge pixels (alpha down to \(Int(lowest)))")
    }
  }

  static func place(rotate: Double = 0, crop: CropRect? = nil) -> Placement {
    Placement(
      fit: .cover, zoom: 1, offset: Point(x: 0, y: 0), focus: Point(x: 0.5, y: 0.5), rotate: rotate,
      flipHorizontal: false, flipVertical: false, crop: crop, overflow: .clamp, upscale: true)
  }
}
