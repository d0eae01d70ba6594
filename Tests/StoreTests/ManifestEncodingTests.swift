import CropGeometry
import CropPlan
import CropSpec
import CropStore
import Foundation
import XCTest

/// The manifest is written entry by entry; its bytes must be exactly what `JSONEncoder`
/// pretty-printing the whole value gives (the format earlier runs wrote and people read).
final class ManifestEncodingTests: XCTestCase {
  func entry(_ index: Int) -> Manifest.Entry {
    Manifest.Entry(
      path: "dir/sub/out-\(index) \"q\" é.jpg", job: "job/\(index)", key: String(repeating: "a", count: 64),
      bytes: 1000 + index, width: 640, height: 427, sha256: String(repeating: "b", count: 64), format: "jpeg",
      quality: 85 - index, encodes: index + 1,
      source: Manifest.SourceRecord(
        path: "photos/ß-\(index).jpg", sha256: "cd", bytes: 99_000, mtime: 1_796_022_327_123_456_789),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: 0.5, y: 1.0 / 3, width: 1600, height: 1066.6666666666667), scale: 0.4, angle: -12.5,
        centre: Point(x: 800.25, y: 533), smartFocus: index == 1 ? "attention" : nil,
        flip: index == 2 ? "horizontal+vertical" : nil,
        notes: index == 0 ? [] : ["output downsized from 600x400 to 193x129 to fit max_bytes 4000", "tab\there\nline"]))
  }

  func wholeValue(_ manifest: Manifest) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(manifest)) + [0x0a]
  }

  func testEntryByEntryEqualsTheWholeValueByteForByte() throws {
    for count in [0, 1, 3, 50] {
      let manifest = Manifest(engineVersion: "8.14.1", outputs: (0..<count).map(entry))
      let (streamed, whole) = (
        String(decoding: manifest.encoded(), as: UTF8.self), String(decoding: try wholeValue(manifest), as: UTF8.self)
      )
      let difference = zip(
        streamed.split(separator: "\n", omittingEmptySubsequences: false),
        whole.split(separator: "\n", omittingEmptySubsequences: false)
      )
      .enumerated().first { $0.element.0 != $0.element.1 }
      XCTAssertNil(difference, "\(count) outputs: first differing line \(String(describing: difference))")
      XCTAssertEqual(streamed.count, whole.count, "\(count) outputs")
      XCTAssertTrue(streamed == whole, "\(count) outputs")
      let decoded = try JSONDecoder().decode(Manifest.self, from: Data(manifest.encoded()))
      XCTAssertEqual(decoded, manifest)
    }
  }
}
