import Foundation
import TestSupport
import XCTest

/// `run --jpeg-encoder` (docs/decoding.md, "Encoding JPEG outputs"): stripped JPEG outputs
/// written by libjpeg directly are the bytes libvips' saver writes for the same pixels.
final class JPEGEncoderSwitchTests: XCTestCase {
  /// Every sample (JPEGs, four sideways; PNGs, one with alpha, flattened on white) cut to
  /// squares at qualities on both sides of libvips' automatic subsampling switch (90), 4:4:4
  /// and 4:2:0 forced, progressive, a circle flattened on a background, a contain banner, and
  /// an output that keeps metadata (which libvips' saver writes either way): the two runs'
  /// files are byte for byte the same. The reference is libvips' own saver.
  func testDirectAndLibvipsEncodesWriteTheSameBytes() throws {
    let s = CLIJob()
    defer { s.remove() }
    try s.copySamples()
    try s.write(
      """
      version: 1
      output: out
      defaults:
        metadata: strip
      jobs:
        squares:
          sources: ["photos"]
          guide: {shape: square, size: 96}
          place: {fit: cover}
          outputs:
            - {path: "{stem}-q50.jpg", encode: {format: jpeg, quality: 50}}
            - {path: "{stem}-q89.jpg", encode: {format: jpeg, quality: 89}}
            - {path: "{stem}-q90.jpg", encode: {format: jpeg, quality: 90}}
            - {path: "{stem}-q100.jpg", encode: {format: jpeg, quality: 100}}
            - {path: "{stem}-444.jpg", encode: {format: jpeg, quality: 75, subsample: "4:4:4"}}
            - {path: "{stem}-420.jpg", encode: {format: jpeg, quality: 95, subsample: "4:2:0"}}
            - {path: "{stem}-prog.jpg", encode: {format: jpeg, quality: 80, progressive: true}}
        odd:
          sources: ["photos"]
          guide: {shape: rect, width: 37, height: 23}
          place: {fit: cover}
          outputs:
            - path: "{stem}-odd.jpg"
        circle:
          sources: ["photos"]
          guide: {shape: circle, size: 70}
          place: {fit: cover, background: "#336699"}
          outputs:
            - path: "{stem}-circle.jpg"
        banner:
          sources: ["photos"]
          guide: {shape: rect, width: 200, height: 60}
          place: {fit: contain, overflow: fill, background: "#996633"}
          outputs:
            - path: "{stem}-banner.jpg"
        kept:
          sources: ["photos"]
          guide: {shape: square, size: 64}
          place: {fit: cover}
          metadata: keep
          outputs:
            - path: "{stem}-kept.jpg"
      """)
    let (directTree, vipsTree) = try s.runBothWays(
      "--jpeg-encoder", direct: "auto", other: "libvips", extensions: [".jpg"])
    let names = directTree.keys.sorted()
    XCTAssertEqual(names.count, 14 * 11)
    XCTAssertEqual(names, vipsTree.keys.sorted())
    for name in names { XCTAssertEqual(directTree[name], vipsTree[name], name) }
  }
}
