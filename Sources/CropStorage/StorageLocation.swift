/// Where a job reads or writes, as written in a job file: `s3://bucket/prefix/...` or a local
/// path. Parsing needs no network (so `validate` can check it); another scheme (`https://`,
/// `gs://`, `file://`) is refused with what to write instead.
public enum StorageLocation: Sendable, Hashable, CustomStringConvertible {
  /// A local path, as written.
  case local(path: String)
  /// A bucket and a key or key prefix in it (empty for the whole bucket), without the
  /// leading slash.
  case s3(bucket: String, key: String)

  public var description: String {
    switch self {
    case .local(let path): return path
    case .s3(let bucket, let key): return "s3://\(bucket)/\(key)"
    }
  }

  /// Parses `text`. Errors are `StorageError.Kind.unsupportedLocation`, naming `text`.
  public static func parse(_ text: String) throws(StorageError) -> StorageLocation {
    guard let schemeEnd = text.range(of: "://") else { return .local(path: text) }
    let scheme = text[..<schemeEnd.lowerBound]
    // "x/a://b" is a path (a scheme has no slash or dot); "a://b" is taken for a scheme.
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" }) else {
      return .local(path: text)
    }
    guard scheme.lowercased() == "s3" else {
      throw StorageError(
        .unsupportedLocation, location: text,
        message: "\(scheme):// is not supported, use s3://bucket/prefix or a local path")
    }
    let rest = text[schemeEnd.upperBound...]
    let bucket = String(rest.prefix { $0 != "/" })
    let key = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
    if let problem = bucketProblem(bucket) {
      throw StorageError(.unsupportedLocation, location: text, message: problem)
    }
    return .s3(bucket: bucket, key: key)
  }

  /// What is wrong with a bucket name, or nil. S3's rules for new buckets are 3-63 lowercase
  /// letters, digits, dots and hyphens; older buckets (and some S3-compatible stores) also
  /// have capitals and underscores, so those are accepted and the server has the last word.
  static func bucketProblem(_ bucket: String) -> String? {
    if bucket.isEmpty { return "no bucket: write s3://bucket/prefix" }
    guard (3...255).contains(bucket.utf8.count) else {
      return "the bucket name '\(bucket)' must be 3 to 63 characters long"
    }
    let allowed = bucket.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
        || $0 == "_"
    }
    guard allowed else {
      return "the bucket name '\(bucket)' may hold only letters, digits, dots, hyphens and underscores"
    }
    return nil
  }
}

extension StorageLocation {
  /// The bucket of an `s3://` location; nil for a local path.
  public var bucket: String? {
    if case .s3(let bucket, _) = self { return bucket }
    return nil
  }

  /// The key (or key prefix) in the bucket of an `s3://` location; a local path as written.
  public var key: String {
    switch self {
    case .local(let path): return path
    case .s3(_, let key): return key
    }
  }

  /// Whether the location is a path on this machine's file system.
  public var isLocal: Bool { bucket == nil }

  /// Whether `text` starts with a scheme (`s3://`, or another that `parse` refuses), as
  /// `parse` decides, without making a value: what tells a location from a path in a loop
  /// over a million paths (it reads only up to the first `/`).
  public static func hasScheme(_ text: String) -> Bool {
    var utf8 = text.utf8.makeIterator()
    var count = 0
    var last: UInt8 = 0
    while let byte = utf8.next() {
      if byte == UInt8(ascii: "/") { return count > 1 && last == UInt8(ascii: ":") && utf8.next() == byte }
      let isSchemeByte =
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x2B
        || byte == 0x2D || byte >= 0x80
      if !isSchemeByte && !(byte == UInt8(ascii: ":") && count > 0) { return false }
      if last == UInt8(ascii: ":") { return false }
      last = byte
      count += 1
    }
    return false
  }
}
