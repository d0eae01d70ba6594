import CropGeometry
import CropSpec
import XCTest

/// `focus` lists, `face_padding` and `regions`: what decodes, and where a mistake is reported.
extension SpecDecoderTests {
  func focus(_ value: String) throws -> FocusSpec {
    try valid(job("sources: a.jpg\nguide: {size: 10}\nplace: {focus: \(value)}\noutputs: [{path: \"{stem}.jpg\"}]")).0
      .jobs[0].place.focus
  }

  func focusErrors(_ value: String) -> [String] {
    errors(job("sources: a.jpg\nguide: {size: 10}\nplace: {focus: \(value)}\noutputs: [{path: \"{stem}.jpg\"}]"))
  }

  func testFocusFindersAndLists() throws {
    XCTAssertEqual(try focus("faces"), .search(FocusSearch(finders: [.faces], fallback: .smart(.attention))))
    XCTAssertEqual(try focus("regions"), .search(FocusSearch(finders: [.regions], fallback: .smart(.attention))))
    XCTAssertEqual(
      try focus("[regions, faces, attention]"),
      .search(FocusSearch(finders: [.regions, .faces], fallback: .smart(.attention))))
    XCTAssertEqual(try focus("[faces, entropy]"), .search(FocusSearch(finders: [.faces], fallback: .smart(.entropy))))
    XCTAssertEqual(try focus("[faces, center]"), .search(FocusSearch(finders: [.faces], fallback: .named(.centre))))
    XCTAssertEqual(
      try focus("[faces, [0.5, 0.25]]"),
      .search(FocusSearch(finders: [.faces], fallback: .point(Point(x: 0.5, y: 0.25)))))
    XCTAssertEqual(
      try focus("[faces, regions]"), .search(FocusSearch(finders: [.faces, .regions], fallback: .smart(.attention))))
    XCTAssertEqual(try focus("[attention]"), .smart(.attention), "one strategy is that strategy")
    XCTAssertEqual(try focus("[top]"), .named(.top))
    XCTAssertEqual(try focus("[0.5, 0.25]"), .point(Point(x: 0.5, y: 0.25)), "two numbers are a point")
    XCTAssertEqual(try focus("[faces, attention]").name, "faces, attention")
  }

  func testFocusListMistakesAreLocated() {
    XCTAssertEqual(
      focusErrors("[faces, attention, top]"),
      [
        "job.yaml:7:39: error: jobs.a.place.focus[2]: expected nothing after attention (it always places the photo, so later strategies are never tried) but received the string \"top\""
      ])
    XCTAssertEqual(
      focusErrors("[faces, faces]"),
      ["job.yaml:7:28: error: jobs.a.place.focus[1]: expected distinct values but received faces again (as at [0])"])
    XCTAssertEqual(
      focusErrors("[]"),
      [
        "job.yaml:7:20: error: jobs.a.place.focus: expected at least one strategy (e.g. [faces, attention]) but received an empty list"
      ])
    XCTAssertEqual(
      focusErrors("[faces, fcaes]").first?.contains("jobs.a.place.focus[1]: expected a position"), true)
    XCTAssertEqual(focusErrors("[faces, fcaes]").first?.contains("did you mean \"faces\"?"), true)
    XCTAssertEqual(
      focusErrors("[faces, [0.5, 2]]"),
      ["job.yaml:7:34: error: jobs.a.place.focus[1][1]: expected a number between 0 and 1 but received the number 2"])
  }

  func testFacePaddingAndRegions() throws {
    let (file, _) = try valid(
      job(
        "sources: a.jpg\nguide: {size: 10}\nplace: {face_padding: 0.5, regions: [pet, face]}\noutputs: [{path: \"{stem}.jpg\"}]"
      ))
    XCTAssertEqual(file.jobs[0].place.facePadding, 0.5)
    XCTAssertEqual(file.jobs[0].place.regionTypes, [.pet, .face])
    let (defaults, _) = try valid(job("sources: a.jpg\nguide: {size: 10}\noutputs: [{path: \"{stem}.jpg\"}]"))
    XCTAssertEqual(defaults.jobs[0].place.effectiveFacePadding, 0.3)
    XCTAssertEqual(defaults.jobs[0].place.effectiveRegionTypes, [.face])
    XCTAssertEqual(
      errors(job("sources: a.jpg\nguide: {size: 10}\nplace: {face_padding: 3}\noutputs: [{path: \"{stem}.jpg\"}]")),
      ["job.yaml:7:27: error: jobs.a.place.face_padding: expected a number between 0 and 2 but received the number 3"])
    XCTAssertEqual(
      errors(
        job("sources: a.jpg\nguide: {size: 10}\nplace: {regions: [face, cat]}\noutputs: [{path: \"{stem}.jpg\"}]")),
      [
        "job.yaml:7:29: error: jobs.a.place.regions[1]: expected one of face, pet, focus, barcode but received the string \"cat\""
      ])
  }
}
