/// A small non-validating XML reader for XMP packets: elements, attributes, text, CDATA,
/// comments, processing instructions and the five named and numeric character references,
/// with namespace prefixes resolved to URIs. No DTDs, no external entities, nothing fetched.
///
/// Written by hand rather than with FoundationXML's `XMLParser` so that reading a photo's
/// regions adds no library to the binary and keeps one code path on every platform; the
/// planner reads headers on several threads, and each scan owns all its state. The XMP
/// reader (CropPlan) and the S3 client's responses (CropStorage) use it.
package struct XMLScanner {
  /// An element with its namespace-resolved name, attributes and children.
  package final class Element {
    package let namespace: String
    package let name: String
    /// Attributes other than `xmlns` declarations: (namespace URI, local name, value).
    package var attributes: [(namespace: String, name: String, value: String)] = []
    package var children: [Element] = []
    package var text = ""

    package init(namespace: String, name: String) {
      self.namespace = namespace
      self.name = name
    }

    /// Whether the element is `name` in `namespace`.
    package func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    /// Every descendant (depth first, document order), this element included.
    package func descendants() -> [Element] {
      var result: [Element] = []
      var stack: [Element] = [self]
      while let element = stack.popLast() {
        result.append(element)
        stack.append(contentsOf: element.children.reversed())
      }
      return result
    }
  }

  /// Why a packet could not be read, with the byte offset where it went wrong.
  package struct Problem: Error, Equatable, CustomStringConvertible {
    package var offset: Int
    package var message: String
    package var description: String { "\(message) at byte \(offset)" }
  }

  /// Deepest nesting accepted (XMP region structures need about 10).
  package static let maxDepth = 100

  private let bytes: [UInt8]
  private var at = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The document element of `bytes` (UTF-8, an optional byte-order mark), wrapped in a
  /// root element with an empty name so that content after it (as in an `xpacket` trailer)
  /// stays reachable.
  package static func parse(_ bytes: [UInt8]) throws(Problem) -> Element {
    var scanner = XMLScanner(bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.at = 3 }
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      throw Problem(offset: 0, message: "UTF-16 packets are not read (the packet is not UTF-8)")
    }
    let root = Element(namespace: "", name: "")
    try scanner.content(of: root, scopes: [["xml": "http://www.w3.org/XML/1998/namespace"]], closing: nil, depth: 0)
    return root
  }

  /// Reads children and text into `parent` until its end tag `closing` (nil: end of input).
  private mutating func content(
    of parent: Element, scopes: [[String: String]], closing: String?, depth: Int
  ) throws(Problem) {
    while at < bytes.count {
      if bytes[at] != UInt8(ascii: "<") {
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
        parent.text += try decode(start..<at)
        continue
      }
      if hasPrefix("<!--") {
        try skip(past: "-->", what: "comment")
      } else if hasPrefix("<![CDATA[") {
        at += 9
        let start = at
        try skip(past: "]]>", what: "CDATA section")
        parent.text += String(decoding: bytes[start..<(at - 3)], as: UTF8.self)
      } else if hasPrefix("<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if hasPrefix("<!") {
        throw Problem(offset: at, message: "a document type declaration is not allowed in XMP")
      } else if hasPrefix("</") {
        let start = at
        at += 2
        let name = readName()
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else {
          throw Problem(offset: at, message: "end tag </\(name)> is not closed")
        }
        at += 1
        guard name == closing else {
          throw Problem(
            offset: start,
            message: closing.map { "end tag </\(name)> where </\($0)> was expected" }
              ?? "end tag </\(name)> without a start tag")
        }
        return
      } else {
        guard depth < Self.maxDepth else {
          throw Problem(offset: at, message: "elements nested deeper than \(Self.maxDepth)")
        }
        try element(into: parent, scopes: scopes, depth: depth + 1)
      }
    }
    if let closing { throw Problem(offset: at, message: "the packet ends inside <\(closing)>") }
  }

  /// Reads one element starting at `<`, and appends it to `parent`.
  private mutating func element(into parent: Element, scopes: [[String: String]], depth: Int) throws(Problem) {
    let start = at
    at += 1
    let qname = readName()
    guard !qname.isEmpty else { throw Problem(offset: start, message: "a '<' that starts no tag") }
    var raw: [(String, String)] = []
    var empty = false
    while true {
      skipSpace()
      guard at < bytes.count else { throw Problem(offset: at, message: "the packet ends inside the tag <\(qname)") }
      if bytes[at] == UInt8(ascii: "/") {
        guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else {
          throw Problem(offset: at, message: "'/' not followed by '>' in <\(qname)>")
        }
        at += 2
        empty = true
        break
      }
      if bytes[at] == UInt8(ascii: ">") {
        at += 1
        break
      }
      let name = readName()
      guard !name.isEmpty else { throw Problem(offset: at, message: "unexpected character in the tag <\(qname)>") }
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else {
        throw Problem(offset: at, message: "attribute \(name) of <\(qname)> has no '='")
      }
      at += 1
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
        throw Problem(offset: at, message: "attribute \(name) of <\(qname)> has no quoted value")
      }
      let quote = bytes[at]
      at += 1
      let valueStart = at
      while at < bytes.count, bytes[at] != quote {
        if bytes[at] == UInt8(ascii: "<") { throw Problem(offset: at, message: "'<' inside attribute \(name)") }
        at += 1
      }
      guard at < bytes.count else { throw Problem(offset: valueStart, message: "attribute \(name) is not closed") }
      raw.append((name, try decode(valueStart..<at)))
      at += 1
    }
    var scope: [String: String] = [:]
    for (name, value) in raw {
      if name == "xmlns" {
        scope[""] = value
      } else if name.hasPrefix("xmlns:") {
        scope[String(name.dropFirst(6))] = value
      }
    }
    let scopes = scope.isEmpty ? scopes : scopes + [scope]
    func resolve(_ qname: String, isAttribute: Bool) throws(Problem) -> (String, String) {
      let parts = qname.split(separator: ":", maxSplits: 1).map(String.init)
      let prefix = parts.count == 2 ? parts[0] : ""
      let local = parts.count == 2 ? parts[1] : parts[0]
      if prefix.isEmpty && isAttribute { return ("", local) }
      guard let uri = scopes.reversed().lazy.compactMap({ $0[prefix] }).first else {
        if prefix.isEmpty { return ("", local) }
        throw Problem(offset: start, message: "namespace prefix '\(prefix)' of \(qname) is not declared")
      }
      return (uri, local)
    }
    let (namespace, local) = try resolve(qname, isAttribute: false)
    let element = Element(namespace: namespace, name: local)
    for (name, value) in raw where name != "xmlns" && !name.hasPrefix("xmlns:") {
      let (uri, attribute) = try resolve(name, isAttribute: true)
      element.attributes.append((uri, attribute, value))
    }
    parent.children.append(element)
    if !empty { try content(of: element, scopes: scopes, closing: qname, depth: depth) }
  }

  private func hasPrefix(_ text: String) -> Bool {
    let utf8 = Array(text.utf8)
    return at + utf8.count <= bytes.count && bytes[at..<(at + utf8.count)].elementsEqual(utf8)
  }

  private mutating func skip(past end: String, what: String) throws(Problem) {
    let start = at
    while at < bytes.count {
      if hasPrefix(end) {
        at += end.utf8.count
        return
      }
      at += 1
    }
    throw Problem(offset: start, message: "the \(what) is not closed")
  }

  private mutating func skipSpace() {
    while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
  }

  /// A name: everything up to white space, `=`, `/`, `>`, `<` or a quote.
  private mutating func readName() -> String {
    let start = at
    while at < bytes.count {
      let b = bytes[at]
      if [0x20, 0x09, 0x0A, 0x0D, 0x3D, 0x2F, 0x3E, 0x3C, 0x22, 0x27].contains(b) { break }
      at += 1
    }
    return String(decoding: bytes[start..<at], as: UTF8.self)
  }

  /// Text with its character references replaced; invalid UTF-8 or an unknown reference is
  /// a problem.
  private func decode(_ range: Range<Int>) throws(Problem) -> String {
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw Problem(offset: range.lowerBound, message: "text that is not UTF-8")
    }
    guard text.contains("&") else { return text }
    var result = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      result += rest[..<amp]
      guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
        throw Problem(offset: range.lowerBound, message: "a '&' that starts no character reference")
      }
      let entity = rest[rest.index(after: amp)..<semicolon]
      let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
      if let value = named[String(entity)] {
        result += value
      } else if entity.hasPrefix("#"), let scalar = Self.scalar(entity.dropFirst()) {
        result.unicodeScalars.append(scalar)
      } else {
        throw Problem(offset: range.lowerBound, message: "unknown character reference &\(entity);")
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return result + rest
  }

  private static func scalar(_ digits: Substring) -> Unicode.Scalar? {
    let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
    return value.flatMap(Unicode.Scalar.init)
  }
}
