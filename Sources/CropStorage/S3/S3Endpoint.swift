/// Where S3 requests go: scheme, host, port and an optional base path, and how a bucket, key
/// and query become a request URL in either addressing style.
public struct S3Endpoint: Sendable, Equatable, CustomStringConvertible {
  public var scheme: String
  public var host: String
  public var port: Int?
  /// A path the endpoint is mounted under (rare; without a trailing slash).
  public var basePath: String

  public init(scheme: String, host: String, port: Int?, basePath: String) {
    self.scheme = scheme
    self.host = host
    self.port = port
    self.basePath = basePath
  }

  public var description: String { "\(scheme)://\(hostAndPort)\(basePath)" }

  var hostAndPort: String { port.map { "\(host):\($0)" } ?? host }

  /// Parses `http(s)://host[:port][/path]`; `source` names where it came from for the error.
  public init(parsing text: String, source: String) throws(StorageError) {
    func bad(_ why: String) -> StorageError {
      StorageError(.configuration, location: "", message: "the endpoint '\(text)' from \(source) \(why)")
    }
    guard let schemeEnd = text.range(of: "://") else { throw bad("has no scheme: write http:// or https://") }
    let scheme = text[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { throw bad("is not http:// or https://") }
    let rest = text[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" }
    var path = String(rest.dropFirst(authority.count))
    if path.contains("?") { throw bad("has a query, which an endpoint may not have") }
    while path.hasSuffix("/") { path.removeLast() }
    var host = String(authority)
    var port: Int?
    if host.contains("@") { throw bad("holds a user name: credentials go in AWS_ACCESS_KEY_ID or a profile") }
    if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
      guard let number = Int(host[host.index(after: colon)...]), (1...65535).contains(number) else {
        throw bad("has a port that is not a number from 1 to 65535")
      }
      port = number
      host = String(host[..<colon])
    }
    guard !host.isEmpty else { throw bad("has no host") }
    self.init(scheme: scheme, host: host.lowercased(), port: port, basePath: path)
  }

  /// Whether the host is an IP address (v4 or bracketed v6) or localhost, where a bucket
  /// cannot be a subdomain.
  var hostIsAddress: Bool {
    if host.hasPrefix("[") || host == "localhost" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
  }

  /// Whether `bucket` is addressed virtually under `style`.
  func usesVirtualHost(_ bucket: String, style: AddressingStyle) -> Bool {
    switch style {
    case .path: return false
    case .virtual: return true
    case .auto:
      // An address or localhost first: the name checks below need not run.
      guard !hostIsAddress else { return false }
      let label =
        bucket.utf8.count <= 63 && bucket.first != "-" && bucket.last != "-"
        && bucket.unicodeScalars.allSatisfy {
          ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        && !bucket.contains("..")
      // A dotted bucket under HTTPS would not match the wildcard certificate.
      return label && !(scheme == "https" && bucket.contains("."))
    }
  }

  /// The URL of `key` in `bucket` (the bucket itself for an empty key) with `query`'s
  /// parameters, sorted by name and encoded as SigV4's canonical query is, so that the query
  /// libcurl signs is the one sent.
  public func url(bucket: String, key: String, query: [(String, String)], style: AddressingStyle) -> String {
    let virtual = usesVirtualHost(bucket, style: style)
    var url = "\(scheme)://" + (virtual ? "\(bucket).\(hostAndPort)" : hostAndPort) + basePath
    url += virtual ? "/" : "/\(Self.encode(bucket, keepSlash: false))/"
    url += Self.encode(key, keepSlash: true)
    if !query.isEmpty {
      let sorted = query.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
      url +=
        "?"
        + sorted.map { "\(Self.encode($0.0, keepSlash: false))=\(Self.encode($0.1, keepSlash: false))" }
        .joined(separator: "&")
    }
    return url
  }

  /// SigV4's URI encoding: every byte but `A-Z a-z 0-9 - . _ ~` (and `/` where kept) as
  /// `%XX` with capitals.
  static func encode(_ text: String, keepSlash: Bool) -> String {
    func kept(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        return true
      case UInt8(ascii: "/"): return keepSlash
      default: return false
      }
    }
    // Most keys need no escape: one pass to find out, no copy (a URL is made per request).
    if text.utf8.allSatisfy(kept) { return text }
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      if kept(byte) {
        out.append(byte)
      } else {
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 15)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
