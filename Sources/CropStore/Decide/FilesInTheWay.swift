import CropPlan
import CropSpec
import CropSupport
import Foundation

/// A file in the output root that cropjob did not write, where the plan would write one: at
/// a planned output's path (the state neither records nor claims it) or at a delivery index
/// file's path (`index:`; not an index cropjob wrote). `plan` reports each and `run` refuses
/// them all, before anything is written, unless `--overwrite` is given (`Refusal`). Files the
/// state records or claims as cropjob's are its own: re-runs over them are unaffected.
public struct FileInTheWay: Sendable, Equatable {
  /// What cropjob would write there.
  public enum Kind: Sendable, Equatable {
    case output
    /// A delivery index file (its HTML or the JSON beside it).
    case index
  }

  public var kind: Kind
  /// Relative to the output root.
  public var path: String
  public var absolutePath: String
  /// The source of the output (relative, as the plan names it); "" for an index file.
  public var source: String

  package init(kind: Kind, path: String, absolutePath: String, source: String) {
    self.kind = kind
    self.path = path
    self.absolutePath = absolutePath
    self.source = source
  }

  /// A planned output in the way of a file cropjob did not write.
  package init(output: PlannedOutput, source: String) {
    self.init(kind: .output, path: output.path, absolutePath: output.absolutePath, source: source)
  }

  /// The one line that reports it (without a prefix such as `error:`).
  public var message: String {
    "would overwrite a file cropjob did not write: \(absolutePath)" + (kind == .index ? " (an index file)" : "")
  }

  /// The index files of `files` (their HTML and JSON paths) in the way: files there that are
  /// not indexes cropjob wrote (sorted by path).
  package static func indexFiles(_ files: [IndexFile], root: String) -> [FileInTheWay] {
    indexFiles(files, in: OutputStore(localRoot: root))
  }

  /// The index files of `files` in the way in `store` (read through it: the first bytes of
  /// each one there).
  package static func indexFiles(_ files: [IndexFile], in store: OutputStore) -> [FileInTheWay] {
    files.flatMap { [$0.path, IndexSpec.jsonPath($0.path)] }.sorted().compactMap { path in
      guard let head = store.read(path, limit: DeliveryIndex.markerBytes), !DeliveryIndex.isCropjobIndex(head)
      else { return nil }
      return FileInTheWay(kind: .index, path: path, absolutePath: store.displayName(path), source: "")
    }
  }

  /// Whether the file at `absolute` is missing or an index cropjob wrote (HTML or JSON).
  package static func isCropjobIndex(at absolute: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: absolute) else { return true }
    defer { try? handle.close() }
    return DeliveryIndex.isCropjobIndex(Array((try? handle.read(upToCount: DeliveryIndex.markerBytes)) ?? Data()))
  }
}
