import CropSpec
import XCTest

/// Issue 27.3: `encode.target` as the decoder reads it.
extension SpecDecoderTests {
  func testQualityTargets() throws {
    func outputs(_ path: String, _ encode: String) -> String {
      job("sources: a.jpg\nguide: {size: 9}\noutputs:\n  - path: \"\(path)\"\n    encode: {\(encode)}")
    }
    let (file, warnings) = try valid(outputs("{stem}.webp", "quality: 95, target: {ssim: 0.985}"))
    XCTAssertEqual(file.jobs.first?.outputs.first?.encode.target, QualityTarget(ssim: 0.985))
    XCTAssertEqual(warnings, [])
    XCTAssertEqual(
      errors(outputs("{stem}.jpg", "target: {}")),
      [
        #"job.yaml:9:26: error: jobs.a.outputs[0].encode.target.ssim: expected the score to reach, e.g. target: {ssim: 0.98} but received no "ssim""#
      ])
    XCTAssertEqual(
      errors(outputs("{stem}.jpg", "target: {ssim: 1.5}")),
      [
        "job.yaml:9:33: error: jobs.a.outputs[0].encode.target.ssim: expected a number between 0 and 1 but received the number 1.5"
      ])
    let unknown = errors(outputs("{stem}.jpg", "target: {psnr: 40}"))
    XCTAssertTrue(unknown.contains { $0.contains("unknown key \"psnr\"") }, "\(unknown)")
    XCTAssertEqual(
      errors(outputs("{stem}.jpg", "quality: 20, target: {ssim: 0.9}")),
      [
        "job.yaml:9:27: error: jobs.a.outputs[0].encode.quality: expected quality at least min_quality (30 by default) for a quality target but received quality 20"
      ])
    // A format or a lossless output without a quality to search: warned where it is the
    // output's own key, the target dropped.
    let (png, pngWarnings) = try valid(outputs("{stem}.png", "target: {ssim: 0.9}"))
    XCTAssertEqual(pngWarnings.count, 1)
    XCTAssertEqual(pngWarnings.first?.contains("target, which applies to jpeg, webp, avif"), true, "\(pngWarnings)")
    _ = png
    let (lossless, losslessWarnings) = try valid(outputs("{stem}.webp", "lossless: true, target: {ssim: 0.9}"))
    XCTAssertNil(lossless.jobs.first?.outputs.first?.encode.target)
    XCTAssertEqual(losslessWarnings.first?.contains("lossless (target does nothing)"), true, "\(losslessWarnings)")
    let (animated, animatedWarnings) = try valid(outputs("{stem}.webp", "frames: all, target: {ssim: 0.9}"))
    XCTAssertNil(animated.jobs.first?.outputs.first?.encode.target)
    XCTAssertEqual(animatedWarnings.first?.contains("frames: all (target does nothing)"), true, "\(animatedWarnings)")
  }
}
