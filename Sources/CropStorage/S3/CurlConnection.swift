internal import CCurl
import CropSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One HTTP request as the S3 store makes it.
struct HTTPRequest: Sendable {
  var method: String
  var url: String
  var headers: [(String, String)]
  var body: [UInt8]?
}

/// The answer: status, headers (names in lower case) and body.
struct HTTPResponse: Sendable {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]
  /// How many times libcurl sent the request: more than once when a reused connection
  /// closed before any answer and libcurl sent it again on a new one by itself.
  var sendings = 1
}

/// Why a request got no answer: libcurl's code and text.
struct TransportFailure: Error, Sendable {
  var code: Int
  var message: String
  /// A reset, a timeout, a refused or dropped connection: worth another try.
  var retryable: Bool
  /// As `HTTPResponse.sendings` (0 when no connection was made).
  var sendings: Int
}

/// How a connection signs and times its requests.
struct ConnectionSettings: Sendable {
  var region: String
  var credentials: AWSCredentials
  var caBundle: String?
  /// Longest wait for a connection (TCP and TLS).
  var connectTimeout: Double
  /// Longest time a request may take in all.
  var requestTimeout: Double
  /// A request that moves fewer than 1 byte a second for this long is abandoned.
  var stallTimeout: Int
}

/// One libcurl easy handle: requests on it reuse its open connection (and TLS session)
/// while the server keeps it alive. Used by one thread at a time (the pool hands it out).
final class CurlConnection: @unchecked Sendable {
  private let handle: UnsafeMutableRawPointer
  private let settings: ConnectionSettings
  /// Connections libcurl opened on this handle (CURLINFO_NUM_CONNECTS summed).
  private(set) var connectionsOpened = 0

  /// SHA-256 of no bytes: the payload hash of every request without a body.
  static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

  static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

  init(settings: ConnectionSettings) {
    Self.globalInit
    guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
    self.handle = handle
    self.settings = settings
  }

  deinit { curl_easy_cleanup(handle) }

  /// Sends `request` and waits for the whole answer.
  func perform(_ request: HTTPRequest) -> Result<HTTPResponse, TransportFailure> {
    // Reset clears the options and keeps the live connection and the TLS session cache.
    curl_easy_reset(handle)
    let sink = ResponseSink()
    sink.expectsBody = request.method != "HEAD"
    let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
    var headerList: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(headerList) }
    var headers = request.headers
    if request.body != nil && !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
      // Else libcurl would send a body as a form (application/x-www-form-urlencoded).
      headers.append(("Content-Type", "application/octet-stream"))
    }
    // The payload hash libcurl signs (x-amz-content-sha256): libcurl 7.88 uses the header
    // when it is given and does not compute one for S3 itself.
    headers.append(("x-amz-content-sha256", request.body.map { SHA256.hex($0) } ?? Self.emptyPayloadHash))
    // No "Expect:" to turn off 100-continue: libcurl 7.88 signs a removed header as if sent,
    // and the server then finds another signature (S3AuthTests caught it).
    if let token = settings.credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
    for (name, value) in headers {
      let line = value.isEmpty ? "\(name):" : "\(name): \(value)"
      headerList = curl_slist_append(headerList, line)
    }
    var setupFailed = false
    func check(_ code: CURLcode) { if code != CURLE_OK { setupFailed = true } }
    check(cj_curl_set_string(handle, CURLOPT_URL, request.url))
    check(cj_curl_set_long(handle, CURLOPT_PATH_AS_IS, 1))  // Keys with "./" stay as they are.
    check(cj_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
    check(cj_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
    check(cj_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
    check(cj_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
    check(cj_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
    if let caBundle = settings.caBundle { check(cj_curl_set_string(handle, CURLOPT_CAINFO, caBundle)) }
    check(cj_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout * 1000)))
    check(cj_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(settings.requestTimeout * 1000)))
    check(cj_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
    check(cj_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, settings.stallTimeout))
    check(cj_curl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 1))
    check(cj_curl_set_string(handle, CURLOPT_AWS_SIGV4, "aws:amz:\(settings.region):s3"))
    check(cj_curl_set_string(handle, CURLOPT_USERNAME, settings.credentials.accessKeyID))
    check(cj_curl_set_string(handle, CURLOPT_PASSWORD, settings.credentials.secretAccessKey))
    check(cj_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)))
    check(cj_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
    check(cj_curl_set_pointer(handle, CURLOPT_WRITEDATA, sinkPointer))
    check(cj_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
    check(cj_curl_set_pointer(handle, CURLOPT_HEADERDATA, sinkPointer))
    // The pre-request callback counts the sendings (libcurl calls it for each one). Not
    // CURLOPT_VERBOSE with a debug callback: that made libcurl format its trace text for
    // every request and call back for every chunk of data.
    check(cj_curl_set_prereq_callback(handle, curlCountSendings))
    check(cj_curl_set_pointer(handle, CURLOPT_PREREQDATA, sinkPointer))
    // Answers are read in pieces of up to this size (libcurl's default is 16 KiB): fewer
    // reads and body callbacks for a photo.
    check(cj_curl_set_long(handle, CURLOPT_BUFFERSIZE, receiveBufferSize))
    switch request.method {
    case "GET": break
    case "HEAD": check(cj_curl_set_long(handle, CURLOPT_NOBODY, 1))
    default: check(cj_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
    }
    let body = request.body ?? (request.method == "PUT" || request.method == "POST" ? [] : nil)
    let code: CURLcode = withExtendedLifetime(sink) {
      guard let body else { return setupFailed ? CURLE_FAILED_INIT : curl_easy_perform(handle) }
      // A body as POSTFIELDS (with the method set above): libcurl sends it from this buffer
      // and can send it again on a fresh connection without a rewind callback.
      return body.withUnsafeBytes { bytes -> CURLcode in
        check(cj_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
        let start = bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        check(cj_curl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: start)))
        return setupFailed ? CURLE_FAILED_INIT : curl_easy_perform(handle)
      }
    }
    var connects = 0
    _ = cj_curl_info_long(handle, CURLINFO_NUM_CONNECTS, &connects)
    connectionsOpened += connects
    guard code == CURLE_OK else {
      let retryable = [
        CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING,
        CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM,
      ].contains(code)
      return .failure(
        TransportFailure(
          code: Int(code.rawValue), message: String(cString: curl_easy_strerror(code)), retryable: retryable,
          sendings: sink.sendings))
    }
    var status = 0
    _ = cj_curl_info_long(handle, CURLINFO_RESPONSE_CODE, &status)
    return .success(
      HTTPResponse(status: status, headers: sink.headers, body: sink.body, sendings: max(1, sink.sendings)))
  }
}

/// Where libcurl's callbacks put the answer.
private final class ResponseSink {
  var body: [UInt8] = []
  var headers: [String: String] = [:]
  var sendings = 0
  /// Whether an answer's body is expected (not for HEAD): its Content-Length then sizes
  /// `body` once instead of letting it grow chunk by chunk.
  var expectsBody = true
}

/// Bodies up to this size are allocated whole from their Content-Length; a larger one grows
/// as it arrives (a wrong length from a server cannot make a huge allocation).
private let largestReservedBody = 64 << 20

/// The size of each handle's receive buffer (libcurl allocates it once per handle).
private let receiveBufferSize = 256 << 10

private let curlCountSendings: cj_curl_prereq_callback = { user, _, _, _, _ in
  Unmanaged<ResponseSink>.fromOpaque(user!).takeUnretainedValue().sendings += 1
  return 0  // CURL_PREREQFUNC_OK
}

private let curlWriteBody: cj_curl_data_callback = { buffer, size, count, user in
  let sink = Unmanaged<ResponseSink>.fromOpaque(user!).takeUnretainedValue()
  let length = size * count
  if let buffer { sink.body.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: length)) }
  return length
}

private let curlWriteHeader: cj_curl_data_callback = { buffer, size, count, user in
  let sink = Unmanaged<ResponseSink>.fromOpaque(user!).takeUnretainedValue()
  let length = size * count
  guard let buffer else { return length }
  let line = UnsafeRawBufferPointer(start: buffer, count: length)
  if line.starts(with: "HTTP/".utf8) {
    sink.headers = [:]  // A new answer (after an interim one): only its headers count.
  } else if let (name, value) = HeaderLine.parse(line) {
    sink.headers[name] = value
    if name == "content-length", sink.expectsBody, sink.body.isEmpty, let size = Int(value),
      (1...largestReservedBody).contains(size)
    {
      sink.body.reserveCapacity(size)
    }
  }
  return length
}

/// One header line of an answer as libcurl hands it over (`Name: value` and its line end),
/// read on its bytes: a header callback runs for every line of every answer.
enum HeaderLine {
  /// The name in ASCII lower case and the value without the blanks and line end around it;
  /// nil for a line without a colon (the blank line that ends the headers).
  static func parse(_ line: UnsafeRawBufferPointer) -> (name: String, value: String)? {
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    let name = String(
      unsafeUninitializedCapacity: colon,
      initializingUTF8With: { out in
        for i in 0..<colon {
          let byte = line[i]
          out[i] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        return colon
      })
    func blank(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\n")
    }
    var start = colon + 1
    var end = line.count
    while start < end && blank(line[start]) { start += 1 }
    while end > start && blank(line[end - 1]) { end -= 1 }
    return (name, String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<end]), as: UTF8.self))
  }
}
