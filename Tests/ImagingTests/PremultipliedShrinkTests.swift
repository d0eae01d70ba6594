import CVipsShim
import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The colour of fully transparent pixels is invisible and must stay so: the box pre-shrink
/// averages premultiplied pixels, as the affine does, so a transparent red area beside an
/// opaque green one leaves no red fringe (PNG logos often store black or garbage under
/// alpha 0).
final class PremultipliedShrinkTests: XCTestCase {
  func testTransparentColourDoesNotBleedThroughThePreShrink() throws {
    Vips.start()
    // 400x400 RGBA: opaque green left of x = 202, transparent red from there on (202 is not
    // a multiple of the box factor, so a box straddles the edge).
    let side = 400
    var bytes = [UInt8](repeating: 0, count: side * side * 4)
    for y in 0..<side {
      for x in 0..<side {
        let i = (y * side + x) * 4
        bytes[i..<i + 4] = x < 202 ? [0, 255, 0, 255] : [255, 0, 0, 0]
      }
    }
    var pointer: OpaquePointer?
    XCTAssertEqual(
      bytes.withUnsafeBytes { cj_from_memory($0.baseAddress, $0.count, Int32(side), Int32(side), 4, &pointer) }, 0)
    let raw = VipsImage(try XCTUnwrap(pointer), path: "synthetic")
    // Through a real RGBA PNG file, decoded as cropjob decodes any source.
    var buffer: UnsafeMutableRawPointer?
    var length = 0
    XCTAssertEqual(cj_pngsave(raw.pointer, 1, 0, 100, 1, &buffer, &length), 0)
    let png = Data(bytes: try XCTUnwrap(buffer), count: length)
    cj_free(buffer)
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("half-transparent.png").path
    try png.write(to: URL(fileURLWithPath: path))
    let header = try SourceHeader.read(path: path)
    XCTAssertTrue(header.hasAlpha)
    let source = try DecodedSource.decode(path: path, header: header, shrink: 1)

    // A quarter-size output: the renderer box-shrinks by 4 before the affine.
    let placement = Placement(
      fit: .none, zoom: 0.25, offset: Point(x: 0, y: 0), focus: Point(x: 0.5, y: 0.5), rotate: 0,
      flipHorizontal: false, flipVertical: false, crop: nil, overflow: .clamp, upscale: true)
    let geometry = Geometry.place(
      source: Size(width: Double(side), height: Double(side)), guide: .square(100), placement: placement)
    let style = RenderStyle(circle: false, alpha: true, background: [0, 0, 0, 0])
    let output = try TestPixels(Renderer.render(source, geometry: geometry, style: style))
    XCTAssertEqual([output.width, output.height, output.bands], [100, 100, 4])
    var worstRed = 0.0
    var edgeAlphas = Set<Double>()
    for y in 0..<100 {
      for x in 0..<100 where output.value(x, y, 3) >= 8 {
        worstRed = max(worstRed, output.value(x, y, 0))
        if output.value(x, y, 3) < 250 { edgeAlphas.insert(output.value(x, y, 3)) }
      }
    }
    XCTAssertFalse(edgeAlphas.isEmpty, "the edge should be antialiased")
    XCTAssertLessThanOrEqual(worstRed, 2, "red from transparent pixels shows through (\(worstRed)/255)")
  }
}
