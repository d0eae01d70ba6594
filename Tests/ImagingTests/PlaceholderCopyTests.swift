import CPixels
import CVipsShim
import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The placeholders' copy (`cj_area_average`, `cj_placeholder_copy`; docs/job-file.md,
/// "placeholders") against Tests/Oracle/area_average_oracle.py, an area average computed by
/// numpy with exact rational weights: every band, every kind of pixel (grey, grey and alpha,
/// RGB, RGBA), whole-block and fractional shrinks, within 1e-9 (the copy is exact: not rounded
/// to 8 bits on the way).
final class PlaceholderCopyTests: XCTestCase {
  /// (width, height, bands, copy width, copy height).
  static let cases = [
    (128, 128, 3, 32, 32), (128, 96, 4, 32, 24), (100, 37, 2, 32, 12), (45, 45, 1, 32, 32), (96, 64, 4, 21, 17),
    (7, 5, 3, 7, 5),
  ]

  /// Deterministic pixels with edges and, with alpha, transparent and opaque areas.
  static func pixels(_ width: Int, _ height: Int, _ bands: Int) -> [UInt8] {
    var state: UInt32 = 12345
    var bytes = [UInt8](repeating: 0, count: width * height * bands)
    for i in bytes.indices {
      state = state &* 1_103_515_245 &+ 12345
      let pixel = i / bands
      let (x, y) = (pixel % width, pixel / width)
      if (bands == 2 || bands == 4) && i % bands == bands - 1 {
        bytes[i] = x < width / 3 ? 0 : y < height / 2 ? 255 : UInt8(truncatingIfNeeded: state >> 16)
      } else {
        bytes[i] = UInt8(truncatingIfNeeded: (x * 7 + y * 3) + Int(state >> 28))
      }
    }
    return bytes
  }

  func testCopyIsTheAreaAverageOfTheOutputsPixels() throws {
    guard let python = TestPaths.python, Subprocess.succeeds(python, ["-c", "import numpy"]) else {
      throw Skipped.because("needs /usr/bin/python3 with numpy")
    }
    Vips.start()
    let folder = TestPaths.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    var input: [[String: Any]] = []
    var ours: [[Double]] = []
    for (n, (width, height, bands, w, h)) in Self.cases.enumerated() {
      let bytes = Self.pixels(width, height, bands)
      let path = folder.appendingPathComponent("case\(n).raw").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      input.append(["path": path, "width": width, "height": height, "bands": bands, "w": w, "h": h])
      // From bytes in Swift memory, and from a libvips memory image (what a run hands over).
      var direct = [Double](repeating: -1, count: w * h * 4)
      let status = bytes.withUnsafeBufferPointer { b in
        direct.withUnsafeMutableBufferPointer {
          cj_area_average(
            b.baseAddress, width * bands, Int32(width), Int32(height), Int32(bands), Int32(w), Int32(h),
            $0.baseAddress)
        }
      }
      XCTAssertEqual(status, 0)
      var pointer: OpaquePointer?
      XCTAssertEqual(
        bytes.withUnsafeBytes {
          cj_from_memory($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), &pointer)
        }, 0)
      let image = VipsImage(try XCTUnwrap(pointer), path: "synthetic")
      var fromImage = [Double](repeating: -1, count: w * h * 4)
      XCTAssertEqual(
        fromImage.withUnsafeMutableBufferPointer {
          cj_placeholder_copy(image.pointer, Int32(w), Int32(h), $0.baseAddress)
        },
        0)
      XCTAssertEqual(fromImage, direct, "case \(n)")
      ours.append(direct)
    }
    // Nothing done for a copy larger than the pixels.
    var none = [Double](repeating: 0, count: 4 * 9 * 9)
    XCTAssertEqual(
      Self.pixels(8, 8, 3).withUnsafeBufferPointer { b in
        none.withUnsafeMutableBufferPointer { cj_area_average(b.baseAddress, 24, 8, 8, 3, 9, 9, $0.baseAddress) }
      }, 1)
    let json = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
    let output = try tool(python, [TestPaths.oracle("area_average_oracle.py"), json])
    let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Double]])
    XCTAssertEqual(expected.count, ours.count)
    for (n, (reference, copy)) in zip(expected, ours).enumerated() {
      XCTAssertEqual(reference.count, copy.count, "case \(n)")
      let worst = zip(reference, copy).map { abs($0 - $1) }.max() ?? .infinity
      XCTAssertLessThanOrEqual(worst, 1e-9, "case \(n) \(Self.cases[n]): largest difference \(worst)")
    }
  }
}
