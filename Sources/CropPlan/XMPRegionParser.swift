import CropGeometry
import CropSupport

/// Reads the regions stored in an XMP packet (`StoredRegion`): MWG `mwg-rs:Regions` and
/// Microsoft `MP:RegionInfo`, each property written either as an element or, in RDF's
/// shorthand, as an attribute, with structures as `rdf:parseType="Resource"`, a nested
/// `rdf:Description`, or attributes on the property element. Pure: bytes in, regions and
/// problems out; it never throws and never traps.
package enum XMPRegionParser {
  /// What a packet holds: the regions that could be read, and one line per problem (a
  /// damaged packet, or a region skipped and why). Regions are in document order, MWG first.
  package struct Reading: Sendable, Hashable {
    package var regions: [StoredRegion] = []
    package var problems: [String] = []

    package init(regions: [StoredRegion] = [], problems: [String] = []) {
      self.regions = regions
      self.problems = problems
    }
  }

  static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  static let mwgRegions = "http://www.metadataworkinggroup.com/schemas/regions/"
  static let stArea = "http://ns.adobe.com/xmp/sType/Area#"
  static let stDim = "http://ns.adobe.com/xap/1.0/sType/Dimensions#"
  static let microsoftPhoto = "http://ns.microsoft.com/photo/1.2/"
  static let microsoftRegionInfo = "http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
  static let microsoftRegion = "http://ns.microsoft.com/photo/1.2/t/Region#"

  /// Packets larger than this are not read (JPEG's extended XMP may reach a few MB).
  package static let maxBytes = 16 << 20

  /// The regions of `packet`. A packet that is not well-formed XML gives no regions and one
  /// problem naming what is wrong and where ("XMP packet is damaged: end tag </rdf:Bag>
  /// where </rdf:li> was expected at byte 912").
  package static func parse(_ packet: [UInt8]) -> Reading {
    var reading = Reading()
    guard packet.count <= maxBytes else {
      reading.problems.append("XMP packet is \(packet.count) bytes; regions are read from packets up to \(maxBytes)")
      return reading
    }
    let root: XMLScanner.Element
    do {
      root = try XMLScanner.parse(packet)
    } catch {
      reading.problems.append("XMP packet is damaged: \(error)")
      return reading
    }
    let all = root.descendants()
    for info in all where info.is(mwgRegions, "Regions") {
      readMWG(Structure(info), into: &reading)
    }
    for info in all where info.is(microsoftPhoto, "RegionInfo") {
      readMicrosoft(Structure(info), into: &reading)
    }
    return reading
  }

  private static func readMWG(_ info: Structure, into reading: inout Reading) {
    var applied: Size? = nil
    if let dims = info.structure(mwgRegions, "AppliedToDimensions") {
      let w = dims.value(stDim, "w").flatMap(Double.init)
      let h = dims.value(stDim, "h").flatMap(Double.init)
      if let w, let h, w > 0, h > 0, w.isFinite, h.isFinite {
        applied = Size(width: w, height: h)
      } else {
        reading.problems.append("mwg-rs:AppliedToDimensions has no positive stDim:w and stDim:h; ignored")
      }
    }
    for (index, item) in info.list(mwgRegions, "RegionList").enumerated() {
      let label = "MWG region \(index + 1)"
      let type = item.value(mwgRegions, "Type")
      let kind = type.flatMap { StoredRegion.Kind(rawValue: $0.lowercased()) }
      if let type, kind == nil {
        reading.problems.append("\(label): mwg-rs:Type \"\(type)\" is not Face, Pet, Focus or BarCode; kept untyped")
      }
      guard let area = item.structure(mwgRegions, "Area") else {
        reading.problems.append("\(label): no mwg-rs:Area; skipped")
        continue
      }
      if let unit = area.value(stArea, "unit"), unit != "normalized" {
        reading.problems.append("\(label): stArea:unit is \"\(unit)\", not \"normalized\"; skipped")
        continue
      }
      guard let x = number(area.value(stArea, "x")), let y = number(area.value(stArea, "y")) else {
        reading.problems.append("\(label): stArea:x and stArea:y must be numbers; skipped")
        continue
      }
      // A rectangle (w, h), a circle (d) or a point (neither): centre-based.
      let w = number(area.value(stArea, "w")) ?? number(area.value(stArea, "d")) ?? 0
      let h = number(area.value(stArea, "h")) ?? number(area.value(stArea, "d")) ?? 0
      let rect = Rect(x: x - w / 2, y: y - h / 2, width: w, height: h)
      guard let checked = check(rect, label: label, into: &reading) else { continue }
      reading.regions.append(
        StoredRegion(
          kind: kind, name: item.value(mwgRegions, "Name"), schema: .mwg, area: checked, appliedTo: applied))
    }
  }

  private static func readMicrosoft(_ info: Structure, into reading: inout Reading) {
    for (index, item) in info.list(microsoftRegionInfo, "Regions").enumerated() {
      let label = "Microsoft region \(index + 1)"
      guard let text = item.value(microsoftRegion, "Rectangle") else {
        reading.problems.append("\(label): no MPReg:Rectangle; skipped")
        continue
      }
      let parts = text.split(separator: ",").map { number(String($0)) }
      guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
        reading.problems.append("\(label): MPReg:Rectangle \"\(text)\" is not four numbers x, y, w, h; skipped")
        continue
      }
      guard let checked = check(Rect(x: x, y: y, width: w, height: h), label: label, into: &reading) else { continue }
      reading.regions.append(
        StoredRegion(
          kind: .face, name: item.value(microsoftRegion, "PersonDisplayName"), schema: .microsoft, area: checked))
    }
  }

  /// The normalised rectangle, or nil (with a problem) when its size is negative or it lies
  /// wholly outside the photo.
  private static func check(_ rect: Rect, label: String, into reading: inout Reading) -> Rect? {
    guard rect.width >= 0, rect.height >= 0 else {
      reading.problems.append("\(label): negative width or height; skipped")
      return nil
    }
    guard rect.maxX >= 0, rect.maxY >= 0, rect.minX <= 1, rect.minY <= 1 else {
      reading.problems.append("\(label): the area lies outside the photo (\(rect)); skipped")
      return nil
    }
    return rect
  }

  private static func number(_ text: String?) -> Double? {
    guard let text, let value = Double(text.trimmingSpaces), value.isFinite else { return nil }
    return value
  }
}

/// An RDF structure or list item seen as fields: its own attributes, its child elements, and
/// those of an `rdf:Description` nested in it (RDF's three ways of writing a structure).
private struct Structure {
  let fields: [XMLScanner.Element]
  let attributes: [(namespace: String, name: String, value: String)]

  init(_ element: XMLScanner.Element) {
    var fields: [XMLScanner.Element] = []
    var attributes = element.attributes
    for child in element.children {
      if child.is(XMPRegionParser.rdf, "Description") {
        fields += child.children
        attributes += child.attributes
      } else {
        fields.append(child)
      }
    }
    self.fields = fields
    self.attributes = attributes
  }

  /// A simple value: an attribute, or an element's text (or its `rdf:value`/`rdf:resource`).
  func value(_ namespace: String, _ name: String) -> String? {
    if let attribute = attributes.first(where: { $0.namespace == namespace && $0.name == name }) {
      return attribute.value.trimmingSpaces
    }
    guard let element = fields.first(where: { $0.is(namespace, name) }) else { return nil }
    if let resource = element.attributes.first(where: { $0.namespace == XMPRegionParser.rdf && $0.name == "resource" })
    {
      return resource.value.trimmingSpaces
    }
    // A language alternative or a qualified value: the first rdf:li or rdf:value.
    if let inner = element.descendants().dropFirst().first(where: {
      $0.is(XMPRegionParser.rdf, "li") || $0.is(XMPRegionParser.rdf, "value")
    }) {
      return inner.text.trimmingSpaces
    }
    return element.text.trimmingSpaces
  }

  /// A nested structure.
  func structure(_ namespace: String, _ name: String) -> Structure? {
    fields.first(where: { $0.is(namespace, name) }).map(Structure.init)
  }

  /// The items of an `rdf:Bag`, `rdf:Seq` or `rdf:Alt` property, each as a structure.
  func list(_ namespace: String, _ name: String) -> [Structure] {
    guard let property = fields.first(where: { $0.is(namespace, name) }) else { return [] }
    let containers = property.children.filter {
      $0.namespace == XMPRegionParser.rdf && ["Bag", "Seq", "Alt"].contains($0.name)
    }
    return containers.flatMap { $0.children.filter { $0.is(XMPRegionParser.rdf, "li") } }.map(Structure.init)
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    let spaces: Set<Character> = [" ", "\t", "\n", "\r"]
    var s = Substring(self)
    while let first = s.first, spaces.contains(first) { s = s.dropFirst() }
    while let last = s.last, spaces.contains(last) { s = s.dropLast() }
    return String(s)
  }
}
