import CropPlan
import Foundation

/// What `run`'s first pass needs of a recorded output to say whether it is up to date: its
/// key and the size of its file. (The full `Manifest.Entry` — geometry, source record,
/// notes — is decoded only where the manifest or the second pass needs it.)
public struct RecordedOutput: Sendable, Hashable {
  public var key: String
  public var bytes: Int

  public init(key: String, bytes: Int) {
    self.key = key
    self.bytes = bytes
  }
}

/// The state of some outputs and sources, light: per output its key and byte count, per
/// source its facts, and which outputs are claimed. Merged from the files exactly as
/// `StateSnapshot` is (`StateReader.light(outputs:sources:)`).
public struct LightState: Sendable {
  /// Recorded outputs by path relative to the output root.
  public var outputs: [String: RecordedOutput] = [:]
  /// Recorded sources by absolute path.
  public var sources: [String: SourceFacts] = [:]
  /// Paths a run claimed before writing them.
  public var claims: Set<String> = []

  public init() {}

  /// The light rows of a full snapshot.
  public init(_ snapshot: StateSnapshot) {
    outputs = snapshot.outputs.mapValues { RecordedOutput(key: $0.key, bytes: $0.bytes) }
    sources = snapshot.sources
    claims = snapshot.claims
  }

  /// Whether the file at `path` (relative to the root) is cropjob's: recorded or claimed.
  public func isOwn(_ path: String) -> Bool { outputs[path] != nil || claims.contains(path) }
}

extension StateReader.Merge where Row == Manifest.Entry {
  /// Keeps each output's full entry.
  static var full: Self {
    Self(columns: StateRows.outputColumns.components(separatedBy: ", "), decode: StateRows.entry)
  }
}

extension StateReader.Merge where Row == RecordedOutput {
  /// Keeps each output's key and byte count.
  static var light: Self {
    Self(columns: ["key", "bytes", "recorded_ns"]) { RecordedOutput(key: $0.text(0), bytes: Int($0.int(1))) }
  }
}

extension StateReader {
  /// `snapshot(outputs:sources:)`, light: the same outputs (merged the same way), with their
  /// keys and byte counts only; the same sources and claims.
  public func light(outputs: [String], sources: [String]) throws(StateError) -> LightState {
    lock.lock()
    defer { lock.unlock() }
    let sources = verifySources ? [] : sources
    if let whole { return LightState(Self.restrict(whole, outputs: outputs, sources: sources)) }
    let merge = try lookUp(Merge.light, outputs: outputs, sources: sources)
    var result = LightState()
    result.outputs = merge.mergedOutputs()
    result.sources = merge.sources
    result.claims = merge.claims
    return result
  }

  /// `light(outputs:sources:)` of the outputs among `selected` in `plan` and their file
  /// sources, keeping a failure (`failure`; the answer is then an empty state).
  public func lightWindow(of plan: Plan, selected: [Int]) -> LightState {
    let (outputs, sources) = Self.paths(of: plan, selected: selected)
    do {
      return try light(outputs: outputs, sources: sources)
    } catch {
      keep(error)
      return LightState()
    }
  }
}
