import CropGeometry
import CropPlan
import CropSpec
import CropStore
import CropSupport
import Foundation
import TestSupport
import XCTest

/// The index's content: formats in order with the fallback last, candidates by width, the
/// size attributes, escaping and URLs. The HTML is read back by Python's own HTML parser and
/// its URLs decoded by `urllib.parse.unquote` (not ours), which must give the paths again.
final class DeliveryIndexTests: XCTestCase {
  func entry(_ path: String, _ format: String, _ width: Int, source: String = "photos/a.jpg") -> Manifest.Entry {
    Manifest.Entry(
      path: path, job: "hero", key: "k", bytes: width * 10, width: width, height: width / 2, sha256: "s",
      format: format, quality: 80, encodes: 1,
      source: Manifest.SourceRecord(path: source, sha256: "c", bytes: 1, mtime: 0),
      geometry: Manifest.GeometryRecord(
        crop: Rect(x: 0, y: 0, width: 10, height: 5), scale: 1, angle: 0, centre: Point(x: 5, y: 2.5),
        smartFocus: nil, flip: nil, notes: []))
  }

  func spec(baseURL: String? = nil, sizes: String = "(min-width: 40em) 50vw, 100vw") -> IndexSpec {
    IndexSpec(path: "pages/{stem}.html", sizes: sizes, loading: .lazy, decoding: .async, baseURL: baseURL)
  }

  /// Awkward names: a space, quotes, `&`, a comma (which would split a srcset), `#`, `%`,
  /// `<` and non-ASCII.
  let names = [
    "a b \"q\" & c, d #1 %20 <é>-400.jpg", "a b \"q\" & c, d #1 %20 <é>-800.jpg", "日本-400.webp", "x-800.webp",
  ]

  func testFormatsCandidatesAndAttributes() throws {
    let entries = [
      entry("img/" + names[1], "jpeg", 800), entry("img/" + names[0], "jpeg", 400),
      entry("img/" + names[2], "webp", 400), entry("img/" + names[3], "webp", 800),
      entry("img/x-400.avif", "avif", 400), entry("img/x-400b.avif", "avif", 400),
    ]
    let index = DeliveryIndex(
      job: "hero", indexPath: "pages/a.html", spec: spec(), images: [(source: "photos/a.jpg", entries: entries)])
    let image = try XCTUnwrap(index.images.first)
    XCTAssertEqual(image.formats.map(\.format), ["avif", "webp", "jpeg"])
    XCTAssertEqual(image.formats.map(\.type), ["image/avif", "image/webp", "image/jpeg"])
    XCTAssertEqual(image.formats[0].candidates.map(\.path), ["img/x-400.avif"], "one candidate per width")
    XCTAssertEqual(image.formats[2].candidates.map(\.width), [400, 800])
    XCTAssertEqual([image.width, image.height], [800, 400])
    XCTAssertEqual(image.fallback, "jpeg")
    XCTAssertEqual(image.formats[1].candidates[0].url, "../img/%E6%97%A5%E6%9C%AC-400.webp")
    // PNG beside JPEG: PNG is a <source>, JPEG the <img>; PNG alone is the <img>.
    let png = DeliveryIndex(
      job: "hero", indexPath: "a.html", spec: spec(),
      images: [(source: "photos/a.jpg", entries: [entry("a.png", "png", 10), entry("a.jpg", "jpeg", 10)])])
    XCTAssertEqual(png.images[0].formats.map(\.format), ["png", "jpeg"])
    XCTAssertEqual(
      png.images[0].html,
      """
      <picture>
        <source type="image/png" srcset="a.png 10w" sizes="(min-width: 40em) 50vw, 100vw">
        <img src="a.jpg" srcset="a.jpg 10w" sizes="(min-width: 40em) 50vw, 100vw" width="10" height="5" alt="" \
      loading="lazy" decoding="async">
      </picture>
      """)
  }

  func testPythonsHTMLParserReadsThePathsBack() throws {
    guard Subprocess.succeeds("/usr/bin/python3", ["-c", "import html.parser"]) else {
      throw Skipped.because("/usr/bin/python3 not installed")
    }
    let entries = names.enumerated().map { k, name in
      entry("img/" + name, name.hasSuffix("jpg") ? "jpeg" : "webp", k % 2 == 0 ? 400 : 800)
    }
    for baseURL in [nil, "https://cdn.example/a&b \"x\", é/"] {
      let index = DeliveryIndex(
        job: "hero", indexPath: "pages/a.html", spec: spec(baseURL: baseURL, sizes: "calc(100vw - \"2em\" & <x>)"),
        images: [(source: "photos/a.jpg", entries: entries)])
      let page = DeliveryIndexHTML.page(index, title: "a <b> & \"c\"")
      let script = """
        import html.parser, json, sys, urllib.parse
        found = []
        class P(html.parser.HTMLParser):
            def handle_starttag(self, tag, attrs):
                if tag in ('img', 'source'):
                    a = dict(attrs)
                    # A srcset candidate: a URL without spaces, then its descriptor.
                    urls = [c.split()[0] for c in a['srcset'].split(', ')]
                    found.append({'tag': tag, 'sizes': a['sizes'], 'urls': [urllib.parse.unquote(u) for u in urls]})
        P().feed(sys.stdin.read())
        print(json.dumps(found))
        """
      let result = try Subprocess.run("/usr/bin/python3", ["-c", script], input: Data(page))
      XCTAssertEqual(result.status, 0, result.stderr)
      struct Found: Decodable {
        var tag: String
        var sizes: String
        var urls: [String]
      }
      let found = try JSONDecoder().decode([Found].self, from: result.stdoutData)
      XCTAssertEqual(found.map(\.tag), ["source", "img"])
      XCTAssertEqual(Set(found.map(\.sizes)), ["calc(100vw - \"2em\" & <x>)"])
      let prefix = baseURL.map { String($0.dropLast()) + "/" } ?? "../"
      XCTAssertEqual(found[0].urls, [prefix + "img/" + names[2], prefix + "img/" + names[3]])
      XCTAssertEqual(found[1].urls, [prefix + "img/" + names[0], prefix + "img/" + names[1]])
    }
  }

  func testRelativeURLs() {
    XCTAssertEqual(URLText.relative("img/a.jpg", from: "index.html"), "img/a.jpg")
    XCTAssertEqual(URLText.relative("img/a.jpg", from: "img/index.html"), "a.jpg")
    XCTAssertEqual(URLText.relative("a/b/c.jpg", from: "a/x/y/i.html"), "../../b/c.jpg")
    XCTAssertEqual(URLText.relative("c:d@2x.jpg", from: "i.html"), "c%3Ad@2x.jpg")
  }

  func testMarkerAndPlaceholderBackground() {
    XCTAssertTrue(
      DeliveryIndex.isCropjobIndex(Array(DeliveryIndexHTML.page(DeliveryIndex.empty, title: "t").prefix(1024))))
    XCTAssertTrue(DeliveryIndex.isCropjobIndex(Array(DeliveryIndex.empty.json().prefix(1024))))
    XCTAssertFalse(DeliveryIndex.isCropjobIndex(Array("<html><p>cropjob index</p>".utf8)))
    let both = DeliveryIndex.Placeholder(dominant: "#336699", lqip: "data:image/webp;base64,AAAA")
    XCTAssertEqual(
      DeliveryIndexHTML.background(both),
      "background: #336699 url(\"data:image/webp;base64,AAAA\") center / cover no-repeat")
    XCTAssertEqual(DeliveryIndexHTML.background(.init(dominant: "#000000", lqip: nil)), "background: #000000")
    XCTAssertNil(DeliveryIndexHTML.background(nil))
  }
}

extension DeliveryIndex {
  static let empty = DeliveryIndex(
    job: "j", indexPath: "i.html",
    spec: IndexSpec(path: "i.html", sizes: "100vw", loading: .lazy, decoding: .async, baseURL: nil), images: [])
}
