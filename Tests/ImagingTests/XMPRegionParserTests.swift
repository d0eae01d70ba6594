import CropGeometry
import CropImaging
import CropPlan
import CropSpec
import Foundation
import XCTest

/// The XMP region parser on packets written out here: each RDF form, the problems it names,
/// and hostile input (every truncation, deep nesting) that must end in a problem, not a trap.
final class XMPRegionParserTests: XCTestCase {
  static let namespaces = """
    xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' \
    xmlns:mwg-rs='http://www.metadataworkinggroup.com/schemas/regions/' \
    xmlns:stArea='http://ns.adobe.com/xmp/sType/Area#' \
    xmlns:MP='http://ns.microsoft.com/photo/1.2/' \
    xmlns:MPRI='http://ns.microsoft.com/photo/1.2/t/RegionInfo#' \
    xmlns:MPReg='http://ns.microsoft.com/photo/1.2/t/Region#'
    """

  func packet(_ body: String) -> [UInt8] {
    Array(
      "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \(Self.namespaces)><rdf:Description>\(body)</rdf:Description></rdf:RDF></x:xmpmeta>"
        .utf8)
  }

  func mwg(_ items: String) -> String {
    "<mwg-rs:Regions rdf:parseType='Resource'><mwg-rs:RegionList><rdf:Bag>\(items)</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>"
  }

  func testMWGCentreBasedAreaBecomesTopLeft() {
    let reading = XMPRegionParser.parse(
      packet(
        mwg(
          "<rdf:li><rdf:Description mwg-rs:Type='BarCode'><mwg-rs:Area stArea:x='0.5' stArea:y='0.4' stArea:w='0.2' stArea:h='0.1'/></rdf:Description></rdf:li>"
        )))
    XCTAssertEqual(reading.problems, [])
    XCTAssertEqual(reading.regions.count, 1)
    XCTAssertEqual(reading.regions.first?.kind, .barcode)
    let area = try? XCTUnwrap(reading.regions.first?.area)
    XCTAssertEqual(area?.x ?? 0, 0.4, accuracy: 1e-12)
    XCTAssertEqual(area?.y ?? 0, 0.35, accuracy: 1e-12)
    XCTAssertEqual(area?.width ?? 0, 0.2, accuracy: 1e-12)
    XCTAssertEqual(area?.height ?? 0, 0.1, accuracy: 1e-12)
  }

  func testMicrosoftRectangleIsTopLeftBased() {
    let reading = XMPRegionParser.parse(
      packet(
        "<MP:RegionInfo rdf:parseType='Resource'><MPRI:Regions><rdf:Bag><rdf:li MPReg:Rectangle='0.25, 0.5, 0.125, 0.25' MPReg:PersonDisplayName='Ann'/></rdf:Bag></MPRI:Regions></MP:RegionInfo>"
      ))
    XCTAssertEqual(reading.problems, [])
    XCTAssertEqual(
      reading.regions,
      [
        StoredRegion(
          kind: .face, name: "Ann", schema: .microsoft, area: Rect(x: 0.25, y: 0.5, width: 0.125, height: 0.25))
      ])
  }

  func testBadRegionsAreSkippedWithAReason() {
    let items = [
      "<rdf:li><rdf:Description mwg-rs:Type='Face'/></rdf:li>",
      "<rdf:li><rdf:Description><mwg-rs:Area stArea:x='10' stArea:y='10' stArea:w='5' stArea:h='5' stArea:unit='pixel'/></rdf:Description></rdf:li>",
      "<rdf:li><rdf:Description><mwg-rs:Area stArea:x='half' stArea:y='0.5'/></rdf:Description></rdf:li>",
      "<rdf:li><rdf:Description><mwg-rs:Area stArea:x='0.5' stArea:y='0.5' stArea:w='-0.1' stArea:h='0.1'/></rdf:Description></rdf:li>",
      "<rdf:li><rdf:Description><mwg-rs:Area stArea:x='3' stArea:y='0.5' stArea:w='0.1' stArea:h='0.1'/></rdf:Description></rdf:li>",
      "<rdf:li><rdf:Description mwg-rs:Type='Car'><mwg-rs:Area stArea:x='0.5' stArea:y='0.5' stArea:w='0.1' stArea:h='0.1'/></rdf:Description></rdf:li>",
    ]
    let reading = XMPRegionParser.parse(packet(mwg(items.joined())))
    XCTAssertEqual(
      reading.problems,
      [
        "MWG region 1: no mwg-rs:Area; skipped",
        "MWG region 2: stArea:unit is \"pixel\", not \"normalized\"; skipped",
        "MWG region 3: stArea:x and stArea:y must be numbers; skipped",
        "MWG region 4: negative width or height; skipped",
        "MWG region 5: the area lies outside the photo ({x: 2.95, y: 0.45, width: 0.1, height: 0.1}); skipped",
        "MWG region 6: mwg-rs:Type \"Car\" is not Face, Pet, Focus or BarCode; kept untyped",
      ])
    XCTAssertEqual(reading.regions.count, 1)
    XCTAssertNil(reading.regions.first?.kind)
  }

  func testDamagedPacketsNameWhatIsWrong() {
    let cases: [(String, String)] = [
      ("<a:b xmlns:a='u'>", "XMP packet is damaged: the packet ends inside <a:b> at byte 17"),
      ("<q:x/>", "XMP packet is damaged: namespace prefix 'q' of q:x is not declared at byte 0"),
      ("<x a='1 b='2'/>", "XMP packet is damaged: attribute 2 of <x> has no '=' at byte 12"),
      ("<x>&nbsp;</x>", "XMP packet is damaged: unknown character reference &nbsp; at byte 3"),
      (
        "<!DOCTYPE x [<!ENTITY e 'e'>]><x/>",
        "XMP packet is damaged: a document type declaration is not allowed in XMP at byte 0"
      ),
      ("</x>", "XMP packet is damaged: end tag </x> without a start tag at byte 0"),
    ]
    for (text, expected) in cases {
      let reading = XMPRegionParser.parse(Array(text.utf8))
      XCTAssertEqual(reading.regions, [], text)
      XCTAssertEqual(reading.problems.count, 1, text)
      XCTAssertTrue(reading.problems.first?.hasPrefix(expected) == true, "\(text): \(reading.problems)")
    }
    let utf16 = XMPRegionParser.parse([0xFF, 0xFE, 0x3C, 0x00])
    XCTAssertEqual(utf16.problems.first?.contains("not UTF-8"), true)
    let deep = XMPRegionParser.parse(
      Array((String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000)).utf8))
    XCTAssertEqual(deep.problems.first?.contains("nested deeper than"), true)
  }

  /// Every prefix of a real packet parses to regions or a problem (never a trap), and the
  /// whole packet gives the region.
  func testEveryTruncationEndsInAProblemOrRegions() {
    let full = packet(
      mwg(
        "<rdf:li rdf:parseType='Resource'><mwg-rs:Type>Face</mwg-rs:Type><mwg-rs:Name>A &amp; B &#x263A;</mwg-rs:Name><mwg-rs:Area rdf:parseType='Resource'><stArea:x>0.5</stArea:x><stArea:y>0.5</stArea:y><stArea:w>0.2</stArea:w><stArea:h>0.2</stArea:h><stArea:unit>normalized</stArea:unit></mwg-rs:Area></rdf:li>"
      ))
    XCTAssertEqual(XMPRegionParser.parse(full).regions.first?.name, "A & B \u{263A}")
    XCTAssertEqual(XMPRegionParser.parse([]), XMPRegionParser.Reading())
    for length in 1..<full.count {
      let reading = XMPRegionParser.parse(Array(full.prefix(length)))
      XCTAssertEqual(reading.regions, [], "prefix \(length)")
      XCTAssertEqual(reading.problems.count, 1, "prefix \(length)")
    }
  }
}
