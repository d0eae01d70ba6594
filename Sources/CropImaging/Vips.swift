internal import CVipsShim
import Foundation

/// Process-wide libvips set-up and the one place that reads libvips' error buffer.
package enum Vips {
  /// libvips' worker threads per pipeline: 1. cropjob runs photos in parallel on Dispatch
  /// instead (`--jobs`); on 2 cores more libvips threads were no faster with two workers and
  /// ~9 % slower with one (docs/threads.md).
  nonisolated(unsafe) private static var started = false
  nonisolated(unsafe) private static var lazy = false
  private static let lock = NSLock()

  /// Starts libvips once. Safe to call many times. Every path that hands libvips a file or
  /// bytes calls it first (an operation called before it would start libvips unblocked).
  package static func start(threads: Int = 1) {
    lock.lock()
    defer { lock.unlock() }
    guard !started else { return }
    // Untrusted loaders (e.g. ImageMagick, matload, FITS) are blocked: cropjob reads photos
    // from anyone, and only formats with hardened loaders are accepted.
    if cj_init("cropjob", Int32(threads), 0, 1) != 0 {
      fatalError("libvips failed to start: \(takeError())")
    }
    started = true
  }

  /// Lets libvips start on first use, on any thread: for a program's first lines, while it
  /// has one thread (cropjob's `main`). Starting libvips points `VIPSHOME` elsewhere for a
  /// moment (`cj_start.c`), which must not race another thread's `getenv`; this sets it once,
  /// now, and leaves it set. Then `startBeforeThreads` no longer starts libvips, and a run
  /// that decodes nothing (a no-op re-run, `plan` over known sources) never starts it:
  /// about 14 % of such a run's CPU (vips-heif's libraries, libvips' type system).
  package static func prepareLazyStart() {
    lock.lock()
    defer { lock.unlock() }
    guard !started, !lazy else { return }
    cj_prepare_lazy_start()
    lazy = true
  }

  /// For code about to start threads that may use libvips: starts it now, unless
  /// `prepareLazyStart` made a start on any thread safe, in which case it starts on first use.
  package static func startBeforeThreads() {
    lock.lock()
    let deferred = lazy
    lock.unlock()
    if !deferred { start() }
  }

  /// libvips' version, e.g. "8.14.1" (libvips need not be started to tell it).
  package static var version: String { String(cString: cj_vips_version()) }

  /// Copies and clears libvips' error buffer.
  package static func takeError() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    cj_take_error(&buffer, buffer.count)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Takes the messages libvips (or GLib on its behalf) logged where no image's read was
  /// being captured, e.g. on one of libvips' worker threads during an encode: each
  /// "domain: text". They are never printed raw; cropjob's commands report them as their
  /// own warnings, and a library user may do the same. Empty before libvips started.
  package static func takeUnattributedMessages() -> [String] {
    lock.lock()
    let running = started
    lock.unlock()
    guard running else { return [] }
    var buffer = [CChar](repeating: 0, count: 16_500)
    let count = cj_uncaptured_take(&buffer, buffer.count)
    guard count > 0 else { return [] }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init)
    return lines.isEmpty ? ["\(count) message(s) from libvips"] : lines
  }

  /// Throws an `ImagingError` with libvips' message when `status` is not 0.
  static func check(_ status: Int32, _ operation: String, path: String?) throws(ImagingError) {
    if status != 0 {
      throw ImagingError(operation: operation, path: path, message: takeError())
    }
  }

  /// Whether this libvips build has an operation with the given nickname.
  package static func hasOperation(_ nickname: String) -> Bool {
    start()
    return cj_has_operation(nickname) != 0
  }
}
