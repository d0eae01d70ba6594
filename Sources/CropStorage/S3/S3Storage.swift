import CropSupport
import Foundation

/// One S3 bucket (AWS, R2, GCS's XML API, MinIO, Ceph RGW) as an `ObjectStorage`, through
/// libcurl with its SigV4 signing. Requests retry per `RetryPolicy`, each retry reported
/// through `Options.onEvent`; at most `Options.maxInFlight` run at once, each on a libcurl
/// handle that keeps its connection open for the next one. Errors say what to check and
/// never hold the secret (`StorageError`).
public final class S3Storage: ObjectStorage, @unchecked Sendable {
  /// How writes that may not replace an object are made safe.
  public enum ConditionalWrites: Sendable {
    /// `If-None-Match: *` (and `If-Match: etag` for a key cropjob wrote): the server refuses
    /// atomically. AWS S3 (since 2024), MinIO, Cloudflare R2 and moto support it.
    case headers
    /// A HEAD before the PUT, for servers that ignore the headers: a writer racing between
    /// the two is not seen.
    case headFirst
  }

  public struct Options: Sendable {
    public var maxInFlight: Int
    public var retry: RetryPolicy
    /// Seconds to wait for a connection.
    public var connectTimeout: Double
    /// Seconds a request may take in all.
    public var requestTimeout: Double
    /// Seconds a request may move no byte before it is abandoned (and retried).
    public var stallTimeout: Int
    public var conditionalWrites: ConditionalWrites
    /// Objects larger than this many bytes are uploaded in parts (S3Multipart.swift).
    public var multipartThreshold: Int
    /// The size of each part but the last (S3's minimum is 5 MiB, its maximum 10,000 parts).
    public var partSize: Int
    /// Called for each retry, on the thread that made the request.
    public var onEvent: (@Sendable (StorageEvent) -> Void)?
    /// How the store waits between attempts (tests may record instead).
    public var sleep: @Sendable (Double) -> Void

    public init(
      maxInFlight: Int = 16, retry: RetryPolicy = RetryPolicy(), connectTimeout: Double = 10,
      requestTimeout: Double = 300, stallTimeout: Int = 30, conditionalWrites: ConditionalWrites = .headers,
      multipartThreshold: Int = 64 << 20, partSize: Int = 16 << 20, onEvent: (@Sendable (StorageEvent) -> Void)? = nil,
      sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
      precondition(maxInFlight >= 1, "at least one request in flight")
      self.maxInFlight = maxInFlight
      self.retry = retry
      self.connectTimeout = connectTimeout
      self.requestTimeout = requestTimeout
      self.stallTimeout = stallTimeout
      self.conditionalWrites = conditionalWrites
      precondition(partSize >= 5 << 20 && multipartThreshold >= partSize, "parts of 5 MiB or more")
      self.multipartThreshold = multipartThreshold
      self.partSize = partSize
      self.onEvent = onEvent
      self.sleep = sleep
    }
  }

  public let bucket: String
  public let settings: S3Settings
  public let options: Options
  private let pool: ConnectionPool
  private let jitter: JitterSource
  private let lock = NSLock()
  private var sent = 0
  private var retried = 0

  public init(bucket: String, settings: S3Settings, options: Options = Options()) {
    self.bucket = bucket
    self.settings = settings
    self.options = options
    pool = ConnectionPool(
      limit: options.maxInFlight,
      settings: ConnectionSettings(
        region: settings.region, credentials: settings.credentials, caBundle: settings.caBundle,
        connectTimeout: options.connectTimeout, requestTimeout: options.requestTimeout,
        stallTimeout: options.stallTimeout))
    jitter = JitterSource(seed: options.retry.seed)
  }

  public var displayName: String { "s3://\(bucket)" }

  public var statsAreRequests: Bool { true }

  /// Requests sent (retries included), retries, libcurl handles made and TCP connections
  /// opened so far. Read it when no request is in flight.
  public var statistics: (requests: Int, retries: Int, handles: Int, connections: Int) {
    let (handles, connections) = pool.counts
    return lock.withLock { (sent, retried, handles, connections) }
  }

  public func list(prefix: String, pageSize: Int) -> any ObjectPages {
    S3Pages(storage: self, prefix: prefix, pageSize: min(1000, max(1, pageSize)))
  }

  /// One ListObjectsV2 request: the objects and the token of the next page.
  func listPage(prefix: String, pageSize: Int, continuation: String?) throws(StorageError) -> S3Responses.ListPage {
    var query = [("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", prefix)]
    if let continuation { query.append(("continuation-token", continuation)) }
    let response = try send("GET", key: "", query: query, display: "LIST s3://\(bucket)/\(prefix)")
    guard response.status == 200 else { throw failure(response, key: prefix, action: .list) }
    guard let page = S3Responses.listPage(response.body) else {
      throw StorageError(
        .server, location: "s3://\(bucket)/\(prefix)",
        message: "the listing's answer is not a ListBucketResult (is \(settings.endpoint) an S3 endpoint?)")
    }
    return page
  }

  public func stat(_ key: String) throws(StorageError) -> ObjectInfo? {
    let response = try send("HEAD", key: key, display: "HEAD s3://\(bucket)/\(key)")
    if response.status == 404 { return nil }
    guard response.status == 200 else { throw failure(response, key: key, action: .read) }
    let size = Int64(response.headers["content-length"] ?? "") ?? 0
    let token = ChangeToken.object(
      etag: S3Responses.unquoted(response.headers["etag"] ?? ""), size: size,
      lastModified: response.headers["last-modified"] ?? "", versionID: response.headers["x-amz-version-id"])
    return ObjectInfo(key: key, size: size, token: token)
  }

  public func read(_ key: String, range: ByteRange?) throws(StorageError) -> [UInt8] {
    var headers: [(String, String)] = []
    if let range { headers.append(("Range", "bytes=\(range.offset)-\(range.offset + range.length - 1)")) }
    let response = try send("GET", key: key, headers: headers, display: "GET s3://\(bucket)/\(key)")
    switch response.status {
    case 206: return response.body
    case 200:
      // A server that ignores Range sends the whole object.
      guard let range else { return response.body }
      let start = Int(min(range.offset, Int64(response.body.count)))
      return Array(response.body[start..<Int(min(Int64(response.body.count), range.offset + range.length))])
    case 416: return []
    default: throw failure(response, key: key, action: .read)
    }
  }

  @discardableResult
  public func write(_ bytes: [UInt8], to key: String, options write: WriteOptions) throws(StorageError) -> WrittenObject
  {
    let location = "s3://\(bucket)/\(key)"
    guard bytes.count <= options.partSize * 10_000 else {
      throw StorageError(
        .server, location: location,
        message: "larger than 10,000 parts of \(options.partSize) bytes: raise the part size")
    }
    var content = [("Content-Type", write.contentType)]
    if let cacheControl = write.cacheControl { content.append(("Cache-Control", cacheControl)) }
    var conditions: [(String, String)] = []
    var expected: String?
    switch write.overwrite {
    case .always: break
    case .never: expected = nil
    case .ifUnchanged(.object(let etag, _, _, _)): expected = etag
    case .ifUnchanged(.file):
      throw StorageError(.configuration, location: location, message: "a local file's token cannot guard an S3 write")
    }
    if case .always = write.overwrite {
    } else if options.conditionalWrites == .headers {
      conditions.append(expected.map { ("If-Match", "\"\($0)\"") } ?? ("If-None-Match", "*"))
    } else if let now = try stat(key) {
      guard let expected,
        now.token.sameContent(as: .object(etag: expected, size: now.size, lastModified: "", versionID: nil))
      else { throw refusal(location, now) }
    }
    let response =
      bytes.count > options.multipartThreshold
      ? try uploadInParts(bytes, key: key, content: content, conditions: conditions)
      : try send("PUT", key: key, headers: content + conditions, body: bytes, display: "PUT \(location)")
    if response.status == 412 || response.status == 409, try read(key) == bytes {
      // An earlier sending of this write landed and its answer was lost (a retry, or libcurl
      // sending again on a new connection), or the key already holds exactly these bytes.
      let now = try stat(key)
      return WrittenObject(key: key, size: Int64(bytes.count), etag: now?.etagText, versionID: now?.versionText)
    }
    if response.status == 412
      || (response.status == 404 && expected != nil && S3Responses.error(response.body)?.code == "NoSuchKey")
    {
      throw refusal(location, try stat(key))
    }
    guard response.status == 200 else { throw failure(response, key: key, action: .write) }
    return WrittenObject(
      key: key, size: Int64(bytes.count), etag: response.headers["etag"].map(S3Responses.unquoted),
      versionID: response.headers["x-amz-version-id"])
  }

  public func delete(_ key: String) throws(StorageError) {
    let response = try send("DELETE", key: key, display: "DELETE s3://\(bucket)/\(key)")
    guard [200, 204, 404].contains(response.status) else {
      throw failure(response, key: key, action: .delete)
    }
  }

  private func refusal(_ location: String, _ now: ObjectInfo?) -> StorageError {
    StorageError(
      .exists, location: location,
      message: "holds an object cropjob did not write"
        + (now.map { " (\($0.token))" } ?? "") + ": not replaced (remove it, or tell cropjob to overwrite)")
  }

  /// One request with its retries: the last answer, or an error when no answer came.
  func send(
    _ method: String, key: String, query: [(String, String)] = [], headers: [(String, String)] = [],
    body: [UInt8]? = nil, display: String
  ) throws(StorageError) -> HTTPResponse {
    let request = HTTPRequest(
      method: method, url: settings.endpoint.url(bucket: bucket, key: key, query: query, style: settings.addressing),
      headers: headers, body: body)
    let policy = options.retry
    for attempt in 1...policy.maxAttempts {
      let result = pool.withConnection { $0.perform(request) }
      let sendings: Int
      switch result {
      case .success(let response): sendings = response.sendings
      case .failure(let failure): sendings = failure.sendings
      }
      lock.withLock { sent += max(1, sendings) }
      if sendings > 1 {
        // libcurl sent the request again by itself after a reused connection closed.
        lock.withLock { retried += sendings - 1 }
        for _ in 1..<sendings {
          options.onEvent?(
            StorageEvent(
              request: display, attempt: attempt, maxAttempts: policy.maxAttempts,
              reason: "connection closed before an answer, sent again at once on a new connection", delay: 0))
        }
      }
      let reason: String
      switch result {
      case .success(let response):
        let code = response.status >= 300 ? S3Responses.error(response.body)?.code : nil
        guard RetryPolicy.retryable(status: response.status, code: code), attempt < policy.maxAttempts else {
          return response
        }
        reason = "\(response.status)" + (code.map { " \($0)" } ?? "")
      case .failure(let failure):
        guard failure.retryable, attempt < policy.maxAttempts else {
          // libcurl's TLS failures: CURLE_SSL_CONNECT_ERROR, _PEER_FAILED_VERIFICATION,
          // _SSL_CERTPROBLEM, _SSL_CACERT_BADFILE.
          let check =
            [35, 58, 60, 77].contains(failure.code)
            ? "check the server's certificate, or name the CA that signed it in AWS_CA_BUNDLE"
            : "check that \(settings.endpoint) (from \(settings.endpointSource)) is reachable"
          throw StorageError(
            .transport, location: display,
            message: redacted(
              "\(failure.message) (libcurl \(failure.code)) after \(attempt) attempt\(attempt == 1 ? "" : "s"): "
                + check))
        }
        reason = failure.message
      }
      let delay = jitter.draw(upTo: policy.ceiling(after: attempt))
      lock.withLock { retried += 1 }
      options.onEvent?(
        StorageEvent(request: display, attempt: attempt, maxAttempts: policy.maxAttempts, reason: reason, delay: delay))
      options.sleep(delay)
    }
    fatalError("unreachable: the last attempt returns or throws")
  }

  /// What a request was for, to name the permission it needs.
  enum Action: String {
    case list = "s3:ListBucket"
    case read = "s3:GetObject"
    case write = "s3:PutObject"
    case delete = "s3:DeleteObject"
  }

  /// The error an unsuccessful answer means, with what to check.
  func failure(_ response: HTTPResponse, key: String, action: Action) -> StorageError {
    let location = "s3://\(bucket)/\(key)"
    let parsed = S3Responses.error(response.body)
    var code = parsed?.code
    if code == nil {
      // HEAD answers have no body.
      code = [301: "PermanentRedirect", 403: "AccessDenied", 404: "NoSuchKey"][response.status]
    }
    let credentials = settings.credentials
    switch code {
    case "NoSuchKey":
      return StorageError(.notFound, location: location, message: "no such key")
    case "NoSuchBucket":
      return StorageError(
        .noSuchBucket, location: location,
        message: "the bucket '\(bucket)' does not exist at \(settings.endpoint) (NoSuchBucket): check the bucket "
          + "name, the endpoint (from \(settings.endpointSource)) and the region \(settings.region) "
          + "(from \(settings.regionSource))")
    case "AccessDenied":
      return StorageError(
        .accessDenied, location: location,
        message: "access denied (AccessDenied, HTTP \(response.status)): check that \(credentials) may "
          + "\(action.rawValue) on bucket '\(bucket)' (its IAM policy and the bucket policy)")
    case "InvalidAccessKeyId":
      return StorageError(
        .invalidAccessKey, location: location,
        message: "the access key ID from \(credentials.source) is unknown at \(settings.endpoint) "
          + "(InvalidAccessKeyId): check the key, and that the endpoint (from \(settings.endpointSource)) is the "
          + "store it belongs to")
    case "SignatureDoesNotMatch":
      return StorageError(
        .signatureMismatch, location: location,
        message: "the request's signature does not match (SignatureDoesNotMatch): check the secret access key "
          + "from \(credentials.source) (it is never shown) and that this machine's clock is right")
    case "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException":
      let actual = response.headers["x-amz-bucket-region"].map { " (the server says \($0))" } ?? ""
      return StorageError(
        .wrongRegion, location: location,
        message: "the bucket '\(bucket)' is not in region \(settings.region) (from \(settings.regionSource))"
          + "\(actual): set AWS_REGION to the bucket's region")
    default:
      let text = parsed.map { "\($0.code): \($0.message)" } ?? "no error document"
      return StorageError(.server, location: location, message: redacted("HTTP \(response.status), \(text)"))
    }
  }

  /// `text` with the secret (and session token) cut out, should a server have echoed them.
  func redacted(_ text: String) -> String {
    var text = text
    for secret in [settings.credentials.secretAccessKey, settings.credentials.sessionToken ?? ""] where !secret.isEmpty
    {
      text = text.replacingOccurrences(of: secret, with: "[secret]")
    }
    return text
  }
}

extension ObjectInfo {
  fileprivate var etagText: String? {
    if case .object(let etag, _, _, _) = token { return etag }
    return nil
  }
  fileprivate var versionText: String? {
    if case .object(_, _, _, let version) = token { return version }
    return nil
  }
}

/// An S3 listing: one ListObjectsV2 request per page, following continuation tokens.
final class S3Pages: ObjectPages {
  private let storage: S3Storage
  private let prefix: String
  private let pageSize: Int
  private var continuation: String?
  private var done = false

  init(storage: S3Storage, prefix: String, pageSize: Int) {
    self.storage = storage
    self.prefix = prefix
    self.pageSize = pageSize
  }

  func next() throws(StorageError) -> [ObjectInfo]? {
    guard !done else { return nil }
    let page = try storage.listPage(prefix: prefix, pageSize: pageSize, continuation: continuation)
    continuation = page.continuation
    done = page.continuation == nil
    return page.objects
  }
}
