import CropImaging
import CropPlan
import CropSpec
import Foundation
import TestSupport
import XCTest

/// The JPEG LQIP (docs/job-file.md, "placeholders"): a baseline JPEG whose three components
/// share one DC and one AC Huffman table (read from the file's own DHT and SOS segments), so
/// that a 16 px data URI carries two tables, not four.
final class LQIPTests: XCTestCase {
  /// The (class, id) of every Huffman table the JPEG defines, and the (DC, AC) table ids each
  /// scan component uses.
  static func huffmanTables(_ jpeg: [UInt8]) throws -> (defined: [[Int]], used: [[Int]]) {
    var defined: [[Int]] = []
    var used: [[Int]] = []
    var i = 2
    while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
      let marker = jpeg[i + 1]
      let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
      let body = Array(jpeg[(i + 4)..<min(jpeg.count, i + 2 + length)])
      if marker == 0xC4 {
        var j = 0
        while j + 17 <= body.count {
          defined.append([Int(body[j] >> 4), Int(body[j] & 15)])
          j += 17 + body[(j + 1)..<(j + 17)].reduce(0) { $0 + Int($1) }
        }
      }
      if marker == 0xDA {
        for c in 0..<Int(body[0]) { used.append([Int(body[2 + 2 * c] >> 4), Int(body[2 + 2 * c] & 15)]) }
        break
      }
      i += 2 + length
    }
    return (defined, used)
  }

  func testTheJPEGLQIPHasOnePairOfHuffmanTables() throws {
    // 64x48 RGB with colour across and down (chroma to code).
    var pixels: [UInt8] = []
    for y in 0..<48 {
      for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 5), UInt8(255 - x * 2 - y)] }
    }
    let raster = Raster(width: 64, height: 48, bands: 3, pixels: pixels)
    for size in [8, 16, 32] {
      let values = try Placeholders.make(raster, spec: PlaceholderSpec(kinds: [.lqip], lqipSize: size))
      let uri = try XCTUnwrap(values.lqip)
      XCTAssertTrue(uri.hasPrefix("data:image/jpeg;base64,"), uri)
      let jpeg = try XCTUnwrap(Data(base64Encoded: String(uri.dropFirst("data:image/jpeg;base64,".count))))
      let tables = try Self.huffmanTables(Array(jpeg))
      XCTAssertEqual(tables.defined.sorted { $0.lexicographicallyPrecedes($1) }, [[0, 0], [1, 0]], "\(size) px")
      XCTAssertEqual(tables.used, [[0, 0], [0, 0], [0, 0]], "\(size) px")
      XCTAssertLessThanOrEqual(uri.count, 1024, "\(size) px")
    }
  }
}
