import CropStorage

/// What a path in a job file names, for the checks `validate` makes on its storage location
/// without the network.
enum LocationUse {
  /// A source: a file, a glob or a folder (in S3 a key, a key glob or a key prefix; the
  /// whole bucket is a folder).
  case sources
  /// An `exclude` pattern: a bare name, a relative glob, or an absolute one (`s3://`).
  case exclude
  /// The output root: a folder (an S3 prefix, or the whole bucket).
  case outputRoot
  /// One file (the crop table, the index's HTML file): an S3 location needs a key.
  case file(what: String)
}

extension SpecDecoder {
  /// `text` (the value at `node`) as a storage location: `s3://bucket/key` or a local path,
  /// checked as `use` needs without the network (the bucket name's rules, a key where a file
  /// is needed); nil after reporting why not. Another scheme (`https://`, `gs://`) is
  /// refused with what to write instead.
  @discardableResult
  mutating func location(_ text: String, _ node: YAMLNode, _ field: String, use: LocationUse) -> StorageLocation? {
    let location: StorageLocation
    do {
      location = try StorageLocation.parse(text)
    } catch {
      reader.error(node.mark, field, "\"\(text)\": \(error.message)")
      return nil
    }
    guard location.bucket != nil else { return location }
    let key = location.key
    switch use {
    case .sources, .exclude, .outputRoot:
      if use == .outputRoot, Self.wildcard(in: key) {
        reader.error(node.mark, field, "\"\(text)\": the output root is a prefix, not a pattern (no * ? [)")
        return nil
      }
    case .file(let what):
      if key.isEmpty || key.hasSuffix("/") {
        reader.error(
          node.mark, field,
          Diagnostic.expected("\(what) (s3://bucket/key, with the object's key)", received: "\"\(text)\", with no key"))
        return nil
      }
    }
    return location
  }

  static func wildcard(in text: String) -> Bool { text.contains { $0 == "*" || $0 == "?" || $0 == "[" } }
}

extension LocationUse: Equatable {}
