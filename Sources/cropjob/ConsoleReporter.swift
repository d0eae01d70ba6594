import CropKit
import Foundation

/// Progress on the console: a live bar on a terminal, periodic lines otherwise, only
/// failures with --quiet, NDJSON events with --json. On the console, the first
/// `shownPerKind` warnings of each kind (and outputs no longer produced) are printed and the
/// rest counted in one line at the end, so that a night of a million photos does not print a
/// line for each; `--json` prints every one. Failures are always printed one by one.
final class ConsoleReporter: RunReporter, @unchecked Sendable {
  enum Mode { case bar, lines, quiet, json }

  /// Warnings of one kind printed before the rest are only counted.
  static let shownPerKind = 5

  let mode: Mode
  /// Warnings seen so far, by kind (`stale` for outputs no longer produced).
  private var warningsByKind: [String: Int] = [:]
  private let lock = NSLock()
  private var total = 0
  private var done = 0
  private let start = Date()
  private var lastPrint = Date(timeIntervalSince1970: 0)

  init(mode: Mode) { self.mode = mode }

  func report(_ event: RunEvent) {
    lock.lock()
    defer { lock.unlock() }
    if mode == .json {
      Console.out(Self.json(event))
      return
    }
    switch event {
    case .started(let total, _):
      self.total = total
    case .wrote, .skipped:
      done += 1
      progress()
    case .failed(let path, let source, let reason):
      done += 1
      if mode == .bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      Console.err("failed: \(path)\(Self.from(source)): \(reason)")
      progress()
    case .pruned(let path):
      if mode != .quiet { Console.err("pruned: \(path)") }
    case .stale(let path):
      if mode != .quiet && shouldShow(kind: "stale") {
        Console.err("no longer produced: \(path) (use --prune to delete)")
      }
    case .warning(let warning):
      if mode != .quiet && shouldShow(kind: warning.kind) {
        if mode == .bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        Console.err(warning.text)
      }
    case .kept(let path, let source):
      if mode != .quiet { Console.err("kept from the last good run: \(path) (from \(source), which failed this run)") }
    case .decoded, .indexed:
      break
    case .finished(let s):
      if mode == .bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      var line =
        "\(s.interrupted ? "interrupted" : "done"): \(s.written) written, \(s.upToDate) up to date, \(s.failed) failed (\(s.planned) planned, \(s.decodes) decodes) in \(String(format: "%.2f", Date().timeIntervalSince(start))) s"
      if s.stale > 0 { line += "; \(s.stale) no longer produced" }
      if s.pruned > 0 { line += "; \(s.pruned) pruned" }
      if s.kept > 0 { line += "; \(s.kept) kept from the last good run" }
      if s.indexed > 0 { line += "; \(s.indexed) index files written" }
      for line in unshownWarnings() { Console.err(line) }
      Console.err(line)
      if !s.failures.isEmpty {
        Console.err("failures:")
        for f in s.failures.sorted(by: { $0.output < $1.output }) {
          Console.err("  \(f.output)\(Self.from(f.source)): \(f.reason)")
        }
      }
    }
  }

  /// Counts a warning of `kind`; whether it is among the first `shownPerKind` of its kind.
  private func shouldShow(kind: String) -> Bool {
    let seen = warningsByKind[kind, default: 0] + 1
    warningsByKind[kind] = seen
    return seen <= Self.shownPerKind
  }

  /// One line per kind with warnings that were counted but not printed.
  private func unshownWarnings() -> [String] {
    warningsByKind.sorted { $0.key < $1.key }.compactMap { kind, count in
      guard count > Self.shownPerKind else { return nil }
      let more = count - Self.shownPerKind
      let what =
        kind == "stale" ? "output\(more == 1 ? "" : "s") no longer produced" : "\(kind) warning\(more == 1 ? "" : "s")"
      return
        "warning: \(more) more \(what) not shown (\(count) in all; "
        + "`cropjob run --json` prints each as an event, `cropjob plan --format json` lists them)"
    }
  }

  /// ` (from photo.jpg)`, or nothing for a failure of no one source.
  static func from(_ source: String) -> String { source.isEmpty ? "" : " (from \(source))" }

  /// A line or the bar; nothing when no output is planned (no `0/0`, no negative ETA).
  private func progress() {
    guard total > 0 else { return }
    let now = Date()
    let elapsed = now.timeIntervalSince(start)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let eta = rate > 0 ? Double(total - done) / rate : 0
    switch mode {
    case .bar:
      guard now.timeIntervalSince(lastPrint) > 0.1 || done == total else { return }
      lastPrint = now
      let width = 30
      let filled = total > 0 ? width * done / total : width
      let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
      FileHandle.standardError.write(
        Data(
          "\r\(bar) \(done)/\(total) \(String(format: "%.1f", rate))/s ETA \(String(format: "%.0f", eta))s\u{1B}[K".utf8
        ))
    case .lines:
      guard now.timeIntervalSince(lastPrint) > 2 || done == total else { return }
      lastPrint = now
      Console.err(
        "progress: \(done)/\(total) (\(String(format: "%.1f", rate))/s, ETA \(String(format: "%.0f", eta)) s)")
    case .quiet, .json:
      break
    }
  }

  static func json(_ event: RunEvent) -> String {
    var object: [String: Any]
    switch event {
    case .started(let total, _): object = ["event": "started", "total": total]
    case .decoded(let source): object = ["event": "decoded", "source": source]
    case .wrote(let path, let bytes, let quality, let encodes):
      object = ["event": "wrote", "path": path, "bytes": bytes, "quality": quality, "encodes": encodes]
    case .skipped(let path): object = ["event": "up-to-date", "path": path]
    case .failed(let path, let source, let reason):
      object = ["event": "failed", "path": path, "source": source, "reason": reason]
    case .pruned(let path): object = ["event": "pruned", "path": path]
    case .stale(let path): object = ["event": "stale", "path": path]
    case .warning(let w):
      object = ["event": "warning", "kind": w.kind, "message": w.message]
      if let path = w.path { object["path"] = path }
      if let job = w.job { object["job"] = job }
      if let source = w.source { object["source"] = source }
    case .kept(let path, let source): object = ["event": "kept", "path": path, "source": source]
    case .indexed(let path): object = ["event": "indexed", "path": path]
    case .finished(let s):
      object = [
        "event": "finished", "planned": s.planned, "written": s.written, "upToDate": s.upToDate, "failed": s.failed,
        "decodes": s.decodes, "encodes": s.encodes, "interrupted": s.interrupted, "pruned": s.pruned, "stale": s.stale,
        "kept": s.kept,
        "failures": s.failures.sorted { ($0.output, $0.source) < ($1.output, $1.source) }.map {
          ["output": $0.output, "source": $0.source, "reason": $0.reason]
        },
      ]
    }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
