import CropPlan
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The manifest entries of a run as it goes, one JSON line per output appended right after
/// the output's rename into place: a run killed with SIGKILL (or a crash, or the OOM killer)
/// loses none of the outputs it finished, because the next run reads the journal beside the
/// manifest (`Manifest.loadAll`) and skips them as up to date. The journal is removed once
/// the run's manifest, which includes every journaled entry, is written.
///
/// Appending is O(1) per output, unlike rewriting a manifest of millions of entries every N
/// outputs. Entries are appended after the rename, never before, so a journaled entry always
/// describes the file on disk; a kill between the rename and the append leaves a complete
/// output that is merely not recorded, and the next run writes it again.
package final class ManifestJournal: @unchecked Sendable {
  let path: String
  private let lock = NSLock()
  private var fd: Int32 = -1
  private var failed = false

  /// `cropjob-manifest.journal`, or one per shard like the manifest.
  package static func fileName(shard: Shard?) -> String {
    let manifest = Manifest.fileName(shard: shard)
    return String(manifest.dropLast(".json".count)) + ".journal"
  }

  package init(root: String, shard: Shard?) {
    path = (root as NSString).appendingPathComponent(Self.fileName(shard: shard))
  }

  /// Appends one entry (opening the journal, and creating the root, on first use). Errors are
  /// not fatal: an output missing from the journal is only rebuilt by the next run.
  package func append(_ entry: Manifest.Entry) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(entry) else { return }
    var line = [UInt8](data)
    line.append(0x0A)
    lock.lock()
    defer { lock.unlock() }
    if fd < 0 && !failed {
      fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
      if fd < 0 {
        failed = true
      } else {
        // A line a killed run left unfinished is ended, so that it cannot swallow this one.
        var last: UInt8 = 0x0A
        let size = lseek(fd, 0, SEEK_END)
        if size > 0 && pread(fd, &last, 1, size - 1) == 1 && last != 0x0A { line.insert(0x0A, at: 0) }
      }
    }
    guard fd >= 0 else { return }
    var written = 0
    while written < line.count {
      let n = line.withUnsafeBytes { write(fd, $0.baseAddress! + written, line.count - written) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 {
        // Out of space, say: cut the line short of its newline, so that readers drop it.
        failed = true
        close(fd)
        fd = -1
        return
      }
      written += n
    }
  }

  /// Closes the journal; removes it when `manifestWritten` (the manifest now holds it all).
  package func finish(manifestWritten: Bool) {
    lock.lock()
    defer { lock.unlock() }
    if fd >= 0 { close(fd) }
    fd = -1
    if manifestWritten { unlink(path) }
  }

  /// Entries of every journal in `root` (all shards), in the order they were appended; a
  /// line cut short by a kill, or otherwise unreadable, is skipped.
  package static func loadEntries(root: String) -> [Manifest.Entry] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
    var result: [Manifest.Entry] = []
    let decoder = JSONDecoder()
    for name in names.sorted() where name.hasPrefix("cropjob-manifest") && name.hasSuffix(".journal") {
      guard let data = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(name)) else {
        continue
      }
      for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
        if let entry = try? decoder.decode(Manifest.Entry.self, from: Data(line)) { result.append(entry) }
      }
    }
    return result
  }
}
