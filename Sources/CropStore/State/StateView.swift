import CropPlan
import Foundation

/// What the state records of some outputs and sources (or of all: `StateQuery.all`): per
/// output what `RecordedRows` keeps of its row, per source its facts, and which outputs are
/// claimed. Merged from the readable files (`StateFiles.readable`): the newest row per path
/// wins (the later file on a tie), removals newer than it apply, claims of any file count.
package struct StateView<Output: Sendable>: Sendable {
  /// Recorded outputs by path relative to the output root.
  package var outputs: [String: Output] = [:]
  /// Recorded sources by absolute path.
  package var sources: [String: SourceFacts] = [:]
  /// Paths a run claimed before writing them (cropjob's, though perhaps not recorded).
  package var claims: Set<String> = []

  package init() {}

  /// Whether the file at `path` (relative to the root) is cropjob's: recorded or claimed.
  package func isOwn(_ path: String) -> Bool { outputs[path] != nil || claims.contains(path) }
}

/// What a first pass needs of a recorded output to say whether it is up to date: its key
/// and the size of its file (`RecordedRows.keys`).
package struct RecordedOutput: Sendable, Hashable {
  package var key: String
  package var bytes: Int

  package init(key: String, bytes: Int) {
    self.key = key
    self.bytes = bytes
  }
}

/// What a read keeps of each recorded output: its full entry (`entries`: geometry, source
/// record, notes, for the manifest) or only its key and size (`keys`: the up-to-date check
/// and the overwrite guard). Only the columns kept are read.
package struct RecordedRows<Output: Sendable>: Sendable {
  /// The `outputs` columns the row is made of.
  let columns: [String]
  /// The row in the current result of a statement that selects `columns` first, in order
  /// (read by position).
  let decode: @Sendable (SQLiteConnection.Statement) -> Output
  /// The row of an output known from a JSON manifest (a state held whole).
  let project: @Sendable (Manifest.Entry) -> Output
}

extension RecordedRows where Output == Manifest.Entry {
  /// Each output's full entry.
  package static var entries: Self {
    Self(columns: StateRows.outputColumns, decode: StateRows.entry, project: { $0 })
  }
}

extension RecordedRows where Output == RecordedOutput {
  /// Each output's key and byte count.
  package static var keys: Self {
    Self(
      columns: ["key", "bytes"], decode: { RecordedOutput(key: $0.text(at: 0), bytes: Int($0.int(at: 1))) },
      project: { RecordedOutput(key: $0.key, bytes: $0.bytes) })
  }
}

/// Which rows a `StateReader` reads: the outputs at some paths (relative to the root), the
/// sources at some absolute paths, or everything the state records.
package struct StateQuery: Sendable {
  package var outputs: [String]
  package var sources: [String]
  /// Every recorded output, source and claim (a whole state in memory: for small roots,
  /// tools and tests).
  package var all: Bool

  package init(outputs: [String] = [], sources: [String] = []) {
    self.outputs = outputs
    self.sources = sources
    all = false
  }

  /// Everything the state records.
  package static let all = StateQuery(all: true)

  private init(all: Bool) {
    outputs = []
    sources = []
    self.all = all
  }

  /// The outputs among `selected` in `plan` and, with `sources`, their file sources (each
  /// once).
  package init(plan: Plan, selected: [Int], sources withSources: Bool = true) {
    var seen = Set<Int>()
    var sources: [String] = []
    for i in selected where withSources {
      let index = plan.outputs[i].sourceIndex
      if plan.sources[index].producedBy == nil, seen.insert(index).inserted {
        sources.append(plan.sources[index].absolutePath)
      }
    }
    self.init(outputs: selected.map { plan.outputs[$0].path }, sources: sources)
  }
}
