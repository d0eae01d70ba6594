/// Why a storage call failed: what kind of failure (for callers to switch on), where (an
/// `s3://bucket/key` or a path) and a message that says what to check. Never holds a secret:
/// the S3 store builds its messages from the request and the error code, names where the
/// credentials came from, and removes the secret from any text the server sent back.
public struct StorageError: Error, Sendable, CustomStringConvertible, Equatable {
  public enum Kind: Sendable, Hashable {
    /// No object at the key.
    case notFound
    /// The bucket does not exist at the endpoint (S3 `NoSuchBucket`).
    case noSuchBucket
    /// The credentials may not do this (S3 `AccessDenied`, HTTP 403).
    case accessDenied
    /// The access key ID is unknown to the endpoint (S3 `InvalidAccessKeyId`).
    case invalidAccessKey
    /// The signature does not match: a wrong secret, region or clock (`SignatureDoesNotMatch`).
    case signatureMismatch
    /// The bucket lives in another region than the one used (`PermanentRedirect`,
    /// `AuthorizationHeaderMalformed`).
    case wrongRegion
    /// A write refused because the key holds an object it may not replace (`Overwrite`).
    case exists
    /// A location that is not `s3://bucket/...` or a local path.
    case unsupportedLocation
    /// Missing or unusable settings: credentials, region, endpoint, profile.
    case configuration
    /// The server could not be reached or the connection failed, after every retry.
    case transport
    /// Another answer of the server (after every retry where retrying made sense).
    case server
    /// A local file-system call failed.
    case local
  }

  public var kind: Kind
  /// The object or store the call was about (`s3://bucket/key`, a path).
  public var location: String
  public var message: String

  public var description: String { location.isEmpty ? message : "\(location): \(message)" }

  public init(_ kind: Kind, location: String, message: String) {
    self.kind = kind
    self.location = location
    self.message = message
  }
}
