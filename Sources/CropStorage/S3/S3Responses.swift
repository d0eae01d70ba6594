import CropSupport

/// What the S3 store reads from XML answers, with `XMLScanner` (elements matched by local
/// name, whatever their namespace).
enum S3Responses {
  /// One page of ListObjectsV2.
  struct ListPage: Equatable {
    var objects: [ObjectInfo]
    /// The token of the next page, when the listing is truncated.
    var continuation: String?
  }

  /// Parses a `ListBucketResult`. nil when the body is not one.
  static func listPage(_ body: [UInt8]) -> ListPage? {
    guard let root = try? XMLScanner.parse(body),
      let result = root.children.first(where: { $0.name == "ListBucketResult" })
    else { return nil }
    var objects: [ObjectInfo] = []
    for item in result.children where item.name == "Contents" {
      guard let key = item.child("Key"), let size = item.child("Size").flatMap({ Int64($0) }) else { return nil }
      let etag = unquoted(item.child("ETag") ?? "")
      let modified = item.child("LastModified") ?? ""
      objects.append(
        ObjectInfo(key: key, size: size, token: .object(etag: etag, size: size, lastModified: modified, versionID: nil))
      )
    }
    let truncated = result.child("IsTruncated") == "true"
    let next = result.child("NextContinuationToken")
    return ListPage(objects: objects, continuation: truncated ? next : nil)
  }

  /// An error answer's `Code` and `Message`, when the body is an `Error` document.
  static func error(_ body: [UInt8]) -> (code: String, message: String)? {
    guard !body.isEmpty, let root = try? XMLScanner.parse(body),
      let error = root.children.first(where: { $0.name == "Error" }), let code = error.child("Code")
    else { return nil }
    return (code, error.child("Message") ?? "")
  }

  /// The text of element `name` in the document element `document`, if the body is one.
  static func field(_ name: String, of document: String, in body: [UInt8]) -> String? {
    guard let root = try? XMLScanner.parse(body), let top = root.children.first(where: { $0.name == document })
    else { return nil }
    return top.child(name)
  }

  /// An ETag without its quotes.
  static func unquoted(_ etag: String) -> String {
    etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
  }
}

extension XMLScanner.Element {
  /// The text of the first child named `name`.
  fileprivate func child(_ name: String) -> String? { children.first { $0.name == name }?.text }
}
