import Foundation
import XCTest

/// An inline override over a crop table's row, field by field, with a crop and the five
/// fields it excludes (fit, zoom, focus, offset, rotate) as one group, as in `place`
/// (docs/job-file.md, "Crop tables", Order): a flip keeps the row's crop, a crop replaces
/// it, and a zoom replaces it with a `crop-replaced` warning naming both places (it was
/// dropped without a word).
final class OverrideOverRowTests: XCTestCase {
  func testAnInlineOverrideKeepsOrReplacesTheRowsCropAsDocumented() throws {
    let job = CLIJob()
    defer { job.remove() }
    try job.copySamples(["astronaut.jpg", "kite.jpg", "bridge.jpg"], into: ".")
    try job.write(
      """
      source,x,y,width,height
      astronaut.jpg,100,50,200,200
      kite.jpg,10,10,300,300
      bridge.jpg,20,30,100,100

      """, to: "crops.csv")
    try job.write(
      """
      version: 1
      output: out
      overrides_from: crops.csv
      overrides:
        - {source: astronaut.jpg, zoom: 2}
        - {source: kite.jpg, flip: horizontal}
        - {source: bridge.jpg, crop: {x: 0, y: 0, width: 100, height: 100}}
      jobs:
        a:
          sources: "*.jpg"
          guide: {size: 64}
          place: {zoom: 1.5}
          outputs: [{path: "{stem}.png"}]

      """)
    let plan = try job.run(["plan", "--format", "json", "job.yaml"])
    XCTAssertEqual(plan.status, 0, plan.stderr)
    let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
    let outputs = try XCTUnwrap(document["outputs"] as? [[String: Any]])
    func requested(_ source: String) -> [String: Double]? {
      outputs.first { $0["source"] as? String == source }?["cropRequested"] as? [String: Double]
    }
    XCTAssertNil(requested("astronaut.jpg"), "zoom replaces the row's crop")
    XCTAssertEqual(requested("kite.jpg"), ["x": 10, "y": 10, "width": 300, "height": 300, "angle": 0], "flip keeps it")
    XCTAssertEqual(requested("bridge.jpg"), ["x": 0, "y": 0, "width": 100, "height": 100, "angle": 0])
    let issues = try XCTUnwrap(document["issues"] as? [[String: Any]])
    XCTAssertEqual(issues.map { $0["kind"] as? String }, ["crop-replaced"])
    XCTAssertEqual(issues.first?["source"] as? String, "astronaut.jpg")
    XCTAssertEqual(
      issues.first?["message"] as? String,
      "the override at job.yaml:5:5 sets zoom, which replaces the crop of crops.csv:2 (a crop and fit, zoom, focus, "
        + "offset, rotate exclude each other; set crop in the override to change the crop)")
  }
}
