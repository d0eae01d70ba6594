import CropStorage

/// A job's delivery index (`index:`): an HTML page of `<picture>` elements and the same data
/// as JSON, written after the job's outputs, per source or one file for the job.
package struct IndexSpec: Sendable, Hashable {
  /// The HTML file's path template, relative to the output root, ending in `.html`; the JSON
  /// file is the same path ending in `.json`. With `{stem}` or `{name}` one file per source,
  /// else one for the job's whole batch.
  package var path: String
  /// The `sizes` attribute of every `<img>` and `<source>`.
  package var sizes: String
  package var loading: IndexLoading
  package var decoding: IndexDecoding
  /// URLs are this prefix and the output's path under the root; nil: relative to the index file.
  package var baseURL: String?

  package init(path: String, sizes: String, loading: IndexLoading, decoding: IndexDecoding, baseURL: String?) {
    self.path = path
    self.sizes = sizes
    self.loading = loading
    self.decoding = decoding
    self.baseURL = baseURL
  }

  /// Where the index is written: `.local(path:)` is the template relative to the output
  /// root (wherever that root is, disk or S3); `.s3(bucket:key:)` (an `index.path` written
  /// `s3://bucket/key.html`) puts it at that key template in that bucket, whatever the root.
  package var location: StorageLocation {
    (try? StorageLocation.parse(path)) ?? .local(path: path)
  }

  /// One file per source: the template names the source.
  package var perSource: Bool { path.contains("{stem}") || path.contains("{name}") }

  /// The placeholders an index path may use.
  package static let placeholders = ["job", "stem", "name"]
}

/// The `loading` attribute of the index's images.
package enum IndexLoading: String, Sendable, Hashable, CaseIterable {
  case lazy, eager
}

/// The `decoding` attribute of the index's images.
package enum IndexDecoding: String, Sendable, Hashable, CaseIterable {
  case async, sync, auto
}
