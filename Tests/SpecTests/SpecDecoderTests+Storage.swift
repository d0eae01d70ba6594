import CropSpec
import CropStorage
import XCTest

/// `s3://` locations in job files: accepted wherever a path is read or written, checked
/// without the network (the decoder here has no object reader, as `validate`).
extension SpecDecoderTests {
  static let s3Job = """
    version: 1
    output: s3://out-bucket/avatars/
    overrides_from: s3://tables/crops/2024.csv
    jobs:
      a:
        sources: [s3://photos/2024/**/*.jpg, s3://photos/people/, local/one.jpg]
        exclude: [s3://photos/2024/tmp/**, "*-draft.*"]
        guide: {shape: square, size: 64}
        outputs: [{path: "{stem}.jpg"}]
        index: {path: "s3://site-pages/index/{job}.html"}

    """

  func testS3LocationsAreAcceptedWhereverAPathIsAndParsedWithoutTheNetwork() throws {
    let (file, warnings) = try valid(Self.s3Job)
    XCTAssertEqual(warnings, [])
    XCTAssertEqual(file.outputRoot, "s3://out-bucket/avatars/")
    XCTAssertEqual(file.outputLocation, .s3(bucket: "out-bucket", key: "avatars/"))
    XCTAssertEqual(file.cropTable, "s3://tables/crops/2024.csv", "named as written, rows read at plan time")
    XCTAssertEqual(file.cropTableRows, 0)
    let first = try XCTUnwrap(file.jobs.first)
    XCTAssertEqual(
      first.input,
      .sources(
        include: ["s3://photos/2024/**/*.jpg", "s3://photos/people/", "local/one.jpg"],
        exclude: ["s3://photos/2024/tmp/**", "*-draft.*"]))
    XCTAssertEqual(first.index?.location, .s3(bucket: "site-pages", key: "index/{job}.html"))
    let local = try valid(job("sources: in\nguide: {shape: square, size: 64}\noutputs: [{path: \"{stem}.jpg\"}]")).0
    XCTAssertEqual(local.outputLocation, .local(path: "out"))
  }

  func testOtherSchemesAndBadS3LocationsAreErrorsAtTheirPosition() {
    let text = """
      version: 1
      output: s3://out/a*/
      overrides_from: s3://tables/
      jobs:
        a:
          sources: [https://example.com/a.jpg, s3://ab/x.jpg, "s3:///x.jpg", s3://my_photos!/x.jpg]
          exclude: [gs://photos/x]
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.jpg"}]
          index: {path: "http://site/{job}.html"}
        b:
          sources: s3://photos/in/
          guide: {shape: square, size: 64}
          outputs: [{path: "{stem}.jpg"}]
          index: {path: "s3://site/.html"}

      """
    XCTAssertEqual(
      errors(text),
      [
        "job.yaml:2:9: error: output: \"s3://out/a*/\": the output root is a prefix, not a pattern (no * ? [)",
        "job.yaml:3:17: error: overrides_from: expected a crop table: a .csv or .jsonl file (s3://bucket/key, with "
          + "the object's key) but received \"s3://tables/\", with no key",
        "job.yaml:6:15: error: jobs.a.sources[0]: \"https://example.com/a.jpg\": https:// is not supported, "
          + "use s3://bucket/prefix or a local path",
        "job.yaml:6:42: error: jobs.a.sources[1]: \"s3://ab/x.jpg\": the bucket name 'ab' must be 3 to 63 characters long",
        "job.yaml:6:57: error: jobs.a.sources[2]: \"s3:///x.jpg\": no bucket: write s3://bucket/prefix",
        "job.yaml:6:72: error: jobs.a.sources[3]: \"s3://my_photos!/x.jpg\": the bucket name 'my_photos!' may hold only "
          + "letters, digits, dots, hyphens and underscores",
        "job.yaml:7:15: error: jobs.a.exclude[0]: \"gs://photos/x\": gs:// is not supported, "
          + "use s3://bucket/prefix or a local path",
        "job.yaml:10:19: error: jobs.a.index.path: \"http://site/{job}.html\": http:// is not supported, "
          + "use s3://bucket/prefix or a local path",
      ])
  }

  func testAnS3FileLocationNeedsAKey() {
    let text = job(
      "sources: in\nguide: {shape: square, size: 64}\noutputs: [{path: \"{stem}.jpg\"}]",
      extra: "overrides_from: {path: \"s3://tables\"}\n")
    XCTAssertEqual(
      errors(text),
      [
        "job.yaml:3:24: error: overrides_from.path: expected a crop table: a .csv or .jsonl file (s3://bucket/key, "
          + "with the object's key) but received \"s3://tables\", with no key"
      ])
  }
}
