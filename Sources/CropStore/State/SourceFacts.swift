import CropPlan

/// What `stat` says about a file: a source whose identity equals the recorded one is taken
/// as unchanged (its header and hash are reused), as ninja trusts an input's mtime. The same
/// value the planner hands the header reader (one `stat` per source).
package typealias FileIdentity = SourceFileStatus

/// What the state records of one source (by absolute path): its identity when recorded, its
/// content hash (nil until a run hashed it) and its header.
package struct SourceFacts: Sendable, Equatable {
  package var identity: FileIdentity
  package var sha256: String?
  package var header: SourceHeader

  package init(identity: FileIdentity, sha256: String?, header: SourceHeader) {
    self.identity = identity
    self.sha256 = sha256
    self.header = header
  }
}
