/// What the first pass of `plan` knows of a window's outputs beyond the plan itself, for
/// `plan --format json`.
package struct OutputFacts: Sendable {
  /// The paths of the outputs an earlier run left up to date.
  package var upToDate: Set<String>
  /// Output path → the key the manifest will hold (`OutputKey.key`), for the outputs whose
  /// source's content hash is known before the run.
  package var manifestKeys: [String: String]

  package init(upToDate: Set<String> = [], manifestKeys: [String: String] = [:]) {
    self.upToDate = upToDate
    self.manifestKeys = manifestKeys
  }
}
