import CropSupport

/// Multipart uploads, for objects above `Options.multipartThreshold`: CreateMultipartUpload
/// (with the content headers), one UploadPart per `Options.partSize` bytes in order, then
/// CompleteMultipartUpload carrying the write's condition (`If-None-Match: *` or `If-Match`),
/// so the object appears whole, or not at all, at the end. An upload that fails is aborted
/// (its parts deleted) before the error is thrown.
extension S3Storage {
  /// Uploads `bytes` in parts and returns CompleteMultipartUpload's answer, its ETag as an
  /// `etag` header, as a single PUT's would be (a 412 when the condition refused it).
  func uploadInParts(
    _ bytes: [UInt8], key: String, content: [(String, String)], conditions: [(String, String)]
  ) throws(StorageError) -> HTTPResponse {
    let location = "s3://\(bucket)/\(key)"
    let created = try send(
      "POST", key: key, query: [("uploads", "")], headers: content, body: [], display: "POST \(location)?uploads")
    guard created.status == 200 else { throw failure(created, key: key, action: .write) }
    guard let upload = S3Responses.field("UploadId", of: "InitiateMultipartUploadResult", in: created.body) else {
      throw StorageError(.server, location: location, message: "CreateMultipartUpload's answer has no UploadId")
    }
    do throws(StorageError) {
      var parts: [(number: Int, etag: String)] = []
      var start = 0
      while start < bytes.count {
        let number = parts.count + 1
        let end = min(bytes.count, start + options.partSize)
        let answer = try send(
          "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", upload)],
          body: Array(bytes[start..<end]),
          display: "PUT \(location) part \(number)")
        guard answer.status == 200, let etag = answer.headers["etag"] else {
          throw failure(answer, key: key, action: .write)
        }
        parts.append((number, etag))
        start = end
      }
      var document = "<CompleteMultipartUpload>"
      for part in parts {
        document += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(MarkupText.escaped(part.etag))</ETag></Part>"
      }
      document += "</CompleteMultipartUpload>"
      var completed = try send(
        "POST", key: key, query: [("uploadId", upload)], headers: [("Content-Type", "application/xml")] + conditions,
        body: Array(document.utf8), display: "POST \(location)?uploadId")
      // S3 may answer 200 with an error document once it has started completing.
      if completed.status == 200, let error = S3Responses.error(completed.body) {
        completed.status = error.code == "PreconditionFailed" ? 412 : 500
      }
      if completed.status == 200 {
        completed.headers["etag"] = S3Responses.field("ETag", of: "CompleteMultipartUploadResult", in: completed.body)
        return completed
      }
      abort(upload, key: key)
      return completed
    } catch {
      abort(upload, key: key)
      throw error
    }
  }

  /// AbortMultipartUpload, best effort: a bucket lifecycle rule removes what is left.
  private func abort(_ upload: String, key: String) {
    _ = try? send(
      "DELETE", key: key, query: [("uploadId", upload)], display: "DELETE s3://\(bucket)/\(key)?uploadId")
  }
}
