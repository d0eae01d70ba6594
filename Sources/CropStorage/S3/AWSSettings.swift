import Foundation

/// An access key, where it came from, and never its secret in any text: `description` and
/// every message name the source (`AWS_ACCESS_KEY_ID`, `profile x in ~/.aws/credentials`).
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible {
  public var accessKeyID: String
  public var secretAccessKey: String
  public var sessionToken: String?
  /// Where the key was found, for messages.
  public var source: String

  public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String) {
    self.accessKeyID = accessKeyID
    self.secretAccessKey = secretAccessKey
    self.sessionToken = sessionToken
    self.source = source
  }

  public var description: String { "the access key from \(source)" }
}

/// How a bucket is named in a request's URL.
public enum AddressingStyle: String, Sendable, Equatable {
  /// `https://endpoint/bucket/key` (MinIO, Ceph RGW and other self-hosted stores).
  case path
  /// `https://bucket.endpoint/key` (AWS's default).
  case virtual
  /// Virtual where the bucket name allows it (a DNS label; no dots over HTTPS) and the
  /// endpoint is a host name, path otherwise (an IP address, `localhost`): botocore's rule.
  case auto
}

/// Everything the S3 store needs to know about where and as whom: resolved from the places
/// the AWS CLI and SDKs read (`resolve`), never from a job file.
public struct S3Settings: Sendable, Equatable {
  public var credentials: AWSCredentials
  public var region: String
  /// Where the region came from (`AWS_REGION`, `profile x in ~/.aws/config`, `default`).
  public var regionSource: String
  public var endpoint: S3Endpoint
  /// Where the endpoint came from (`AWS_ENDPOINT_URL_S3`, ..., `AWS's endpoint for the region`).
  public var endpointSource: String
  public var addressing: AddressingStyle
  /// A file of CA certificates to trust instead of the system's (`AWS_CA_BUNDLE`, `ca_bundle`).
  public var caBundle: String?

  public init(
    credentials: AWSCredentials, region: String, regionSource: String = "given", endpoint: S3Endpoint,
    endpointSource: String = "given", addressing: AddressingStyle = .auto, caBundle: String? = nil
  ) {
    self.credentials = credentials
    self.region = region
    self.regionSource = regionSource
    self.endpoint = endpoint
    self.endpointSource = endpointSource
    self.addressing = addressing
    self.caBundle = caBundle
  }

  /// Resolves the settings as the AWS CLI does (docs/storage.md, "Credentials"):
  /// - profile: `AWS_PROFILE`, else `default`; a profile named but found in neither file is
  ///   an error;
  /// - credentials: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`),
  ///   else the profile in the credentials file (`AWS_SHARED_CREDENTIALS_FILE`, else
  ///   `~/.aws/credentials`), else the profile in the config file (`AWS_CONFIG_FILE`, else
  ///   `~/.aws/config`); one of the pair without the other is an error;
  /// - region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`;
  /// - endpoint (unless `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is true): `AWS_ENDPOINT_URL_S3`,
  ///   `AWS_ENDPOINT_URL`, the profile's `s3 = endpoint_url` (nested, or in the `[services]`
  ///   section the profile names), the profile's `endpoint_url`, else AWS's endpoint for the
  ///   region;
  /// - addressing: the profile's nested `s3 = addressing_style` (`path`, `virtual`, `auto`);
  /// - CA bundle: `AWS_CA_BUNDLE`, else the profile's `ca_bundle`.
  ///
  /// `environment` is the process environment; `home` is where `~` points.
  public static func resolve(environment: [String: String], home: String) throws(StorageError) -> S3Settings {
    func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    let configPath = env("AWS_CONFIG_FILE").map { expand($0, home) } ?? "\(home)/.aws/config"
    let credentialsPath = env("AWS_SHARED_CREDENTIALS_FILE").map { expand($0, home) } ?? "\(home)/.aws/credentials"
    let config = try readFile(configPath)
    let shared = try readFile(credentialsPath)
    let profileName = env("AWS_PROFILE") ?? "default"
    let profile = config?.configProfile(profileName)
    let sharedProfile = shared?.credentialsProfile(profileName)
    if env("AWS_PROFILE") != nil && profile == nil && sharedProfile == nil {
      throw StorageError(
        .configuration, location: "",
        message: "the profile '\(profileName)' (AWS_PROFILE) is in neither \(configPath) nor \(credentialsPath)")
    }
    let configName = "profile \(profileName) in \(configPath)"

    let credentials = try credentials(
      env: env, profileName: profileName, profile: profile, sharedProfile: sharedProfile,
      configPath: configPath, credentialsPath: credentialsPath)

    let region: String
    let regionSource: String
    if let value = env("AWS_REGION") {
      (region, regionSource) = (value, "AWS_REGION")
    } else if let value = env("AWS_DEFAULT_REGION") {
      (region, regionSource) = (value, "AWS_DEFAULT_REGION")
    } else if let value = profile?.values["region"] {
      (region, regionSource) = (value, configName)
    } else {
      (region, regionSource) = ("us-east-1", "the default, us-east-1 (no AWS_REGION, AWS_DEFAULT_REGION or region)")
    }

    let s3Nested = profile?.nested["s3"] ?? [:]
    let services = profile?.values["services"].flatMap { config?.sections["services \($0)"]?.nested["s3"] } ?? [:]
    let ignoreConfigured = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercased() == "true"
    var candidates: [(String?, String)] = []
    if !ignoreConfigured {
      candidates = [
        (env("AWS_ENDPOINT_URL_S3"), "AWS_ENDPOINT_URL_S3"), (env("AWS_ENDPOINT_URL"), "AWS_ENDPOINT_URL"),
        (s3Nested["endpoint_url"], "s3 = endpoint_url of \(configName)"),
        (services["endpoint_url"], "the services section of \(configName)"),
        (profile?.values["endpoint_url"], "endpoint_url of \(configName)"),
      ]
    }
    let endpoint: S3Endpoint
    let endpointSource: String
    if let (value, source) = candidates.first(where: { $0.0 != nil }).map({ ($0.0!, $0.1) }) {
      endpoint = try S3Endpoint(parsing: value, source: source)
      endpointSource = source
    } else {
      endpoint = S3Endpoint(scheme: "https", host: "s3.\(region).amazonaws.com", port: nil, basePath: "")
      endpointSource = "AWS's endpoint for region \(region)"
    }

    let style = (s3Nested["addressing_style"] ?? services["addressing_style"] ?? "auto").lowercased()
    guard let addressing = AddressingStyle(rawValue: style) else {
      throw StorageError(
        .configuration, location: "",
        message: "addressing_style '\(style)' in \(configName) is none of path, virtual, auto")
    }
    let caBundle =
      env("AWS_CA_BUNDLE").map { expand($0, home) } ?? profile?.values["ca_bundle"].map { expand($0, home) }
    return S3Settings(
      credentials: credentials, region: region, regionSource: regionSource, endpoint: endpoint,
      endpointSource: endpointSource, addressing: addressing, caBundle: caBundle)
  }

  private static func credentials(
    env: (String) -> String?, profileName: String, profile: AWSConfigFile.Section?,
    sharedProfile: AWSConfigFile.Section?, configPath: String, credentialsPath: String
  ) throws(StorageError) -> AWSCredentials {
    let id = env("AWS_ACCESS_KEY_ID")
    let secret = env("AWS_SECRET_ACCESS_KEY")
    if let id, let secret {
      return AWSCredentials(
        accessKeyID: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"),
        source: "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
          + (env("AWS_SESSION_TOKEN") == nil ? "" : " (with AWS_SESSION_TOKEN)"))
    }
    if id != nil || secret != nil {
      throw StorageError(
        .configuration, location: "",
        message: "\(id == nil ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID") is set without "
          + "\(id == nil ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY"): set both, or neither to use a profile")
    }
    for (section, name) in [
      (sharedProfile, "profile \(profileName) in \(credentialsPath)"),
      (profile, "profile \(profileName) in \(configPath)"),
    ] {
      guard let values = section?.values else { continue }
      let id = values["aws_access_key_id"]
      let secret = values["aws_secret_access_key"]
      if let id, let secret {
        return AWSCredentials(
          accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"], source: name)
      }
      if id != nil || secret != nil {
        throw StorageError(
          .configuration, location: "",
          message: "\(name) has \(id == nil ? "aws_secret_access_key" : "aws_access_key_id") without "
            + "\(id == nil ? "aws_access_key_id" : "aws_secret_access_key")")
      }
    }
    let unsupported = ["role_arn", "credential_process", "sso_session", "sso_start_url", "web_identity_token_file"]
    if let key = unsupported.first(where: { profile?.values[$0] != nil }) {
      throw StorageError(
        .configuration, location: "",
        message: "profile \(profileName) in \(configPath) gets its credentials through \(key), which cropjob "
          + "does not support yet: export them first (aws configure export-credentials --format env)")
    }
    throw StorageError(
      .configuration, location: "",
      message: "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with a profile "
        + "in \(credentialsPath) or \(configPath)")
  }

  private static func expand(_ path: String, _ home: String) -> String {
    path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst() : path
  }

  /// The parsed file at `path`, nil when there is none; unreadable is an error.
  private static func readFile(_ path: String) throws(StorageError) -> AWSConfigFile? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StorageError(.configuration, location: path, message: "cannot read the AWS settings file")
    }
    return AWSConfigFile(parsing: String(decoding: data, as: UTF8.self))
  }
}
